/**
 * Puts an experiment's reviews into the store's `reviews` and `sample_reviews` tables, replacing the ones
 * loaded before, so the analysis views (`review_status`, precision, confirmed flip rates, miss rates)
 * stay plain SQL.
 */
import type { RowOf } from "../store/schema.ts";
import type { VerdictStore } from "../store/store.ts";
import type { ReviewEntry, SampledReview } from "./file.ts";

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

/** The `sample_reviews` rows of an experiment's sampled reviews. */
export const sampledRows = (
  experiment: string,
  sampled: readonly SampledReview[],
): RowOf<"sample_reviews">[] =>
  sampled.map(
    (e): RowOf<"sample_reviews"> => ({
      experiment,
      fingerprint: e.fingerprint,
      comparison: e.comparison,
      seed: e.seed,
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
  sampled: readonly SampledReview[] = [],
): Promise<void> {
  const rows = reviewRows(experiment, reviews);
  const samples = sampledRows(experiment, sampled);
  await store.conn.run("BEGIN TRANSACTION");
  try {
    await store.conn.run("DELETE FROM reviews WHERE experiment = $1", [experiment]);
    if (rows.length > 0) await store.append("reviews", rows);
    await store.conn.run("DELETE FROM sample_reviews WHERE experiment = $1", [experiment]);
    if (samples.length > 0) await store.append("sample_reviews", samples);
    await store.conn.run("COMMIT");
  } catch (e) {
    await store.conn.run("ROLLBACK").catch(() => undefined);
    throw e;
  }
}

/**
 * For a store opened read-only (`report`): the experiment's sampled reviews in a TEMP table named
 * `sample_reviews`, which the views read in place of the stored one.
 */
export async function overlaySampledReviews(
  store: VerdictStore,
  experiment: string,
  sampled: readonly SampledReview[],
): Promise<void> {
  const db = (await store.query<{ db: string }>("SELECT current_database() AS db"))[0]?.db ?? "";
  const stored = `"${db.replaceAll('"', '""')}".main.sample_reviews`;
  await store.conn.run(
    `CREATE OR REPLACE TEMP TABLE sample_reviews AS SELECT * FROM ${stored} WHERE experiment <> $1`,
    [experiment],
  );
  for (const r of sampledRows(experiment, sampled))
    await store.conn.run("INSERT INTO temp.sample_reviews VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)", [
      r.experiment,
      r.fingerprint,
      r.comparison,
      r.seed,
      r.verdict,
      r.reason,
      r.reviewer,
      r.date,
      r.simulation_id,
      r.path,
    ]);
}
