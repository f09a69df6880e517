/**
 * Comparisons: two ways of grading the same simulations, side by side. Either side is a grader the run
 * selected or `recorded`, the reward stored in the file, read as a verdict (a pass is a reward of 1,
 * as tau2 counts one). The first comparison is the headline.
 */
import { LIMITS, nameTooLong } from "../util/limits.ts";
import { z } from "../util/zod.ts";
import { type GraderId, graderOf, isGraderId } from "./registry.ts";

/** The pseudo-grader whose verdict is the reward the file recorded. */
export const RECORDED = "recorded";

/** How far from 1 a recorded reward may be and still count as a pass (tau2's success tolerance). */
export const RECORDED_PASS_TOLERANCE = 1e-6;

/** The recorded reward as a verdict: unknown without a (finite) reward. */
export const recordedPass = (reward: number | null | undefined): boolean | null =>
  reward === null || reward === undefined || Number.isNaN(reward)
    ? null
    : Math.abs(reward - 1) <= RECORDED_PASS_TOLERANCE;

/** Whether any comparison reads the recorded reward. */
export const comparesRecorded = (comparisons: readonly Comparison[]): boolean =>
  comparisons.some((c) => c.baseline === RECORDED || c.candidate === RECORDED);

export interface Comparison {
  readonly name: string;
  readonly baseline: string;
  readonly candidate: string;
}

/** A comparison's name unless the experiment gives one: `<baseline>-vs-<candidate>`. */
export const comparisonName = (baseline: string, candidate: string): string => `${baseline}-vs-${candidate}`;

export const comparisonSchema = z.strictObject({
  baseline: z.string().min(1),
  candidate: z.string().min(1),
  /** Letters, digits, `_`, `.` and `-` (it names report files and `review --comparison`). */
  name: z
    .string()
    .regex(/^[A-Za-z0-9_.-]+$/, "a comparison name may hold letters, digits, _, . and -")
    .refine((n) => n !== "." && n !== "..", "a comparison name may not be . or ..")
    .max(LIMITS.nameLength.max, { error: (i) => nameTooLong("a comparison name", i.input) })
    .optional(),
});
export type ComparisonChoice = z.infer<typeof comparisonSchema>;

/** What each selected grader declares it is compared with, in their declared order. */
export function defaultComparisons(graders: readonly GraderId[]): Comparison[] {
  const sides = new Set<string>([RECORDED, ...graders]);
  return graders
    .flatMap((id) => {
      const w = graderOf(id).comparedWith;
      return w !== undefined && sides.has(w.baseline) ? [{ id, ...w }] : [];
    })
    .sort((a, b) => a.order - b.order)
    .map(({ id, baseline }) => ({ name: comparisonName(baseline, id), baseline, candidate: id }));
}

/**
 * The experiment's comparisons with their names, checked against the graders it runs: a message per
 * problem, with the index of the comparison it is about.
 */
export function resolveComparisons(
  chosen: readonly ComparisonChoice[] | undefined,
  graders: readonly GraderId[],
): { comparisons: Comparison[]; problems: { index: number; field: string; message: string }[] } {
  if (chosen === undefined) return { comparisons: defaultComparisons(graders), problems: [] };
  const problems: { index: number; field: string; message: string }[] = [];
  const known = [RECORDED, ...graders];
  const names = new Set<string>();
  const comparisons = chosen.map((c, index) => {
    for (const field of ["baseline", "candidate"] as const) {
      const side = c[field];
      if (side !== RECORDED && !(isGraderId(side) && graders.includes(side)))
        problems.push({
          index,
          field,
          message: `${JSON.stringify(side)} is not a grader this experiment runs (${known.join(", ")})`,
        });
    }
    if (c.baseline === c.candidate)
      problems.push({ index, field: "candidate", message: "a comparison needs two different sides" });
    const name = c.name ?? comparisonName(c.baseline, c.candidate);
    if (names.has(name))
      problems.push({ index, field: "name", message: `comparison ${name} is declared twice` });
    names.add(name);
    return { name, baseline: c.baseline, candidate: c.candidate };
  });
  return { comparisons, problems };
}
