/**
 * Puts an experiment's reviews into the store's `reviews` and `sample_reviews` tables, replacing the ones
 * loaded before, so the analysis views (`review_status`, precision, confirmed flip rates, miss rates)
 * stay plain SQL.
 */
import { type RowOf, TABLES } from "../store/schema.ts";
import type { VerdictStore } from "../store/store.ts";
import type { ReviewEntry, SampledReview } from "./file.ts";

/** A database name as an SQL identifier (a name cannot be a bound parameter). */
const quotedIdentifier = (name: string) => `"${name.replaceAll('"', '""')}"`;

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

/**
 * The experiment's reviews into the store: its tables, or, for a store opened read-only (another
 * process, such as `view`, has it open), TEMP tables laid over them that the views read in their place.
 */
export async function saveReviews(
  store: VerdictStore,
  experiment: string,
  reviews: readonly ReviewEntry[],
  sampled: readonly SampledReview[] = [],
): Promise<void> {
  if (store.readOnly) {
    await overlayReviews(store, experiment, reviews);
    await overlaySampledReviews(store, experiment, sampled);
    return;
  }
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
  const stored = `${quotedIdentifier(db)}.main.sample_reviews`;
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

/** The experiment's reviews as the analysis views will see them, in place of those the store holds. */
export async function overlayReviews(
  store: VerdictStore,
  experiment: string,
  reviews: readonly ReviewEntry[],
): Promise<void> {
  const db = (await store.query<{ db: string }>("SELECT current_database() AS db"))[0]?.db ?? "";
  const stored = `${quotedIdentifier(db)}.main.reviews`;
  await store.conn.run(
    `CREATE OR REPLACE TEMP TABLE reviews AS SELECT * FROM ${stored} WHERE experiment <> $1`,
    [experiment],
  );
  const appender = await store.conn.createAppender("reviews", "main", "temp");
  try {
    // Every column of `reviews` is VARCHAR.
    for (const row of reviewRows(experiment, reviews)) {
      for (const { name } of TABLES.reviews.columns) {
        const v = row[name];
        if (v === null) appender.appendNull();
        else appender.appendVarchar(v);
      }
      appender.endRow();
    }
  } finally {
    appender.closeSync();
  }
}
