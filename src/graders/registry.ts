/**
 * Every grader, in the order they run (a grader comes after those it reads). Adding one here is a
 * compile error until the places that must handle it do: the grading spec (`spec.ts`) builds a
 * configuration for every id, and chart colours are keyed by id.
 */
import { tau3CorrectedGrader } from "./corrections/grader.ts";
import type { Grader, GraderInput, VerdictRecord } from "./grader.ts";
import { structuredGrader } from "./structured/grader.ts";
import { structuredStrictGrader } from "./structured/strict.ts";
import { tau3Grader } from "./tau3/grader.ts";

export const GRADERS = {
  tau3: tau3Grader,
  tau3_corrected: tau3CorrectedGrader,
  structured: structuredGrader,
  structured_strict: structuredStrictGrader,
} as const;

export type GraderId = keyof typeof GRADERS;
export const GRADER_IDS = Object.keys(GRADERS) as GraderId[];

// biome-ignore lint/suspicious/noExplicitAny: matching any grader's type parameters
type AnyOf = Grader<string, any, any, any, any>;
export type LoadedOf<K extends GraderId> = Awaited<ReturnType<(typeof GRADERS)[K]["load"]>>;
export type VerdictOf<K extends GraderId> = Exclude<Awaited<ReturnType<(typeof GRADERS)[K]["grade"]>>, null>;

/** One simulation's verdicts, by grader (a grader that did not run or did not apply has none). */
export type Verdicts = { readonly [K in GraderId]?: VerdictOf<K> };
/** Each selected grader's loaded configuration (τ³ needs none). */
export type LoadedGraders = { readonly [K in GraderId]?: LoadedOf<K> };

export const isGraderId = (s: string): s is GraderId => Object.hasOwn(GRADERS, s);

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
  grade(input: GraderInput, loaded: unknown, prior: Verdicts): unknown;
  record(verdict: unknown): VerdictRecord;
  json(verdict: unknown): unknown;
}
export const graderOf = (id: GraderId): ErasedGrader => GRADERS[id] as AnyOf as ErasedGrader;
