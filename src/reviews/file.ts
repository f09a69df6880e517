/**
 * The reviews file (`reviews/<experiment>.json`): reviewer verdicts on causes, kept in the repo as
 * diffable JSON. An entry is keyed by the simulation's content fingerprint and the cause (grader, kind,
 * reference), so it survives re-runs and goes stale when either changes. Entries are written sorted,
 * one key order, so a new review is a small diff. `sampled` holds the reviews of simulations drawn at
 * random among those both sides of a comparison pass (`review sample`): what recall is measured from.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { describeZodError } from "../formats/zod-issues.ts";
import { CAUSE_KIND_NAMES } from "../graders/causes.ts";
import { GRADER_IDS, isGraderId } from "../graders/registry.ts";
import { EXIT_USAGE, RescoreError } from "../util/errors.ts";
import { z } from "../util/zod.ts";

export const REVIEW_VERDICTS = ["confirmed", "false_positive", "unclear"] as const;
export type ReviewVerdict = (typeof REVIEW_VERDICTS)[number];

export const reviewEntrySchema = z.strictObject({
  /** sha256 of the simulation's id, task id, trial, termination reason and messages. */
  fingerprint: z.string().regex(/^[0-9a-f]{64}$/, "a simulation fingerprint is 64 lowercase hex digits"),
  /** For humans: the id in the trajectory file, and the file's path relative to the corpus root. */
  simulation_id: z.string().nullable(),
  path: z.string().nullable(),
  grader: z.string().refine(isGraderId, {
    error: (i) => `unknown grader ${JSON.stringify(i.input)} (${GRADER_IDS.join(", ")})`,
  }),
  kind: z.enum(CAUSE_KIND_NAMES),
  reference: z.string().min(1),
  verdict: z.enum(REVIEW_VERDICTS),
  reason: z.string().trim().min(1, "every review needs a reason"),
  reviewer: z.string().trim().min(1).optional(),
  date: z.iso.date().optional(),
});
export type ReviewEntry = z.infer<typeof reviewEntrySchema>;

export const reviewKey = (e: Pick<ReviewEntry, "fingerprint" | "grader" | "kind" | "reference">): string =>
  `${e.fingerprint}\u0000${e.grader}\u0000${e.kind}\u0000${e.reference}`;

export const SAMPLE_VERDICTS = ["clean", "missed", "unclear"] as const;
export type SampleVerdict = (typeof SAMPLE_VERDICTS)[number];

/** A review of a simulation drawn by `review sample`: did both sides of the comparison miss a violation? */
export const sampledReviewSchema = z.strictObject({
  fingerprint: z.string().regex(/^[0-9a-f]{64}$/, "a simulation fingerprint is 64 lowercase hex digits"),
  simulation_id: z.string().nullable(),
  path: z.string().nullable(),
  /** The comparison whose both-pass simulations it was drawn from, by name. */
  comparison: z.string().min(1),
  /** The seed of the draw, so the sample can be drawn again and extended. */
  seed: z.int().min(0),
  verdict: z.enum(SAMPLE_VERDICTS),
  reason: z.string().trim().min(1, "every review needs a reason"),
  reviewer: z.string().trim().min(1).optional(),
  date: z.iso.date().optional(),
});
export type SampledReview = z.infer<typeof sampledReviewSchema>;

export const sampledKey = (e: Pick<SampledReview, "fingerprint" | "comparison">): string =>
  `${e.fingerprint}\u0000${e.comparison}`;

export const reviewFileSchema = z
  .strictObject({
    version: z.literal(1),
    reviews: z.array(reviewEntrySchema),
    /** Absent in files written before sampling (and whenever there are none). */
    sampled: z.array(sampledReviewSchema).optional(),
  })
  .superRefine((f, ctx) => {
    const sampled = new Map<string, number>();
    (f.sampled ?? []).forEach((e, i) => {
      const first = sampled.get(sampledKey(e));
      if (first !== undefined)
        ctx.addIssue({
          code: "custom",
          path: ["sampled", i],
          message: `the same simulation and comparison as sampled[${first}] (one review per sampled simulation)`,
        });
      else sampled.set(sampledKey(e), i);
    });
    const seen = new Map<string, number>();
    f.reviews.forEach((e, i) => {
      const first = seen.get(reviewKey(e));
      if (first !== undefined)
        ctx.addIssue({
          code: "custom",
          path: ["reviews", i],
          message: `the same simulation and cause as reviews[${first}] (one review per cause)`,
        });
      else seen.set(reviewKey(e), i);
    });
  });
