/** The verdict store: typed rows, a versioned layout, and clear refusals of stores it cannot read. */
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { describe, expect, it } from "vitest";
import { ddl, SCHEMA_VERSION, TABLES } from "../../src/store/schema.ts";
import { StoreError, VerdictStore } from "../../src/store/store.ts";
import { cli } from "../helpers/small-run.ts";

const tmp = () => mkdtempSync(join(tmpdir(), "tr-store-"));

async function rawDb(path: string, statements: readonly string[]): Promise<void> {
  const db = await DuckDBInstance.create(path);
  const conn = await db.connect();
  for (const s of statements) await conn.run(s);
  conn.closeSync();
  db.closeSync();
}

describe("row types", () => {
  it("do not compile a row with a missing, misspelt or mistyped column (tsc on a fixture)", () => {
    const dir = tmp();
    const fixture = resolve("test/store/row-types.fixture.ts");
    const config = join(dir, "tsconfig.json");
    writeFileSync(
      config,
      JSON.stringify({
        extends: resolve("tsconfig.json"),
        compilerOptions: { typeRoots: [resolve("node_modules/@types")] },
        include: [],
        files: [fixture],
      }),
    );
    const r = spawnSync(
      process.execPath,
      [resolve("node_modules/typescript/bin/tsc"), "-p", config, "--listFiles"],
      {
        encoding: "utf8",
      },
    );
    expect(r.stdout).toContain("row-types.fixture.ts");
    // An unused @ts-expect-error (a wrong row that compiled) is an error too.
    expect(r.stdout.split("\n").filter((l) => l.includes("error TS"))).toEqual([]);
    expect(r.status).toBe(0);
  });
});

