/**
 * The structured grader's code: the grade itself and the loaders of what its configuration points at.
 * `grader.ts` imports it when the grader is selected, so a run without it never loads it.
 */
import { type ContentRef, refLayers } from "../fingerprint.ts";
import { loadClauses } from "./clauses/load.ts";
import type { StructuredGates } from "./gates.ts";
import { gradeStructured, type StructuredOptions } from "./grade.ts";
import { loadOverrides } from "./handoff.ts";
import { loadRequirements } from "./requirements/load.ts";

export { gradeStructured };

/** The loaded configuration, with the grading code it runs. */
export interface LoadedStructured extends StructuredOptions {
  readonly gradeStructured: typeof gradeStructured;
}

/** What the configuration (`StructuredConfig`) points at, by path. */
interface StructuredSources {
  readonly requirements: ContentRef;
  readonly policies: ContentRef;
  readonly handoff_overrides: { readonly path: string } | null;
  readonly gate: StructuredGates;
}

export const loadStructuredOptions = (config: StructuredSources): StructuredOptions => ({
  requirements: loadRequirements(refLayers(config.requirements)),
  clauses: loadClauses(refLayers(config.policies)),
  handoffOverrides: config.handoff_overrides === null ? null : loadOverrides(config.handoff_overrides.path),
  gates: config.gate,
});

/** Options built in code (probes, tests) as the grader's loaded configuration. */
export const loadedStructured = (options: StructuredOptions): LoadedStructured => ({
  ...options,
  gradeStructured,
});
