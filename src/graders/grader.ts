/**
 * A grader is a value (like an Inspect scorer): an id, a version, a zod schema for its configuration,
 * a pure `grade`, and the projections of its verdict into store rows and JSON. The registry
 * (`registry.ts`) lists the built-in ones, and an experiment's `grader_modules` add their own (a module's
 * default export); the pipeline, the store and the analyses handle every grader the same way.
 */
import type { DomainDef } from "../domains/domain.ts";
import type { Simulation, Task } from "../formats/model.ts";
import type { FolderSource } from "../util/layers.ts";
import type { z } from "../util/zod.ts";
import type { Cause } from "./causes.ts";
import type { GradingContext } from "./context.ts";
import type { NlJudge } from "./tau3/nl.ts";

/** What every grader sees of one simulation. */
export interface GraderInput {
  readonly ctx: GradingContext;
  readonly domain: DomainDef;
  readonly task: Task;
  readonly sim: Simulation;
  /** Solo mode (`llm_agent_solo` + `dummy_user`). */
  readonly solo: boolean;
  /** The task set the file's tasks were matched to (or assumed, for files that embed none). */
  readonly taskVersion: string;
  /** Every task-set name the file's tasks equal, in preference order (fixtures are looked up under each). */
  readonly taskVersions: readonly string[];
  /** The NL-assertion judge of this run (graders that judge NL assertions share it). */
  readonly judge: NlJudge;
  /** Whether τ³'s replay records which call wrote what (only when a selected grader reads it). */
  readonly recordWrites: boolean;
}

export interface ComponentRecord {
  readonly name: string;
  /** Null = not computable (see the verdict's notes). */
  readonly score: number | null;
  readonly inBasis: boolean;
  /** Scored 1.0 because there was nothing to check. */
  readonly vacuous: boolean;
}

/**
 * What a grader that reads authored inputs (fixtures, facts, clauses) could check one simulation
 * against: where these are few, the grader had less to check, and the report says so.
 */
export interface CoverageRecord {
  /** Fixture files that applied. */
  readonly fixtures: readonly string[];
  readonly facts: number;
  readonly clauses: number;
  /** Fixtures for the task that did not apply, with why (`fixture` null: there is none). */
  readonly skipped: readonly { readonly fixture: string | null; readonly reason: string }[];
}

/** A verdict as the store keeps it. */
export interface VerdictRecord {
  /** Null = unknown (e.g. an unjudged NL assertion in the basis). */
  readonly pass: boolean | null;
  readonly reward: number | null;
  readonly dbMatch: boolean | null;
  readonly notes: readonly string[];
  /** Why a live NL judge failed on this verdict, or null; the next run grades the file again. */
  readonly judgeFailure: string | null;
  readonly components: readonly ComponentRecord[];
  /** Gating causes first, in the order the grader found them. */
  readonly causes: readonly Cause[];
  /** Only graders that read authored inputs record it. */
  readonly coverage?: CoverageRecord;
}

/** What a user chose (an experiment's keys, or `grade`'s flags) that a grader may build its configuration from. */
export interface GraderChoices {
  /** A folder, or a project's folder over the curated set (`layerOver`). */
  readonly requirementsDir: FolderSource;
  readonly policiesDir: FolderSource;
  readonly correctionsDir: FolderSource;
  readonly handoffOverrides: string | null;
  /** The experiment's `gate` (what fails the structured verdict). */
  readonly gate: unknown;
}

/** A rule across the selected graders that a configuration breaks: where in it, and why. */
export interface SelectionProblem {
  readonly path: readonly (string | number)[];
  readonly message: string;
}

export interface Grader<Id extends string, Config, Loaded, Verdict, Prior> {
  readonly id: Id;
  /** Changes whenever the same configuration could grade a simulation differently. */
  readonly version: string;
  /** The name charts and reports show. */
  readonly label: string;
  readonly description: string;
  /** The grader's configuration: plain JSON, validated before anything runs, hashed into `spec_hash`. */
  readonly config: z.ZodType<Config>;
  /** Graders that must run for this one to (it builds on their verdicts); they come earlier in the registry. */
  readonly requires: readonly string[];
  /** Every grader whose verdict `grade` reads when it ran (`requires` and optional ones): its spec hash covers theirs. */
  readonly reads: readonly string[];
  /**
   * What this grader is compared with when an experiment lists no comparisons: a grader it builds on, or
   * `recorded` (the reward stored in the file). Defaults come in `order` (lowest first; the first is the
   * headline).
   */
  readonly comparedWith?: { readonly baseline: string; readonly order: number };
  /**
   * Its configuration from the experiment's own keys (folders, gates), before `config` parses it.
   * Without it, the grader's configuration is `grader_config.<id>` (empty when absent), as for a grader
   * from outside; with it, `grader_config.<id>` is refused.
   */
  readonly configFrom?: (choices: GraderChoices) => unknown;
  /** Graders selected with this one whenever it is (their verdicts are always stored beside its own). */
  readonly companions?: readonly string[];
  /** A rule its configuration must keep given the other selected graders' (by id); null when it does. */
  readonly checkSelection?: (
    own: Config,
    selected: Readonly<Record<string, unknown>>,
  ) => SelectionProblem | null;
  /** Reads τ³'s write journal (τ³ records one only when such a grader runs: it costs time). */
  readonly readsWriteJournal?: boolean;
  /** Reads what the configuration points at (fixtures, overlays) once per process or thread. */
  load(config: Config): Loaded | Promise<Loaded>;
  /** Null when the grader does not apply to this simulation (e.g. no overlay for its domain). */
  grade(input: GraderInput, loaded: Loaded, prior: Prior): Verdict | null | Promise<Verdict | null>;
  record(verdict: Verdict): VerdictRecord;
  /** The verdict as one JSON value (`tau-rescore grade` output): evidence kept, replayed states left out. */
  json(verdict: Verdict): unknown;
}

/** Declares a grader with its types inferred (the registry keeps them). */
export const defineGrader = <Id extends string, Config, Loaded, Verdict, Prior>(
  g: Grader<Id, Config, Loaded, Verdict, Prior>,
): Grader<Id, Config, Loaded, Verdict, Prior> => g;
