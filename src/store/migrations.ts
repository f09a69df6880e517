/**
 * The in-place upgrades of an older store, one step per schema version. `VerdictStore` runs each step
 * in the same transaction as its `store_meta.schema_version` bump, so a killed upgrade leaves the store
 * at the old version or the new one. Each step is also re-runnable: earlier builds committed a step's
 * work before the bump, so a store killed between the two holds work done under the old version, and
 * the step then finishes without adding anything twice.
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import { defaultComparisons } from "../graders/comparisons.ts";
import { GRADER_IDS } from "../graders/registry.ts";
import { ddl, TABLES, type TableName } from "./schema.ts";

export interface MigrationStep {
  /** The schema version this step upgrades from; it leaves the store at `from + 1`. */
  readonly from: number;
  /** What schema `from + 1` added. */
  readonly name: string;
  /** Runs inside the caller's transaction; finds its own work already done without error. */
  readonly apply: (conn: DuckDBConnection) => Promise<void>;
}

async function rowsOf<T>(conn: DuckDBConnection, sql: string): Promise<T[]> {
  return (await conn.runAndReadAll(sql)).getRowObjectsJson() as T[];
}

/**
 * Schema 3 added the `nl_assertions` and `judgments` tables. Every missing table is created, so the
 * later steps find the tables they alter or fill.
 */
const addJudgeTables: MigrationStep = {
  from: 2,
  name: "nl_assertions and judgments tables",
  apply: async (conn) => {
    for (const table of Object.keys(TABLES) as TableName[]) await conn.run(ddl(table));
  },
};

const JUDGE_FAILED_NOTE = "NL_ASSERTION unknown: ";

/**
 * Schema 4 added `verdicts.judge_failure`. A schema-3 store said so only in τ³'s notes (JSON text
 * holding `NL_ASSERTION unknown: NL judge failed: …`), read here to fill the column; filling it again
 * writes the same values.
 */
const addJudgeFailureColumn: MigrationStep = {
  from: 3,
  name: "verdicts.judge_failure column",
  apply: async (conn) => {
    await conn.run("ALTER TABLE verdicts ADD COLUMN IF NOT EXISTS judge_failure VARCHAR");
    const rows = await rowsOf<{ run_id: string; sim_key: string; grader: string; notes: string }>(
      conn,
      "SELECT run_id, sim_key, grader, notes FROM verdicts WHERE notes LIKE '%NL judge failed: %'",
    );
    for (const r of rows) {
      const note = (JSON.parse(r.notes) as string[]).find((n) =>
        n.startsWith(`${JUDGE_FAILED_NOTE}NL judge failed: `),
      );
      if (note === undefined) continue;
      await conn.run(
        "UPDATE verdicts SET judge_failure = $1 WHERE run_id = $2 AND sim_key = $3 AND grader = $4",
        [note.slice(JUDGE_FAILED_NOTE.length), r.run_id, r.sim_key, r.grader],
      );
    }
  },
};

/**
 * Schema 5 added the `comparisons` and `task_exclusions` tables. A run stored before it compared what
 * its graders declare (`defaultComparisons`): those rows are added for each of its runs, each only if
 * the run does not have it yet, and no tasks are excluded.
 */
const addDefaultComparisons: MigrationStep = {
  from: 4,
  name: "comparisons and task_exclusions tables",
  apply: async (conn) => {
    await conn.run(ddl("comparisons"));
    await conn.run(ddl("task_exclusions"));
    const rows = await rowsOf<{ run_id: string; grader: string }>(
      conn,
      "SELECT DISTINCT run_id, grader FROM verdicts",
    );
    for (const runId of new Set(rows.map((r) => r.run_id))) {
      const graders = GRADER_IDS.filter((id) => rows.some((r) => r.run_id === runId && r.grader === id));
      for (const [i, c] of defaultComparisons(graders).entries())
        await conn.run(
          `INSERT INTO comparisons SELECT $1, $2::INTEGER, $3, $4, $5
           WHERE NOT EXISTS (SELECT 1 FROM comparisons WHERE run_id = $1 AND name = $3)`,
          [runId, i + 1, c.name, c.baseline, c.candidate],
        );
    }
  },
};

/** Schema 6 added the `sample_reviews` table. */
const addSampleReviews: MigrationStep = {
  from: 5,
  name: "sample_reviews table",
  apply: async (conn) => {
    await conn.run(ddl("sample_reviews"));
  },
};

/** Schema 7 added the submission tables (an upgraded run has no submissions recorded). */
const addSubmissionTables: MigrationStep = {
  from: 6,
  name: "submission tables",
  apply: async (conn) => {
    for (const table of ["submissions", "submission_results", "submission_files"] as const)
      await conn.run(ddl(table));
  },
};

/** Schema 8 added the `coverage` table (an upgraded run has no coverage recorded: the report says so). */
const addCoverageTable: MigrationStep = {
  from: 7,
  name: "coverage table",
  apply: async (conn) => {
    await conn.run(ddl("coverage"));
  },
};

/**
 * Schema 9 added `files.configuration`. A file stored before it has none: its simulations are compared
 * only with each other (the file is a configuration of its own) until it is graded again.
 */
const addConfigurationColumn: MigrationStep = {
  from: 8,
  name: "files.configuration column",
  apply: async (conn) => {
    await conn.run("ALTER TABLE files ADD COLUMN IF NOT EXISTS configuration VARCHAR");
  },
};

/** In order: each step's `from` is the version the one before it leaves. */
export const MIGRATION_STEPS: readonly MigrationStep[] = [
  addJudgeTables,
  addJudgeFailureColumn,
  addDefaultComparisons,
  addSampleReviews,
  addSubmissionTables,
  addCoverageTable,
  addConfigurationColumn,
];
