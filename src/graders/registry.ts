/**
 * Every grader, in the order they run (a grader comes after those it reads). The built-in ones are
 * listed here, one line each; adding one is a compile error until the places that must handle it do:
 * the grading spec (`spec.ts`) builds a configuration for every built-in id. Graders from outside the
 * package (an experiment's `grader_modules`) are added with `registerGrader` and run after them.
 */

import { EXIT_USAGE, RescoreError } from "../util/errors.ts";
import type { z } from "../util/zod.ts";
import { tau3CorrectedGrader } from "./corrections/grader.ts";
import type { Grader, GraderChoices, GraderInput, SelectionProblem, VerdictRecord } from "./grader.ts";
import { structuredGrader } from "./structured/grader.ts";
import { structuredInformedGrader } from "./structured/informed.ts";
import { structuredStrictGrader } from "./structured/strict.ts";
import { tau3Grader } from "./tau3/grader.ts";

export const GRADERS = {
  tau3: tau3Grader,
  tau3_corrected: tau3CorrectedGrader,
  structured: structuredGrader,
  structured_strict: structuredStrictGrader,
  structured_informed: structuredInformedGrader,
} as const;

export type BuiltInGraderId = keyof typeof GRADERS;
/** A built-in grader's id, or one registered at run time (`registerGrader`). */
export type GraderId = BuiltInGraderId | (string & {});
/**
 * Every grader's id in run order: the built-in ones, then the registered ones as they were registered.
 * `registerGrader` appends to this very array, so every loop over it sees them.
 */
export const GRADER_IDS: GraderId[] = Object.keys(GRADERS) as BuiltInGraderId[];

// biome-ignore lint/suspicious/noExplicitAny: matching any grader's type parameters
export type AnyGrader = Grader<string, any, any, any, any>;
export type LoadedOf<K extends BuiltInGraderId> = Awaited<ReturnType<(typeof GRADERS)[K]["load"]>>;
export type VerdictOf<K extends BuiltInGraderId> = Exclude<
  Awaited<ReturnType<(typeof GRADERS)[K]["grade"]>>,
  null
>;

/** One simulation's verdicts, by grader (a grader that did not run or did not apply has none). */
export type Verdicts = { readonly [K in BuiltInGraderId]?: VerdictOf<K> } & {
  readonly [id: string]: unknown;
};
/** Each selected grader's loaded configuration (τ³ needs none). */
export type LoadedGraders = { readonly [K in BuiltInGraderId]?: LoadedOf<K> } & {
  readonly [id: string]: unknown;
};

const registered = new Map<string, AnyGrader>();
/** The module each registered grader came from, when it was registered with one. */
const origins = new Map<string, string>();

export const isBuiltInGraderId = (s: string): s is BuiltInGraderId => Object.hasOwn(GRADERS, s);
export const isGraderId = (s: string): s is GraderId => isBuiltInGraderId(s) || registered.has(s);

/** What a grader's id may look like: it names store rows, report columns and files. */
export const GRADER_ID_PATTERN = /^[a-z][a-z0-9_]*$/;

export class GraderRegistrationError extends RescoreError {
  override readonly code = "grader_registration";
  override readonly exitStatus = EXIT_USAGE;

  override readonly name = "GraderRegistrationError";
}

/**
 * Adds a grader defined outside the package, from the module at `origin` (which messages about it name).
 * It runs after every grader already known, so it may read (and require) only those. Registering the
 * same value again does nothing (a module imported twice).
 */
export function registerGrader(g: AnyGrader, origin?: string): void {
  const fail = (why: string) => {
    throw new GraderRegistrationError(`grader ${JSON.stringify(g?.id)}: ${why}`);
  };
  if (typeof g !== "object" || g === null) fail("not a grader value (export one made with defineGrader)");
  if (typeof g.id !== "string" || !GRADER_ID_PATTERN.test(g.id))
    fail("an id is lowercase letters, digits and _, starting with a letter");
  if (registered.get(g.id) === g) return;
  if (isGraderId(g.id) || g.id === "recorded") fail("this id is taken");
  for (const key of ["version", "label", "description"] as const)
    if (typeof g[key] !== "string" || g[key] === "") fail(`${key} must be a non-empty string`);
  for (const key of ["load", "grade", "record", "json"] as const)
    if (typeof g[key] !== "function") fail(`${key} must be a function`);
  if (typeof g.config?.safeParse !== "function") fail("config must be a zod schema");
  if (!Array.isArray(g.requires) || !Array.isArray(g.reads))
    fail("requires and reads must be lists of grader ids");
  for (const r of [...g.requires, ...g.reads])
    if (!isGraderId(r)) fail(`it reads ${r}, which is not a grader registered before it`);
  for (const r of g.requires) if (!g.reads.includes(r)) fail(`it requires ${r}: list it in reads too`);
  registered.set(g.id, g);
  if (origin !== undefined) origins.set(g.id, origin);
  GRADER_IDS.push(g.id);
}

/** How messages name a registered grader: `grader module <path> (grader <id>)`, or `grader <id>`. */
export function graderModuleLabel(id: GraderId): string {
  const origin = origins.get(id);
  return origin === undefined ? `grader ${id}` : `grader module ${origin} (grader ${id})`;
}

/**
 * The registry seen without its per-grader types, for the loops that treat every grader alike. Each
 * grader gets exactly its own loaded configuration and the verdicts of the graders before it.
 */
export interface ErasedGrader {
  readonly id: GraderId;
  readonly version: string;
  readonly label: string;
  readonly requires: readonly GraderId[];
  readonly reads: readonly GraderId[];
  readonly readsWriteJournal?: boolean;
  readonly comparedWith?: { readonly baseline: string; readonly order: number };
  readonly config: z.ZodType;
  readonly configFrom?: (choices: GraderChoices) => unknown;
  readonly companions?: readonly GraderId[];
  readonly checkSelection?: (
    own: unknown,
    selected: Readonly<Record<string, unknown>>,
  ) => SelectionProblem | null;
  load(config: unknown): unknown;
  grade(input: GraderInput, loaded: unknown, prior: Verdicts): unknown;
  record(verdict: unknown): VerdictRecord;
  json(verdict: unknown): unknown;
}

export function graderOf(id: GraderId): ErasedGrader {
  const g = isBuiltInGraderId(id) ? GRADERS[id] : registered.get(id);
  if (g === undefined) throw new GraderRegistrationError(`unknown grader ${id}`);
  return g as AnyGrader as ErasedGrader;
}
