/**
 * The store as `report` reads it: opened read-only (so a read-only file, or one another reader has open,
 * works), with a reviews file laid over its `reviews` table in a TEMP table of the same name, which the
 * analysis views read first. Nothing is ever written into the store.
 */
import { existsSync } from "node:fs";
import type { ReviewEntry } from "../reviews/file.ts";
import { reviewRows } from "../reviews/store.ts";
import { TABLES } from "../store/schema.ts";
import { VerdictStore } from "../store/store.ts";
import { UsageError } from "./errors.ts";

export async function openStoreReadOnly(db: string, memoryLimit?: string): Promise<VerdictStore> {
  if (!existsSync(db))
    throw new UsageError(`${db}: no such DuckDB file (write one with \`tau-rescore run\`)`);
  return await VerdictStore.open(db, { readOnly: true, memoryLimit });
}

/** The experiment's reviews as the analysis views will see them, in place of those the store holds. */
export async function overlayReviews(
  store: VerdictStore,
  experiment: string,
  reviews: readonly ReviewEntry[],
): Promise<void> {
  const db = (await store.query<{ db: string }>("SELECT current_database() AS db"))[0]?.db ?? "";
  const stored = `"${db.replaceAll('"', '""')}".main.reviews`;
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
