/**
 * In-place upgrades of old stores, resumed from every state a killed upgrade can leave: a step's work
 * already done (or half done) while `store_meta` still names the version before it.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { describe, expect, it } from "vitest";
import { MIGRATION_STEPS } from "../../src/store/migrations.ts";
import { ddl, SCHEMA_VERSION, TABLES, type TableName } from "../../src/store/schema.ts";
import { VerdictStore } from "../../src/store/store.ts";

const tmp = () => mkdtempSync(join(tmpdir(), "tr-migrate-"));

/** A statement and the values bound to it. */
type Statement = readonly [sql: string, params?: readonly (string | null)[]];

async function rawDb(path: string, statements: readonly Statement[]): Promise<void> {
  const db = await DuckDBInstance.create(path);
  const conn = await db.connect();
  for (const [sql, params] of statements) await conn.run(sql, params === undefined ? [] : [...params]);
  conn.closeSync();
  db.closeSync();
}

/** The schema version that added each table; the others were there in schema 2. */
const ADDED_IN: Partial<Record<TableName, number>> = {
  nl_assertions: 3,
  judgments: 3,
  comparisons: 5,
  task_exclusions: 5,
  sample_reviews: 6,
  submissions: 7,
  submission_results: 7,
  submission_files: 7,
};
const TABLE_NAMES = Object.keys(TABLES) as TableName[];
const JUDGE_FAILURE_COLUMN = ", judge_failure VARCHAR";
const CONFIGURATION_COLUMN = ", configuration VARCHAR";

/** The tables of a store written by schema `version` (verdicts without judge_failure before 4). */
function layoutOf(version: number): Statement[] {
  return TABLE_NAMES.filter((t) => (ADDED_IN[t] ?? 2) <= version).map((t) => [
    t === "verdicts" && version < 4
      ? ddl(t).replace(JUDGE_FAILURE_COLUMN, "")
      : t === "files" && version < 9
        ? ddl(t).replace(CONFIGURATION_COLUMN, "")
        : ddl(t),
  ]);
}

const setVersion = (version: number): Statement => [
  "INSERT INTO store_meta VALUES ('schema_version', $1)",
  [String(version)],
];

const JUDGE_FAILED = "NL judge failed: HTTP 500, after 4 attempts";

/** Verdicts of two runs: `a` ran three graders (one live judge failure), `b` only τ³. */
const VERDICTS: readonly Statement[] = [
  ["a", "s1", "tau3", JSON.stringify(["other note", `NL_ASSERTION unknown: ${JUDGE_FAILED}`])],
  ["a", "s1", "structured", "[]"],
  ["a", "s1", "structured_strict", "[]"],
  ["b", "s1", "tau3", JSON.stringify(["NL_ASSERTION unknown: no recorded NL verdicts"])],
].map((values) => [
  "INSERT INTO verdicts (run_id, sim_key, grader, grader_version, spec_hash, notes) VALUES ($1, $2, $3, 'v', 'h', $4)",
  values,
]);

/** What a schema-3 upgrade fills in from τ³'s notes. */
const FILLED_JUDGE_FAILURE: readonly Statement[] = [
  ["UPDATE verdicts SET judge_failure = $1 WHERE run_id = 'a' AND grader = 'tau3'", [JUDGE_FAILED]],
];

/** The default comparisons of the graders each run of `VERDICTS` ran. */
const DEFAULT_COMPARISONS = [
  { run_id: "a", seq: 1, name: "tau3-vs-structured", baseline: "tau3", candidate: "structured" },
  {
    run_id: "a",
    seq: 2,
    name: "structured-vs-structured_strict",
    baseline: "structured",
    candidate: "structured_strict",
  },
  { run_id: "a", seq: 3, name: "recorded-vs-tau3", baseline: "recorded", candidate: "tau3" },
  { run_id: "b", seq: 1, name: "recorded-vs-tau3", baseline: "recorded", candidate: "tau3" },
];

const insertComparisons = (rows: typeof DEFAULT_COMPARISONS): Statement[] =>
  rows.map((c) => [
    "INSERT INTO comparisons VALUES ($1, $2::INTEGER, $3, $4, $5)",
    [c.run_id, String(c.seq), c.name, c.baseline, c.candidate],
  ]);
const INSERT_DEFAULT_COMPARISONS = insertComparisons(DEFAULT_COMPARISONS);

/**
 * A store of schema `version` holding `VERDICTS` with everything that version records: the judge
 * failure filled in from 4 on, the default comparisons from 5 on.
 */
function storeOf(version: number): Statement[] {
  return [
    ...layoutOf(version),
    ...VERDICTS,
    ...(version >= 4 ? FILLED_JUDGE_FAILURE : []),
    ...(version >= 5 ? INSERT_DEFAULT_COMPARISONS : []),
  ];
}

const STEP_VERSIONS = MIGRATION_STEPS.map((step) => step.from);

/** The tables and columns of `path` as DuckDB reports them. */
async function layoutOfStore(path: string): Promise<unknown[]> {
  const store = await VerdictStore.open(path, { readOnly: true });
  try {
    return await store.query(
      `SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns
       WHERE table_schema = 'main' AND table_catalog = current_database()
       ORDER BY table_name, ordinal_position`,
    );
  } finally {
    store.close();
  }
}

let freshLayout: unknown[] | undefined;
async function currentLayout(): Promise<unknown[]> {
  if (freshLayout === undefined) {
    const path = join(tmp(), "fresh.duckdb");
    (await VerdictStore.open(path)).close();
    freshLayout = await layoutOfStore(path);
  }
  return freshLayout;
}

/**
 * Opens `path` for writing (the upgrade), then checks that it is a current store holding `VERDICTS`
 * with the judge failure filled in, each run's default comparisons once, and that it opens read-only.
 */
