/**
 * Puts an experiment's reviews into the store's `reviews` table, replacing the ones loaded before, so
 * the analysis views (`review_status`, precision, confirmed flip rates) stay plain SQL.
 */
import type { RowOf } from "../store/schema.ts";
import type { VerdictStore } from "../store/store.ts";
import type { ReviewEntry } from "./file.ts";

/** The `reviews` rows of an experiment's reviews. */
export const reviewRows = (experiment: string, reviews: readonly ReviewEntry[]): RowOf<"reviews">[] =>
  reviews.map(
    (e): RowOf<"reviews"> => ({
      experiment,
      fingerprint: e.fingerprint,
      grader: e.grader,
      kind: e.kind,
      reference: e.reference,
      verdict: e.verdict,
      reason: e.reason,
      reviewer: e.reviewer ?? null,
      date: e.date ?? null,
      simulation_id: e.simulation_id,
      path: e.path,
    }),
  );

export async function saveReviews(
  store: VerdictStore,
  experiment: string,
  reviews: readonly ReviewEntry[],
): Promise<void> {
  const rows = reviewRows(experiment, reviews);
  await store.conn.run("BEGIN TRANSACTION");
  try {
    await store.conn.run("DELETE FROM reviews WHERE experiment = $1", [experiment]);
    if (rows.length > 0) await store.append("reviews", rows);
    await store.conn.run("COMMIT");
  } catch (e) {
    await store.conn.run("ROLLBACK").catch(() => undefined);
    throw e;
  }
}
