/**
 * While a report is written, the views it reads are frozen into tables (`freezeViews`): the files hold
 * what the live views hold, column types included, and the views follow the store again afterwards.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeReport } from "../../src/analysis/export.ts";
import { rows } from "../../src/analysis/rows.ts";
import { installAnalyses } from "../../src/analysis/run.ts";
import { analysisStatements, frozenForReport, MATERIALIZED, REPORTED } from "../../src/analysis/views.ts";
import type { VerdictStore } from "../../src/store/store.ts";
import { type SyntheticSim, syntheticReview, syntheticStore } from "./synthetic-store.ts";

const sims: SyntheticSim[] = ["a", "b"].flatMap((model) =>
  ["1", "2", "3"].map((task, t) => ({ model, task, tau3: t < 2, structured: t === 0 })),
);

const review = (reference: string) =>
  syntheticReview({ fingerprint: "f".repeat(64), reference, verdict: "confirmed", reason: "checked" });

let store: VerdictStore;
const outDir = () => join(mkdtempSync(join(tmpdir(), "tr-frozen-")), "report");
const count = async (sql: string) => Number((await rows<{ n: number }>(store, sql))[0]?.n);
const names = () =>
  frozenForReport()
    .map((v) => `'${v}'`)
    .join(", ");
/** Temp views and temp tables named after the frozen views (each should be a view and only a view). */
const kinds = async () => ({
  views: await count(
    `SELECT count(*) AS n FROM duckdb_views() WHERE temporary AND view_name IN (${names()})`,
  ),
  tables: await count(
    `SELECT count(*) AS n FROM duckdb_tables() WHERE temporary AND table_name IN (${names()})`,
  ),
});
/** "name TYPE" of each column of a relation. */
const types = async (relation: string) =>
  (await rows<{ column_name: string; column_type: string }>(store, `DESCRIBE SELECT * FROM ${relation}`)).map(
    (c) => `${c.column_name} ${c.column_type}`,
  );

beforeAll(async () => {
  store = await syntheticStore(sims, { bootstrapSamples: 20, minTaskCoverage: 0.5 });
});
afterAll(() => store.close());

describe("the views a report freezes", () => {
  it("include every reported view that is not materialized anyway", () => {
    expect(frozenForReport()).toEqual(expect.arrayContaining(REPORTED.filter((v) => !MATERIALIZED.has(v))));
    expect(frozenForReport().filter((v) => MATERIALIZED.has(v))).toEqual([]);
  });

  it("leave out of the materialized ones every view that reads the reviews (a session loads them later)", () => {
    const definitions = new Map<string, string>();
    for (const sql of analysisStatements()) {
      const m = /^CREATE OR REPLACE TEMP VIEW (\w+?)(?:_definition)? AS ([\s\S]*)$/.exec(sql);
      if (m !== null) definitions.set(m[1] as string, m[2] as string);
    }
    const reads = (name: string, seen = new Set<string>()): Set<string> => {
      for (const other of definitions.keys())
        if (!seen.has(other) && new RegExp(`\\b${other}\\b`).test(definitions.get(name) ?? "")) {
          seen.add(other);
          reads(other, seen);
        }
      return seen;
    };
    expect(reads("target_reviews").has("run_reviews")).toBe(true); // the check can see a dependency
    for (const name of MATERIALIZED) {
      const sql = [name, ...reads(name)].map((n) => definitions.get(n) ?? "").join("\n");
      expect(/\breviews\b/.test(sql), name).toBe(false);
    }
  });

  it("are exported with the rows and column types of the live views", async () => {
    const out = outDir();
    await writeReport(store, out);
    for (const view of REPORTED) {
      const file = `read_parquet('${join(out, `${view}.parquet`)}')`;
      const live = `(SELECT * FROM ${view})`;
      const liveCopy = join(out, `${view}.live.parquet`);
      await store.conn.run(`COPY ${live} TO '${liveCopy}' (FORMAT PARQUET)`);
      expect(await types(file), view).toEqual(await types(`read_parquet('${liveCopy}')`));
      const missing = `SELECT count(*) AS n FROM (SELECT * FROM ${file} EXCEPT ALL SELECT * FROM ${live})`;
      const extra = `SELECT count(*) AS n FROM (SELECT * FROM ${live} EXCEPT ALL SELECT * FROM ${file})`;
      expect([await count(missing), await count(extra)], view).toEqual([0, 0]);
    }
  });

  it("follow the store again once the report is written", async () => {
    await writeReport(store, outDir());
    expect(await kinds()).toEqual({ views: frozenForReport().length, tables: 0 });
    const before = await count("SELECT count(*) AS n FROM run_reviews");
    await store.append("reviews", [review("after-report")]);
    expect(await count("SELECT count(*) AS n FROM run_reviews")).toBe(before + 1);
    await expect(installAnalyses(store)).resolves.not.toBeNull();
  });

  it("follow the store again when the report fails", async () => {
    const broken = writeReport(store, outDir(), async () => {
      throw new Error("chart failed");
    });
    await expect(broken).rejects.toThrow("chart failed");
    expect(await kinds()).toEqual({ views: frozenForReport().length, tables: 0 });
    await expect(installAnalyses(store)).resolves.not.toBeNull();
  });
});