export type ReviewFile = z.infer<typeof reviewFileSchema>;

export class ReviewFileError extends RescoreError {
  override readonly code = "review_file";
  override readonly exitStatus = EXIT_USAGE;

  override readonly name = "ReviewFileError";
}

export const emptyReviewFile = (): ReviewFile => ({ version: 1, reviews: [] });

/** The file's reviews; a missing file has none (the first `review` writes it). */
export function readReviewFile(path: string): ReviewFile {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return emptyReviewFile();
    throw new ReviewFileError(`${path}: cannot read: ${(e as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new ReviewFileError(`${path}: ${(e as Error).message}`);
  }
  const parsed = reviewFileSchema.safeParse(raw);
  if (!parsed.success) throw new ReviewFileError(`${path}: ${describeZodError(parsed.error)}`);
  return parsed.data;
}

const ORDER: readonly (keyof ReviewEntry)[] = [
  "path",
  "simulation_id",
  "fingerprint",
  "grader",
  "kind",
  "reference",
  "verdict",
  "reason",
  "reviewer",
  "date",
];

const compareEntries = (a: ReviewEntry, b: ReviewEntry): number => {
  for (const k of ["path", "simulation_id", "fingerprint", "grader", "kind", "reference"] as const) {
    const x = a[k] ?? "";
    const y = b[k] ?? "";
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
};

const SAMPLED_ORDER: readonly (keyof SampledReview)[] = [
  "path",
  "simulation_id",
  "fingerprint",
  "comparison",
  "seed",
  "verdict",
  "reason",
  "reviewer",
  "date",
];

const compareSampled = (a: SampledReview, b: SampledReview): number => {
  for (const k of ["comparison", "path", "simulation_id", "fingerprint"] as const) {
    const x = a[k] ?? "";
    const y = b[k] ?? "";
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
};

function ordered<T extends object>(e: T, order: readonly (keyof T)[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of order) if (e[k] !== undefined) out[k as string] = e[k];
  return out;
}

/** The file as written: entries sorted by path, simulation and cause, keys in one order. */
export function formatReviewFile(file: ReviewFile): string {
  const reviews = [...file.reviews].sort(compareEntries).map((e) => ordered(e, ORDER));
  // No `sampled` key without sampled reviews: a file of flip reviews keeps its bytes.
  const sampled = [...(file.sampled ?? [])].sort(compareSampled).map((e) => ordered(e, SAMPLED_ORDER));
  return `${JSON.stringify({ version: file.version, reviews, ...(sampled.length > 0 ? { sampled } : {}) }, null, 2)}\n`;
}

/** Writes atomically (a temp file renamed over the old one): an interrupted write loses nothing. */
export function writeReviewFile(path: string, file: ReviewFile): void {
  reviewFileSchema.parse(file);
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.partial-${process.pid}`;
  writeFileSync(tmp, formatReviewFile(file));
  renameSync(tmp, path);
}

/** The file with `entry` added, or replacing the review of the same simulation and cause. */
export function upsertReview(file: ReviewFile, entry: ReviewEntry): { file: ReviewFile; replaced: boolean } {
  const key = reviewKey(entry);
  const rest = file.reviews.filter((e) => reviewKey(e) !== key);
  return {
    file: { ...file, reviews: [...rest, entry] },
    replaced: rest.length !== file.reviews.length,
  };
}

/** The file with `entry` added, or replacing the review of the same simulation in the same comparison. */
export function upsertSampled(
  file: ReviewFile,
  entry: SampledReview,
): { file: ReviewFile; replaced: boolean } {
  const key = sampledKey(entry);
  const old = file.sampled ?? [];
  const rest = old.filter((e) => sampledKey(e) !== key);
  return { file: { ...file, sampled: [...rest, entry] }, replaced: rest.length !== old.length };
}
