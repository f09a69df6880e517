/**
 * Writes the census into a DuckDB file as table `probe_census`, so the report can chart it. A run
 * replaces the table (the census is recomputed whole, never appended to; an older layout goes too).
 */
import { VerdictStore } from "../store/store.ts";
import type { CensusRow } from "./census.ts";

/** One row per (domain, task set, probe kind, grader): a new grader adds rows, never columns. */
export const PROBE_CENSUS_DDL = `CREATE OR REPLACE TABLE probe_census (
  domain VARCHAR NOT NULL,
  task_version VARCHAR NOT NULL,
  kind VARCHAR NOT NULL,
  grader VARCHAR NOT NULL,
  tasks INTEGER NOT NULL,
  pass INTEGER NOT NULL,
  unknown INTEGER NOT NULL,
  disagreements VARCHAR NOT NULL,
  errors VARCHAR NOT NULL
)`;

export async function writeCensusTable(
  dbPath: string,
  rows: readonly CensusRow[],
  memoryLimit?: string,
): Promise<void> {
  const store = await VerdictStore.open(dbPath, { memoryLimit });
  try {
    await store.conn.run("BEGIN TRANSACTION");
    try {
      await store.conn.run(PROBE_CENSUS_DDL);
      for (const r of rows) {
        await store.conn.run(
          `INSERT INTO probe_census (domain, task_version, kind, grader, tasks, pass, unknown, disagreements, errors)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
          [
            r.domain,
            r.task_version,
            r.kind,
            r.grader,
            r.tasks,
            r.pass,
            r.unknown,
            JSON.stringify(r.disagreements),
            JSON.stringify(r.errors),
          ],
        );
      }
      await store.conn.run("COMMIT");
    } catch (e) {
      await store.conn.run("ROLLBACK").catch(() => undefined);
      throw e;
    }
  } finally {
    store.close();
  }
}
