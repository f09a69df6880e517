/**
 * `tau-rescore run`: idempotent re-runs, and a killed run finished by a re-run, compared table by table.
 * One experiment, graded once in this process, is the reference every test compares with; the binary is
 * spawned only where a process matters (a kill, a lock held by another process, threads run from dist/).
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeWorkers } from "../../src/pipeline/parallel.ts";
import { TABLES, type TableName } from "../../src/store/schema.ts";
import { VerdictStore } from "../../src/store/store.ts";
import { cliInProcess } from "../helpers/cli-in-process.ts";
import { DATA_DIR } from "../helpers/data.ts";
import { CLI, cli, smallExperiment } from "../helpers/small-run.ts";

/** Every table's logical key is unique (DuckDB enforces it only on some tables). */
async function expectUniqueKeys(db: string): Promise<void> {
  const store = await VerdictStore.open(db, { readOnly: true });
  for (const [t, spec] of Object.entries(TABLES) as [TableName, (typeof TABLES)[TableName]][]) {
    const [r] = await store.query<{ n: number; k: number }>(
      `SELECT count(*)::INTEGER AS n, count(DISTINCT (${spec.key.join(", ")}))::INTEGER AS k FROM ${t}`,
    );
    expect(r?.k, `duplicate keys in ${t}`).toBe(r?.n);
  }
  store.close();
}

async function dumpTables(db: string): Promise<Record<string, unknown[]>> {
  const store = await VerdictStore.open(db, { readOnly: true });
  const out: Record<string, unknown[]> = {};
  for (const t of Object.keys(TABLES) as TableName[])
    out[t] = await store.query(`SELECT * FROM ${t} ORDER BY ALL`);
  store.close();
  return out;
}

/** `run` in this process, on `workers` grading threads (1: the main thread). */
const run = (experiment: string, db: string, workers = "1") =>
  cliInProcess(["run", experiment, "--db", db], { env: { TAU_RESCORE_WORKERS: workers } });

let experiment = "";
let dir = "";
/** The experiment graded once, uninterrupted, in the main thread. */
let clean = "";
let expected: Record<string, unknown[]> = {};

beforeAll(async () => {
  ({ experiment, dir } = smallExperiment());
  clean = join(dir, "clean.duckdb");
  const r = await run(experiment, clean);
  expect(r.status, r.stderr).toBe(0);
  expected = await dumpTables(clean);
});
afterAll(closeWorkers);

describe("tau-rescore run", () => {
  it("is idempotent: a second run changes no table", async () => {
    expect((expected.simulations as unknown[]).length).toBe(1 + 1 + 1 + 1 + 1 + 20 + 40 + 40 + 50);
    const again = await run(experiment, clean);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stderr).toContain("9 already done");
    expect(await dumpTables(clean)).toEqual(expected);
    await expectUniqueKeys(clean);
  });

  it("finishes a killed run without duplicates: the same tables as an uninterrupted run", async () => {
    const killed = join(dir, "killed.duckdb");
    await new Promise<void>((done, fail) => {
      const child = spawn(process.execPath, [CLI, "run", experiment, "--db", killed], {
        env: {
          ...process.env,
          TAU2_DATA_DIR: "",
          TAU_RESCORE_PROGRESS_MS: "0",
          TAU_RESCORE_COMMIT_FILES: "2",
        }, // "" = unset
      });
      let err = "";
      child.stderr.on("data", (d: Buffer) => {
        err += d.toString();
        if (/graded [3-6]\/9 files/.test(err) && !child.killed) child.kill("SIGKILL");
      });
      child.on("exit", (_code, signal) =>
        signal === "SIGKILL" ? done() : fail(new Error(`run was not killed mid-way: ${err}`)),
      );
    });
    const partial = await dumpTables(killed);
    expect((partial.files as unknown[]).length).toBeLessThan(9);
    expect((await run(experiment, killed)).status).toBe(0);
    expect(await dumpTables(killed)).toEqual(expected);
    await expectUniqueKeys(killed);
  });

  it("grades the same tables on worker threads as in the main thread, from the sources and built", async () => {
    const two = join(dir, "two.duckdb");
    const built = join(dir, "built.duckdb");
    // In this process the threads run the TypeScript sources (through tsx) ...
    const r2 = await run(experiment, two, "2");
    expect(r2.status, r2.stderr).toBe(0);
    // ... and from the binary, dist/ (the command line and its threads alike).
    const r = cli(["run", experiment, "--db", built], { TAU_RESCORE_WORKERS: "2" });
    expect(r.status, r.stderr).toBe(0);
    expect(await dumpTables(two)).toEqual(expected);
    expect(await dumpTables(built)).toEqual(expected);
  });

  it("reports a DuckDB file locked by another process clearly, with exit code 1", async () => {
    const db = join(dir, "locked.duckdb");
    const holder = await VerdictStore.open(db);
    try {
      const r = cli(["run", experiment, "--db", db]);
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(/locked by another process/);
      expect(r.stderr).not.toMatch(/at .*\.ts:\d+/);
    } finally {
      holder.close();
    }
  });

  it("refuses an experiment path that escapes its root", async () => {
    const bad = join(dir, "experiments", "bad.json");
    writeFileSync(
      bad,
      JSON.stringify({
        name: "bad",
        roots: { corpus: "../corpus", data: DATA_DIR, output: "../out" },
        corpus: ["../../etc"],
        output: "x.duckdb",
      }),
    );
    const r = await cliInProcess(["run", bad]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("escapes its root");
  });
});
