/** `tau-rescore run`: idempotent re-runs, and a killed run finished by a re-run, compared table by table. */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TABLES, type TableName } from "../../src/store/schema.ts";
import { VerdictStore } from "../../src/store/store.ts";
import { DATA_DIR } from "../helpers/data.ts";
import { CLI, cli, smallExperiment } from "../helpers/small-run.ts";

const setup = () => smallExperiment();

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

const run = (experiment: string, db: string) => cli(["run", experiment, "--db", db]);

describe("tau-rescore run", () => {
  it("is idempotent: a second run changes no table", async () => {
    const { experiment, dir } = setup();
    const db = join(dir, "a.duckdb");
    expect(run(experiment, db).status).toBe(0);
    const first = await dumpTables(db);
    expect((first.simulations as unknown[]).length).toBe(1 + 1 + 1 + 1 + 1 + 20 + 40 + 40 + 50);
    const again = run(experiment, db);
    expect(again.stderr).toContain("9 already done");
    expect(await dumpTables(db)).toEqual(first);
    await expectUniqueKeys(db);
  });

  it("finishes a killed run without duplicates: the same tables as an uninterrupted run", async () => {
    const { experiment, dir } = setup();
    const clean = join(dir, "clean.duckdb");
    expect(run(experiment, clean).status).toBe(0);
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
    expect(run(experiment, killed).status).toBe(0);
    expect(await dumpTables(killed)).toEqual(await dumpTables(clean));
    await expectUniqueKeys(killed);
  });

  it("grades the same tables on worker threads as in the main thread, bundled or from the sources", async () => {
    const { experiment, dir } = setup();
    const one = join(dir, "one.duckdb");
    const two = join(dir, "two.duckdb");
    const sources = join(dir, "sources.duckdb");
    expect(cli(["run", experiment, "--db", one], { TAU_RESCORE_WORKERS: "1" }).status).toBe(0);
    expect(cli(["run", experiment, "--db", two], { TAU_RESCORE_WORKERS: "2" }).status).toBe(0);
    // The fallback: the command line and its threads load the TypeScript sources through tsx.
    const r = cli(["run", experiment, "--db", sources], {
      TAU_RESCORE_WORKERS: "2",
      TAU_RESCORE_NO_BUNDLE: "1",
    });
    expect(r.status, r.stderr).toBe(0);
    const expected = await dumpTables(one);
    expect(await dumpTables(two)).toEqual(expected);
    expect(await dumpTables(sources)).toEqual(expected);
  });

  it("reports a DuckDB file locked by another process clearly, with exit code 1", async () => {
    const { experiment, dir } = setup();
    const db = join(dir, "locked.duckdb");
    const holder = await VerdictStore.open(db);
    try {
      const r = run(experiment, db);
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(/locked by another process/);
      expect(r.stderr).not.toMatch(/at .*\.ts:\d+/);
    } finally {
      holder.close();
    }
  });

  it("refuses an experiment path that escapes its root", () => {
    const { experiment, dir } = setup();
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
    const r = cli(["run", bad]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("escapes its root");
    expect(experiment).toBeTruthy();
  });
});
