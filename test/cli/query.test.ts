/**
 * `tau-rescore query` on a small graded experiment: the analysis views answer in each format, with the
 * numbers the corpus and the store hold; a statement that would write, or reach another file, is
 * refused in one line and the store is left byte for byte as it was; a missing store and a SQL error
 * are one line each. The commands run in this process.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { rows } from "../../src/analysis/rows.ts";
import { installAnalyses } from "../../src/analysis/run.ts";
import { VerdictStore } from "../../src/store/store.ts";
import { type CliResult, cliInProcess } from "../helpers/cli-in-process.ts";
import { smallExperiment } from "../helpers/small-run.ts";

const FILES = [
  "sierra-tau2-bench__pr170-tau2-trace",
  "jitrc-tau2-enhanced/airline_gemini2_5_flash_10tasks_2t.json",
];

const { experiment, dir } = smallExperiment(FILES);
const db = join(dir, "out", "small.duckdb");
const query = (sql: string, ...flags: string[]) => cliInProcess(["query", "--db", db, ...flags, sql]);
const sha256 = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

/** Every simulation of every corpus file, by the file's path under the corpus root, read from the JSON. */
function simulationsByPath(): [string, number][] {
  const root = join(dir, "corpus");
  const out: [string, number][] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else {
        const sims = (JSON.parse(readFileSync(p, "utf8")) as { simulations: unknown[] }).simulations;
        out.push([relative(root, p), sims.length]);
      }
    }
  };
  walk(root);
  return out.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Exactly one line on stderr, nothing on stdout, no stack trace. */
function oneLineError(r: CliResult, status: number): string {
  expect(r.status, r.stderr).toBe(status);
  expect(r.stdout).toBe("");
  const lines = r.stderr.split("\n").filter((l) => l !== "");
  expect(lines).toHaveLength(1);
  expect(r.stderr).not.toMatch(/^\s+at /m);
  return lines[0] ?? "";
}

const BY_PATH = "SELECT path, count(*) AS sims FROM sim_verdicts GROUP BY path ORDER BY path";

beforeAll(async () => {
  const r = await cliInProcess(["run", experiment]);
  expect(r.status, r.stderr).toBe(0);
}, 300_000);

describe("tau-rescore query", () => {
  it("answers from an analysis view: as many simulations per file as the corpus holds", async () => {
    const expected = simulationsByPath();
    expect(expected.length).toBe(6);
    const r = await query(BY_PATH, "--format", "json");
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(expected.map(([path, sims]) => ({ path, sims })));
  });

  it("gives a paired view's rows as the analyses compute them, by --db or by --experiment", async () => {
    const sql = "SELECT comparison, n, b, c, method, p_value FROM mcnemar ORDER BY comparison";
    const store = await VerdictStore.open(db, { readOnly: true });
    let expected: Record<string, unknown>[];
    try {
      await installAnalyses(store);
      expected = await rows(store, sql);
    } finally {
      store.close();
    }
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.some((row) => (row.b as number) + (row.c as number) > 0)).toBe(true); // a flip or more
    const byDb = await query(sql, "--format", "json");
    expect(byDb.status, byDb.stderr).toBe(0);
    expect(JSON.parse(byDb.stdout)).toEqual(expected);
    const byExperiment = await cliInProcess(["query", "--experiment", experiment, "--format", "json", sql]);
    expect(byExperiment.status, byExperiment.stderr).toBe(0);
    expect(byExperiment.stdout).toBe(byDb.stdout);
  });

  it("prints an aligned table by default: a header, a rule, numbers right-aligned", async () => {
    const r = await query(BY_PATH);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.endsWith("\n")).toBe(true);
    const expected = simulationsByPath();
    const width = Math.max(...expected.map(([p]) => p.length));
    expect(r.stdout).toBe(
      [
        `${"path".padEnd(width)}  sims`,
        `${"-".repeat(width)}  ----`,
        ...expected.map(([p, n]) => `${p.padEnd(width)}  ${String(n).padStart(4)}`),
      ].join("\n") + "\n",
    );
  });

  it("prints CSV: a header, a line a row, fields quoted where they must be", async () => {
    const r = await query(BY_PATH, "--format", "csv");
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      ["path,sims", ...simulationsByPath().map(([p, n]) => `${p},${n}`)].join("\n") + "\n",
    );
    const quoted = await query(
      `SELECT 'a,"b"' AS text, NULL AS nothing, count(*) AS sims FROM sim_verdicts`,
      "--format",
      "csv",
    );
    const total = simulationsByPath().reduce((s, [, n]) => s + n, 0);
    expect(quoted.stdout).toBe(`text,nothing,sims\n"a,""b""",,${total}\n`);
  });

  it("prints JSON: 64-bit integers as numbers where exact, else as strings; an empty result as []", async () => {
    const r = await query(
      "SELECT count(*) AS sims, count(*)::HUGEINT + 9007199254740992 AS beyond, list(DISTINCT domain ORDER BY domain) AS domains FROM sim_verdicts",
      "--format",
      "json",
    );
    expect(r.status, r.stderr).toBe(0);
    const total = simulationsByPath().reduce((s, [, n]) => s + n, 0);
    expect(JSON.parse(r.stdout)).toEqual([
      {
        sims: total,
        beyond: String(9007199254740992n + BigInt(total)),
        domains: ["airline", "mock", "retail", "telecom"],
      },
    ]);
    const none = await query("SELECT * FROM flips WHERE false", "--format", "json");
    expect(none.stdout).toBe("[]\n");
  });

  it("refuses a statement that would write, in one line, and leaves the store as it was", async () => {
    const before = sha256(db);
    for (const [sql, kind] of [
      ["DELETE FROM simulations", "DELETE"],
      ["CREATE TABLE t AS SELECT 1 AS a", "CREATE"],
      ["SELECT 1; UPDATE runs SET completed = false", "UPDATE"],
    ] as const) {
      const line = oneLineError(await query(sql), 2);
      expect(line).toBe(
        `tau-rescore: query: refused: --db ${db} is opened read-only and a ${kind} statement would write to it (nothing was written)`,
      );
    }
    const out = join(dir, "copied.csv");
    const copy = oneLineError(await query(`COPY (SELECT * FROM runs) TO '${out}'`), 2);
    expect(copy).toContain(`refused: a query reads only --db ${db}, not other files`);
    expect(existsSync(out)).toBe(false);
    expect(sha256(db)).toBe(before);
    const after = await query("SELECT count(*) AS sims FROM simulations", "--format", "json");
    expect(JSON.parse(after.stdout)).toEqual([{ sims: simulationsByPath().reduce((s, [, n]) => s + n, 0) }]);
  });

  it("names a missing store file in one line", async () => {
    const missing = join(dir, "nope.duckdb");
    const line = oneLineError(await cliInProcess(["query", "--db", missing, "SELECT 1"]), 2);
    expect(line).toBe(`tau-rescore: ${missing}: no such DuckDB file (write one with \`tau-rescore run\`)`);
    expect(existsSync(missing)).toBe(false);
  });

  it("gives a SQL error in one line", async () => {
    const binder = oneLineError(await query("SELECT no_such_column FROM flips"), 2);
    expect(binder).toMatch(/^tau-rescore: query: Binder Error: .*"no_such_column"/);
    const parser = oneLineError(await query("SELEC 1"), 2);
    expect(parser).toBe('tau-rescore: query: Parser Error: syntax error at or near "SELEC"');
    const empty = oneLineError(await query(" ; "), 2);
    expect(empty).toBe("tau-rescore: query: no SQL statement given");
  });
});
