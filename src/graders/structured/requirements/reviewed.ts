/**
 * Review notes: every scanned candidate that did not become a rule gets a one-line reason in
 * `requirements/<domain>/<task-version>/_reviewed-candidates.json`, so coverage is auditable.
 *
 * A note with `task_id: "*"` covers that exact sentence in that field of every task of the version:
 * generated task sets (telecom's 2,285 tasks) repeat a handful of template sentences whose reading
 * does not depend on the task. Such a note is stale only when no task has the sentence any more.
 */
import { existsSync, readFileSync } from "node:fs";
import { describeZodError } from "../../../formats/zod-issues.ts";
import { z } from "../../../util/zod.ts";
import { SOURCE_FIELDS } from "./schema.ts";

/** The `task_id` of a note that covers the sentence in every task of its version. */
export const EVERY_TASK = "*";

export const reviewedCandidateSchema = z.strictObject({
  /** A task id, or `*` for every task of the version. */
  task_id: z.string(),
  field: z.enum(SOURCE_FIELDS),
  sentence: z.string().min(1),
  reason: z.string().min(1),
});
export type ReviewedCandidate = z.infer<typeof reviewedCandidateSchema>;

export type ReviewedFile =
  | { readonly ok: true; readonly entries: readonly ReviewedCandidate[] }
  | { readonly ok: false; readonly message: string };

/** A missing file is an empty review (every candidate then shows up as unreviewed). */
export function loadReviewedCandidates(path: string): ReviewedFile {
  if (!existsSync(path)) return { ok: true, entries: [] };
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    return { ok: false, message: `invalid JSON: ${(e as Error).message}` };
  }
  const parsed = z.array(reviewedCandidateSchema).safeParse(raw);
  if (!parsed.success) {
    return { ok: false, message: describeZodError(parsed.error) };
  }
  return { ok: true, entries: parsed.data };
}

/** The key a review note and a candidate share. */
export const reviewKey = (taskId: string, field: string, sentence: string): string =>
  `${taskId}\u0000${field}\u0000${sentence}`;