describe("VerdictStore", () => {
  it("records its schema version in a new store", async () => {
    const store = await VerdictStore.open(join(tmp(), "new.duckdb"));
    expect(await store.query("SELECT key, value FROM store_meta")).toEqual([
      { key: "schema_version", value: String(SCHEMA_VERSION) },
    ]);
    store.close();
  });

  it("refuses a store written before the schema was versioned, saying what to do", async () => {
    const path = join(tmp(), "old.duckdb");
    await rawDb(path, ["CREATE TABLE runs (run_id VARCHAR)", "CREATE TABLE violations (run_id VARCHAR)"]);
    const err = await VerdictStore.open(path).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreError);
    expect((err as Error).message).toBe(
      `${path} was written by an older tau-rescore (store schema 1; this version reads schema ${SCHEMA_VERSION}). ` +
        `Re-grade into a new file (tau-rescore run <experiment> --db NEW.duckdb), or delete ${path} and run again.`,
    );
    // Read-only too, and nothing was added to it.
    await expect(VerdictStore.open(path, { readOnly: true })).rejects.toThrow(/older tau-rescore/);
  });

  it("upgrades a schema-2 store in place (schema 3 only added the judge tables, 4 a column, 5 comparisons, 6 sample_reviews, 7 submissions, 8 coverage, 9 files.configuration); read-only refuses it", async () => {
    const path = join(tmp(), "v2.duckdb");
    await rawDb(path, [
      "CREATE TABLE store_meta (key VARCHAR, value VARCHAR)",
      "INSERT INTO store_meta VALUES ('schema_version', '2')",
      "CREATE TABLE runs (run_id VARCHAR)",
    ]);
    await expect(VerdictStore.open(path, { readOnly: true })).rejects.toThrow(/store schema 2/);
    const store = await VerdictStore.open(path);
    expect(await store.query("SELECT value FROM store_meta")).toEqual([{ value: "9" }]);
    expect(await store.query("SELECT count(*)::INTEGER AS n FROM judgments")).toEqual([{ n: 0 }]);
    expect(await store.query("SELECT count(*)::INTEGER AS n FROM nl_assertions")).toEqual([{ n: 0 }]);
    store.close();
  });

  it("upgrades a schema-3 store in place: judge_failure is filled from τ³'s notes; read-only refuses it", async () => {
    const path = join(tmp(), "v3.duckdb");
    const failed = "NL judge failed: HTTP 500, after 4 attempts";
    const verdict = (sim: string, grader: string, notes: readonly string[]) =>
      `INSERT INTO verdicts VALUES ('r', '${sim}', '${grader}', 'v', 'h', NULL, NULL, NULL, '${JSON.stringify(notes)}')`;
    await rawDb(path, [
      ...(Object.keys(TABLES) as (keyof typeof TABLES)[]).map((t) =>
        ddl(t).replace(", judge_failure VARCHAR", ""),
      ),
      "INSERT INTO store_meta VALUES ('schema_version', '3')",
      verdict("s1", "tau3", ["other note", `NL_ASSERTION unknown: ${failed}`]),
      verdict("s2", "tau3", ["NL_ASSERTION unknown: no recorded NL verdicts"]),
      verdict("s3", "structured", []),
    ]);
    await expect(VerdictStore.open(path, { readOnly: true })).rejects.toThrow(/store schema 3/);
    const store = await VerdictStore.open(path);
    expect(await store.query("SELECT value FROM store_meta")).toEqual([{ value: "9" }]);
    expect(await store.query("SELECT sim_key, judge_failure FROM verdicts ORDER BY sim_key")).toEqual([
      { sim_key: "s1", judge_failure: failed },
      { sim_key: "s2", judge_failure: null },
      { sim_key: "s3", judge_failure: null },
    ]);
    store.close();
    // Opened again, it is a current store like any other.
    const again = await VerdictStore.open(path, { readOnly: true });
    expect(
      await again.query("SELECT count(*)::INTEGER AS n FROM verdicts WHERE judge_failure IS NOT NULL"),
    ).toEqual([{ n: 1 }]);
    again.close();
  });

  it("upgrades a schema-4 store in place: each run compares what its graders declare", async () => {
    const path = join(tmp(), "v4.duckdb");
    const verdict = (run: string, sim: string, grader: string) =>
      `INSERT INTO verdicts VALUES ('${run}', '${sim}', '${grader}', 'v', 'h', NULL, NULL, NULL, '[]', NULL)`;
    await rawDb(path, [
      ...(Object.keys(TABLES) as (keyof typeof TABLES)[])
        .filter((t) => t !== "comparisons" && t !== "task_exclusions" && t !== "sample_reviews")
        .map((t) => ddl(t)),
      "INSERT INTO store_meta VALUES ('schema_version', '4')",
      verdict("a", "s1", "tau3"),
      verdict("a", "s1", "structured"),
      verdict("a", "s1", "structured_strict"),
      verdict("b", "s1", "tau3"),
    ]);
    await expect(VerdictStore.open(path, { readOnly: true })).rejects.toThrow(/store schema 4/);
    const store = await VerdictStore.open(path);
    expect(await store.query("SELECT value FROM store_meta")).toEqual([{ value: "9" }]);
    expect(
      await store.query(
        "SELECT run_id, seq, name, baseline, candidate FROM comparisons ORDER BY run_id, seq",
      ),
    ).toEqual([
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
    ]);
    expect(await store.query("SELECT count(*)::INTEGER AS n FROM task_exclusions")).toEqual([{ n: 0 }]);
    store.close();
  });

  it("upgrades a schema-5 store in place: it gains an empty sample_reviews table; read-only refuses it", async () => {
    const path = join(tmp(), "v5.duckdb");
    await rawDb(path, [
      ...(Object.keys(TABLES) as (keyof typeof TABLES)[])
        .filter((t) => t !== "sample_reviews")
        .map((t) => ddl(t)),
      "INSERT INTO store_meta VALUES ('schema_version', '5')",
      "INSERT INTO reviews VALUES ('e', 'f', 'structured', 'requirement', 'r', 'confirmed', 'why', NULL, NULL, NULL, NULL)",
    ]);
    await expect(VerdictStore.open(path, { readOnly: true })).rejects.toThrow(/store schema 5/);
    const store = await VerdictStore.open(path);
    expect(await store.query("SELECT value FROM store_meta")).toEqual([{ value: "9" }]);
    expect(await store.query("SELECT count(*)::INTEGER AS n FROM sample_reviews")).toEqual([{ n: 0 }]);
    expect(await store.query("SELECT count(*)::INTEGER AS n FROM reviews")).toEqual([{ n: 1 }]);
    store.close();
  });

  it("upgrades a schema-6 store in place: it gains the empty submission tables; read-only refuses it", async () => {
    const path = join(tmp(), "v6.duckdb");
    const added = new Set(["submissions", "submission_results", "submission_files"]);
    await rawDb(path, [
      ...(Object.keys(TABLES) as (keyof typeof TABLES)[])
        .filter((t) => !added.has(t) && t !== "coverage")
        .map((t) => ddl(t)),
      "INSERT INTO store_meta VALUES ('schema_version', '6')",
    ]);
    await expect(VerdictStore.open(path, { readOnly: true })).rejects.toThrow(/store schema 6/);
    const store = await VerdictStore.open(path);
    expect(await store.query("SELECT value FROM store_meta")).toEqual([{ value: "9" }]);
    for (const t of added)
      expect(await store.query(`SELECT count(*)::INTEGER AS n FROM ${t}`)).toEqual([{ n: 0 }]);
    store.close();
  });

  it("upgrades a schema-7 store in place: it gains the empty coverage table; read-only refuses it", async () => {
    const path = join(tmp(), "v7.duckdb");
    await rawDb(path, [
      ...(Object.keys(TABLES) as (keyof typeof TABLES)[]).filter((t) => t !== "coverage").map((t) => ddl(t)),
      "INSERT INTO store_meta VALUES ('schema_version', '7')",
    ]);
    await expect(VerdictStore.open(path, { readOnly: true })).rejects.toThrow(/store schema 7/);
    const store = await VerdictStore.open(path);
    expect(await store.query("SELECT value FROM store_meta")).toEqual([{ value: "9" }]);
    expect(await store.query("SELECT count(*)::INTEGER AS n FROM coverage")).toEqual([{ n: 0 }]);
    store.close();
  });

  it("refuses a store of a newer schema", async () => {
    const path = join(tmp(), "newer.duckdb");
    await rawDb(path, [
      "CREATE TABLE store_meta (key VARCHAR, value VARCHAR)",
      `INSERT INTO store_meta VALUES ('schema_version', '${SCHEMA_VERSION + 1}')`,
    ]);
    await expect(VerdictStore.open(path)).rejects.toThrow(/written by a newer tau-rescore/);
  });

  it("refuses a row without a value for a column, naming it", async () => {
    const store = await VerdictStore.open(join(tmp(), "rows.duckdb"));
    const row = { run_id: "r", file_id: "f", sim_key: "s", stage: "load" } as never;
    await expect(store.append("errors", [row])).rejects.toThrow(
      "errors: a row has no value for column message",
    );
    store.close();
  });

  it("has one causes table and one evidence table, and no per-kind evidence tables", () => {
    const names = Object.keys(TABLES);
    expect(names).toContain("causes");
    expect(names).toContain("evidence");
    for (const old of ["violations", "field_diffs", "policy_hits"]) expect(names).not.toContain(old);
    expect(TABLES.verdicts.columns.map((c) => c.name)).toEqual(
      expect.arrayContaining(["grader", "grader_version", "spec_hash"]),
    );
  });
});

describe("report and run on an old store", () => {
  it("print one line that says what to do, no stack trace", async () => {
    const dir = tmp();
    const path = join(dir, "old.duckdb");
    await rawDb(path, ["CREATE TABLE runs (run_id VARCHAR)"]);
    for (const args of [
      ["report", "--db", path, "--out", join(dir, "report")],
      ["run", resolve("experiments/default.json"), "--db", path, "--corpus", dir],
    ]) {
      const r = cli(args);
      expect(r.status, r.stderr).toBe(1);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toMatch(/^tau-rescore: .*old\.duckdb was written by an older tau-rescore/);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });
});