async function expectUpgraded(path: string): Promise<void> {
  const store = await VerdictStore.open(path);
  try {
    expect(await store.query("SELECT key, value FROM store_meta")).toEqual([
      { key: "schema_version", value: String(SCHEMA_VERSION) },
    ]);
    expect(
      await store.query("SELECT run_id, sim_key, grader, judge_failure FROM verdicts ORDER BY ALL"),
    ).toEqual([
      { run_id: "a", sim_key: "s1", grader: "structured", judge_failure: null },
      { run_id: "a", sim_key: "s1", grader: "structured_strict", judge_failure: null },
      { run_id: "a", sim_key: "s1", grader: "tau3", judge_failure: JUDGE_FAILED },
      { run_id: "b", sim_key: "s1", grader: "tau3", judge_failure: null },
    ]);
    expect(
      await store.query(
        "SELECT run_id, seq, name, baseline, candidate FROM comparisons ORDER BY run_id, seq",
      ),
    ).toEqual(DEFAULT_COMPARISONS);
  } finally {
    store.close();
  }
  expect(await layoutOfStore(path)).toEqual(await currentLayout());
}

describe("MIGRATION_STEPS", () => {
  it("lead from schema 2 to the current schema one version at a time, each named", () => {
    expect(STEP_VERSIONS).toEqual(Array.from({ length: SCHEMA_VERSION - 2 }, (_, i) => i + 2));
    expect(new Set(MIGRATION_STEPS.map((step) => step.name)).size).toBe(MIGRATION_STEPS.length);
  });
});

describe("an old store opened for writing", () => {
  it.each(STEP_VERSIONS)("is upgraded from schema %i to the current schema", async (version) => {
    const path = join(tmp(), `v${version}.duckdb`);
    await rawDb(path, [...storeOf(version), setVersion(version)]);
    await expectUpgraded(path);
  });

  it("is left at the version of the step that failed, without that step's work, and the steps before it kept", async () => {
    const path = join(tmp(), "v2-bad-notes.duckdb");
    await rawDb(path, [
      ...storeOf(2),
      setVersion(2),
      [
        "INSERT INTO verdicts (run_id, sim_key, grader, grader_version, spec_hash, notes) VALUES ('c', 's1', 'tau3', 'v', 'h', $1)",
        ["not JSON: NL judge failed: x"],
      ],
    ]);
    await expect(VerdictStore.open(path)).rejects.toThrow(SyntaxError);
    const db = await DuckDBInstance.create(path, { access_mode: "READ_ONLY" });
    const conn = await db.connect();
    const rows = async (sql: string) => (await conn.runAndReadAll(sql)).getRowObjectsJson();
    expect(await rows("SELECT value FROM store_meta")).toEqual([{ value: "3" }]);
    expect(
      await rows(
        "SELECT count(*)::INTEGER AS n FROM information_schema.tables WHERE table_name = 'judgments'",
      ),
    ).toEqual([{ n: 1 }]);
    expect(
      await rows(
        "SELECT count(*)::INTEGER AS n FROM information_schema.columns WHERE table_name = 'verdicts' AND column_name = 'judge_failure'",
      ),
    ).toEqual([{ n: 0 }]);
    conn.closeSync();
    db.closeSync();
  });

  it("is written again exactly as it was when it is current", async () => {
    const path = join(tmp(), "current.duckdb");
    await rawDb(path, [...storeOf(SCHEMA_VERSION), setVersion(SCHEMA_VERSION)]);
    await expectUpgraded(path);
    await expectUpgraded(path);
  });
});

describe("a store upgrade resumed after a kill", () => {
  it.each(STEP_VERSIONS)(
    "finishes a schema-%i store whose next step's work is all done while store_meta still names it",
    async (version) => {
      const path = join(tmp(), `v${version}-done.duckdb`);
      await rawDb(path, [...storeOf(version + 1), setVersion(version)]);
      await expectUpgraded(path);
    },
  );

  it("upgrades a schema-4 store whose comparisons were added while store_meta still says 4", async () => {
    const path = join(tmp(), "v4-comparisons-added.duckdb");
    await rawDb(path, [
      ...layoutOf(4),
      setVersion(4),
      ...VERDICTS,
      ...FILLED_JUDGE_FAILURE,
      [ddl("comparisons")],
      ...INSERT_DEFAULT_COMPARISONS,
    ]);
    await expectUpgraded(path);
  });

  it("adds only the missing default comparisons to a schema-4 store that has some of them", async () => {
    const path = join(tmp(), "v4-some-comparisons.duckdb");
    await rawDb(path, [
      ...storeOf(4),
      setVersion(4),
      [ddl("comparisons")],
      ...insertComparisons(DEFAULT_COMPARISONS.filter((c) => c.run_id === "a" && c.seq === 2)),
    ]);
    await expectUpgraded(path);
  });

  it("fills judge_failure in a schema-3 store whose column was added but not filled", async () => {
    const path = join(tmp(), "v3-column-added.duckdb");
    await rawDb(path, [
      ...storeOf(3),
      setVersion(3),
      ["ALTER TABLE verdicts ADD COLUMN judge_failure VARCHAR"],
    ]);
    await expectUpgraded(path);
  });

  it("finishes a schema-2 store with only one of its new tables created", async () => {
    const path = join(tmp(), "v2-one-table.duckdb");
    await rawDb(path, [...storeOf(2), setVersion(2), [ddl("nl_assertions")]]);
    await expectUpgraded(path);
  });

  it("finishes a schema-6 store with only one of the submission tables created", async () => {
    const path = join(tmp(), "v6-one-table.duckdb");
    await rawDb(path, [...storeOf(6), setVersion(6), [ddl("submissions")]]);
    await expectUpgraded(path);
  });
});
