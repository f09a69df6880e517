/**
 * File identity in the store: a file is its path relative to the corpus root
 * and its content hash. Duplicate content is graded once and recorded as a duplicate naming both paths;
 * a rewritten file replaces its previous version's rows in the run; the run id covers the data dir and
 * the corpus paths.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadExperiment } from "../../src/experiments/config.ts";
import type { Progress } from "../../src/pipeline/progress.ts";
import { runExperiment } from "../../src/pipeline/run.ts";
import { planRun } from "../../src/pipeline/settings.ts";
import { VerdictStore } from "../../src/store/store.ts";
import { CORPUS_DIR } from "../helpers/data.ts";
import { writeExperiment } from "../helpers/small-run.ts";

const SOURCE = join(CORPUS_DIR, "sierra-tau2-bench__pr170-tau2-trace/e2e_airline_baseline.json");
const quiet: Progress = { start() {}, tick() {}, stop() {} };

function setup(): { dir: string; corpus: string; experiment: string } {
  const dir = mkdtempSync(join(tmpdir(), "tr-ident-"));
  const corpus = join(dir, "corpus");
  mkdirSync(corpus);
  mkdirSync(join(dir, "experiments"));
  const experiment = writeExperiment(
    join(dir, "experiments", "x.json"),
    {},
    { corpus: "../corpus", output: "../out" },
  );
  return { dir, corpus, experiment };
}

async function run(experiment: string, db: string, corpus?: string[], dataDir?: string) {
  const exp = loadExperiment(experiment, {
    db,
    ...(corpus === undefined ? {} : { corpus }),
    ...(dataDir === undefined ? {} : { dataDir }),
  });
  const store = await VerdictStore.open(db);
  try {
    return await runExperiment(await planRun(exp), store, quiet, { workers: 1 });
  } finally {
    store.close();
  }
}

async function q<T = Record<string, unknown>>(db: string, sql: string): Promise<T[]> {
  const store = await VerdictStore.open(db, { readOnly: true });
  try {
    return await store.query<T>(sql);
  } finally {
    store.close();
  }
}

/** The source file with its one simulation written `n` times under different ids and trials. */
function withSimulations(n: number): string {
  const doc = JSON.parse(readFileSync(SOURCE, "utf8"));
  const sim = doc.simulations[0];
  doc.simulations = Array.from({ length: n }, (_, i) => ({ ...sim, id: `${sim.id}-${i}`, trial: i }));
  return JSON.stringify(doc);
}

describe("identical input files", () => {
  it("a copy and a symlink are graded once and recorded as duplicates naming both paths; a re-run changes nothing", async () => {
    const { dir, corpus, experiment } = setup();
    cpSync(SOURCE, join(corpus, "a.json"));
    cpSync(SOURCE, join(corpus, "b.json"));
    symlinkSync("a.json", join(corpus, "latest.json"));
    const db = join(dir, "x.duckdb");
    const s = await run(experiment, db);
    expect(s.simulations).toBe(1);
    const files = await q<{ path: string; status: string; error: string | null }>(
      db,
      "SELECT path, status, error FROM files ORDER BY path",
    );
    expect(files).toEqual([
      { path: "a.json", status: "graded", error: null },
      { path: "b.json", status: "duplicate", error: "same content as a.json" },
      { path: "latest.json", status: "duplicate", error: "same content as a.json" },
    ]);
    expect(await q(db, "SELECT count(*)::INTEGER AS n FROM simulations")).toEqual([{ n: 1 }]);
    const before = await q(db, "SELECT * FROM files ORDER BY ALL");
    const again = await run(experiment, db);
    expect(again.skipped).toBe(3);
    expect(await q(db, "SELECT * FROM files ORDER BY ALL")).toEqual(before);
  });

  it("the same file twice on the command line is graded once", async () => {
    const { dir, corpus, experiment } = setup();
    cpSync(SOURCE, join(corpus, "a.json"));
    const db = join(dir, "x.duckdb");
    const a = join(corpus, "a.json");
    const s = await run(experiment, db, [a, a]);
    expect(s.files).toBe(1);
    expect(await q(db, "SELECT count(*)::INTEGER AS n FROM files")).toEqual([{ n: 1 }]);
    expect(await q(db, "SELECT count(*)::INTEGER AS n FROM simulations")).toEqual([{ n: 1 }]);
  });
});

describe("a rewritten results file", () => {
  it("replaces its previous version's rows in the run", async () => {
    const { dir, corpus, experiment } = setup();
    const db = join(dir, "x.duckdb");
    writeFileSync(join(corpus, "r.json"), withSimulations(1));
    await run(experiment, db);
    writeFileSync(join(corpus, "r.json"), withSimulations(2));
    await run(experiment, db);
    expect(await q(db, "SELECT count(*)::INTEGER AS n FROM files")).toEqual([{ n: 1 }]);
    expect(await q(db, "SELECT count(*)::INTEGER AS n FROM simulations")).toEqual([{ n: 2 }]);
    expect(await q(db, "SELECT count(*)::INTEGER AS n FROM verdicts")).toEqual([{ n: 2 }]);
    expect(
      await q(
        db,
        "SELECT count(*)::INTEGER AS n FROM components WHERE sim_key NOT IN (SELECT sim_key FROM simulations)",
      ),
    ).toEqual([{ n: 0 }]);
  });

  it("drops the error rows of a truncated file once it is fixed", async () => {
    const { dir, corpus, experiment } = setup();
    const db = join(dir, "x.duckdb");
    const full = withSimulations(1);
    writeFileSync(join(corpus, "r.json"), full.slice(0, full.length / 2));
    await run(experiment, db);
    expect(await q(db, "SELECT count(*)::INTEGER AS n FROM errors")).toEqual([{ n: 1 }]);
    writeFileSync(join(corpus, "r.json"), full);
    await run(experiment, db);
    expect(await q(db, "SELECT count(*)::INTEGER AS n FROM errors")).toEqual([{ n: 0 }]);
    expect(await q(db, "SELECT path, status FROM files")).toEqual([{ path: "r.json", status: "graded" }]);
  });
});

describe("a copy of a rewritten file", () => {
  it("is graded on its own once the content it copied is replaced", async () => {
    const { dir, corpus, experiment } = setup();
    const db = join(dir, "x.duckdb");
    writeFileSync(join(corpus, "a.json"), withSimulations(1));
    writeFileSync(join(corpus, "b.json"), withSimulations(1));
    await run(experiment, db);
    writeFileSync(join(corpus, "a.json"), withSimulations(2));
    await run(experiment, db);
    expect(await q(db, "SELECT path, status, simulations FROM files ORDER BY path")).toEqual([
      { path: "a.json", status: "graded", simulations: 2 },
      { path: "b.json", status: "graded", simulations: 1 },
    ]);
    expect(await q(db, "SELECT count(*)::INTEGER AS n FROM simulations")).toEqual([{ n: 3 }]);
  });
});

describe("the run id", () => {
  it("covers the data dir and the corpus paths", async () => {
    const { corpus, experiment } = setup();
    cpSync(SOURCE, join(corpus, "a.json"));
    const other = mkdtempSync(join(tmpdir(), "tr-data-"));
    const id = async (o: { dataDir?: string; corpus?: string[] }) =>
      (await planRun(loadExperiment(experiment, o))).runId;
    const base = await id({});
    expect(await id({ dataDir: other })).not.toBe(base);
    expect(await id({ corpus: [join(corpus, "a.json")] })).not.toBe(base);
    expect(await id({ corpus: [corpus] })).toBe(base);
  });
});
