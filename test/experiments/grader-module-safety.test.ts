/**
 * A grader from `grader_modules` cannot hang a run or take the process with it: a simulation it gives no
 * verdict on within the time limit (a promise that never settles, a loop) is an error row naming the
 * module and the limit, the file's other simulations are graded, a signal still ends the process; every
 * record it returns is checked before anything is stored from it; a `load` that throws is a usage error.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { registerRunCommand } from "../../src/cli/commands/run.ts";
import { TAU2_QUIRKS } from "../../src/domains/quirks.ts";
import { importGraderModules } from "../../src/experiments/grader-modules.ts";
import { loadTrajectoryFile } from "../../src/formats/load.ts";
import { detectTaskVersion } from "../../src/formats/task-version.ts";
import { recordedJudge } from "../../src/graders/tau3/nl.ts";
import { ContextPool } from "../../src/pipeline/contexts.ts";
import { type GradedSimulation, gradeFile } from "../../src/pipeline/grade.ts";
import { closeWorkers, threadsStarted } from "../../src/pipeline/parallel.ts";
import { VerdictStore } from "../../src/store/store.ts";
import { runInProcess } from "../helpers/cli-in-process.ts";
import { CORPUS_DIR, DATA_DIR } from "../helpers/data.ts";
import { CLI, writeExperiment } from "../helpers/small-run.ts";
import { expectRefused } from "./refused.ts";

afterAll(closeWorkers);

const FIXTURES = "test/experiments/fixtures";
const STALLS = `${FIXTURES}/stalls.mjs`;
const BAD_RECORD = `${FIXTURES}/bad-record.mjs`;
const SOURCE = join(CORPUS_DIR, "sierra-tau2-bench__pr170-tau2-trace/e2e_airline_baseline.json");

/** The one-simulation airline file with its simulation repeated under each id (the fixtures act on ids). */
function trajectory(ids: readonly string[], timestamp = "2025-01-01T00:00:00"): string {
  const file = JSON.parse(readFileSync(SOURCE, "utf8"));
  const [sim] = file.simulations;
  file.timestamp = timestamp;
  file.simulations = ids.map((id, trial) => ({ ...sim, id, trial }));
  return JSON.stringify(file);
}

/** An experiment over `files` (name → content) in a fresh folder; its store is `x.duckdb` beside it. */
function experiment(files: Record<string, string>, over: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), "tr-module-safety-"));
  mkdirSync(join(dir, "corpus"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, "corpus", name), text);
  return writeExperiment(join(dir, "x.json"), over);
}

const withModule = (id: string, path: string) => ({ graders: ["tau3", id], grader_modules: [path] });

const run = (file: string, env: Record<string, string> = {}, flags: readonly string[] = []) =>
  runInProcess(registerRunCommand, ["run", file, ...flags], { TAU2_DATA_DIR: DATA_DIR, ...env });

interface Stored {
  /** `file simulation: message` for every errors row. */
  readonly errors: string[];
  /** `file simulation grader` for every verdict. */
  readonly verdicts: string[];
  /** `file simulation grader kind:reference evidence-codes` for every cause. */
  readonly causes: string[];
  readonly completed: boolean;
}

async function stored(experimentFile: string): Promise<Stored> {
  const store = await VerdictStore.open(join(experimentFile, "..", "x.duckdb"));
  try {
    const errors = await store.query<{ line: string }>(
      `SELECT f.path || ' ' || s.simulation_id || ': ' || e.message AS line
       FROM errors e JOIN simulations s ON s.run_id = e.run_id AND s.sim_key = e.sim_key
       JOIN files f ON f.run_id = e.run_id AND f.file_id = e.file_id ORDER BY line`,
    );
    const verdicts = await store.query<{ line: string }>(
      `SELECT f.path || ' ' || s.simulation_id || ' ' || v.grader AS line
       FROM verdicts v JOIN simulations s ON s.run_id = v.run_id AND s.sim_key = v.sim_key
       JOIN files f ON f.run_id = s.run_id AND f.file_id = s.file_id ORDER BY line`,
    );
    const causes = await store.query<{ line: string }>(
      `SELECT f.path || ' ' || s.simulation_id || ' ' || c.grader || ' ' || c.kind || ':' || c.reference || ' ' ||
              coalesce((SELECT string_agg(e.code, ',' ORDER BY e.seq) FROM evidence e WHERE e.run_id = c.run_id
                        AND e.sim_key = c.sim_key AND e.grader = c.grader AND e.cause_seq = c.seq), '') AS line
       FROM causes c JOIN simulations s ON s.run_id = c.run_id AND s.sim_key = c.sim_key
       JOIN files f ON f.run_id = s.run_id AND f.file_id = s.file_id ORDER BY line`,
    );
    const runs = await store.query<{ completed: boolean }>("SELECT completed FROM runs");
    return {
      errors: errors.map((r) => r.line),
      verdicts: verdicts.map((r) => r.line),
      causes: causes.map((r) => r.line),
      completed: runs.every((r) => r.completed),
    };
  } finally {
    store.close();
  }
}

const moduleAt = (path: string) => resolve(path).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const overdue = (seconds: string) =>
  `grader module ${resolve(STALLS)} (grader stalls): no verdict within ${seconds} s`;

/** Every file's stalling simulation is an error row; its other simulations have both verdicts. */
function expectStalledOnly(s: Stored, files: readonly string[], stalling: string, seconds: string): void {
  expect(s.errors).toEqual(files.map((f) => `${f} ${stalling}: ${overdue(seconds)}`));
  expect(s.verdicts).toEqual(
    files.flatMap((f) => [`${f} first stalls`, `${f} first tau3`, `${f} third stalls`, `${f} third tau3`]),
  );
  expect(s.completed).toBe(true);
}

describe("a grader module's time limit", () => {
  const files = {
    "a.json": trajectory(["first", "never_settles", "third"]),
    "b.json": trajectory(["first", "never_settles", "third"], "2025-01-02T00:00:00"),
  };

  it.each([1, 2])(
    "makes a grade that never settles an error row naming the module and the limit (%i grading thread)",
    async (threads) => {
      const file = experiment(files, withModule("stalls", STALLS));
      const r = await run(file, { TAU_RESCORE_WORKERS: String(threads), TAU_RESCORE_GRADER_TIMEOUT: "0.5" });
      expect(r.code, r.stderr).toBe(1);
      expectStalledOnly(await stored(file), ["a.json", "b.json"], "never_settles", "0.5");
    },
    30_000,
  );

  it("is --grader-timeout, which wins over TAU_RESCORE_GRADER_TIMEOUT", async () => {
    const file = experiment({ "a.json": files["a.json"] }, withModule("stalls", STALLS));
    const r = await run(file, { TAU_RESCORE_GRADER_TIMEOUT: "600" }, ["--grader-timeout", "0.25"]);
    expect(r.code, r.stderr).toBe(1);
    expectStalledOnly(await stored(file), ["a.json"], "never_settles", "0.25");
  }, 30_000);

  it.each([
    [
      { TAU_RESCORE_GRADER_TIMEOUT: "0" },
      [],
      /^tau-rescore: TAU_RESCORE_GRADER_TIMEOUT: must be a number from 0\.001 to 600 \(got "0"\)$/,
    ],
    [
      {},
      ["--grader-timeout", "601"],
      /^tau-rescore: --grader-timeout: must be a number from 0\.001 to 600 \(got "601"\)$/,
    ],
  ])("refuses a limit out of its range before the store is opened (%o %o)", async (env, flags, pattern) => {
    const file = experiment({ "a.json": files["a.json"] }, withModule("stalls", STALLS));
    const r = await run(file, env, flags);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toMatch(pattern);
    expect(existsSync(join(file, "..", "x.duckdb"))).toBe(false);
  });

  it("applies where a module grades in the main thread too (a live judge's run)", async () => {
    await importGraderModules([resolve(STALLS)]);
    const path = join(mkdtempSync(join(tmpdir(), "tr-module-safety-")), "a.json");
    writeFileSync(path, files["a.json"]);
    const file = loadTrajectoryFile(path);
    const out: GradedSimulation[] = [];
    for await (const g of gradeFile(
      file,
      detectTaskVersion(file, DATA_DIR),
      new ContextPool(DATA_DIR, TAU2_QUIRKS),
      {
        judge: recordedJudge,
        fallbackTaskVersion: "head",
        graders: { stalls: null },
        graderModuleTimeoutSeconds: 0.25,
      },
    ))
      out.push(g);
    expect(out.map((g) => [g.row.simulation_id, g.row.error ?? Object.keys(g.verdicts).join(",")])).toEqual([
      ["first", "tau3,stalls"],
      ["never_settles", overdue("0.25")],
      ["third", "tau3,stalls"],
    ]);
  }, 30_000);

  it("grades a run with modules in a grading thread even when one thread is asked for, and the default one in this thread", async () => {
    const before = threadsStarted();
    const plain = experiment({ "a.json": files["a.json"] }, {});
    expect((await run(plain, { TAU_RESCORE_WORKERS: "1" })).code).toBe(0);
    expect(threadsStarted()).toBe(before);
    await closeWorkers();
    const file = experiment({ "a.json": trajectory(["first", "third"]) }, withModule("stalls", STALLS));
    expect((await run(file, { TAU_RESCORE_WORKERS: "1" })).code).toBe(0);
    expect(threadsStarted()).toBe(before + 1);
  }, 30_000);
});

/** The built CLI in a child process, with its exit and how long after `signalled` it came. */
function spawnCli(args: readonly string[], env: Record<string, string>) {
  const child: ChildProcess = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  const exited = new Promise<{ code: number | null; signal: string | null; at: number }>((done) =>
    child.on("exit", (code, signal) => done({ code, signal, at: performance.now() })),
  );
  return { child, exited, stderr: () => stderr };
}

/** Kills the child if it has not exited within `ms` (the old behaviour: it never does). */
async function exitWithin(c: ReturnType<typeof spawnCli>, ms: number) {
  const timer = setTimeout(() => c.child.kill("SIGKILL"), ms);
  try {
    return await c.exited;
  } finally {
    clearTimeout(timer);
  }
}

describe("a grader module that loops for ever", () => {
  const files = { "a.json": trajectory(["first", "loops", "third"]) };

  it("is an error row once over the limit, and the run goes on (the built CLI, one thread asked for)", async () => {
    const file = experiment(files, withModule("stalls", STALLS));
    const c = spawnCli(["run", file], { TAU_RESCORE_WORKERS: "1", TAU_RESCORE_GRADER_TIMEOUT: "0.5" });
    const end = await exitWithin(c, 20_000);
    expect(end.code, c.stderr()).toBe(1);
    expectStalledOnly(await stored(file), ["a.json"], "loops", "0.5");
  }, 30_000);

  it("does not keep SIGTERM from ending the process within 2 s", async () => {
    const file = experiment(files, withModule("stalls", STALLS));
    const started = join(file, "..", "started");
    const c = spawnCli(["run", file], { TAU_RESCORE_WORKERS: "1", STALLS_STARTED_FILE: started });
    for (let waited = 0; !existsSync(started); waited += 20) {
      if (waited > 20_000) throw new Error(`grading never reached the loop: ${c.stderr()}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const signalled = performance.now();
    c.child.kill("SIGTERM");
    const end = await exitWithin(c, 5_000);
    expect(end.at - signalled).toBeLessThan(2_000);
    expect(end.code, c.stderr()).toBe(143);
    expect(c.stderr()).toContain("tau-rescore: interrupted: ");
  }, 30_000);
});

describe("a grader module's record", () => {
  const CASES: [string, string][] = [
    ["pass", 'record.pass: expected true, false or null (got "yes")'],
    ["reward_text", 'record.reward: expected a finite number from 0 to 1, or null (got "abc")'],
    ["reward_nan", "record.reward: expected a finite number from 0 to 1, or null (got NaN)"],
    ["reward_above", "record.reward: expected a finite number from 0 to 1, or null (got 1.5)"],
    ["db_match", 'record.dbMatch: expected true, false or null (got "x")'],
    ["notes", "record.notes[0]: expected a string (got 1)"],
    ["judge_failure", "record.judgeFailure: expected a string or null (got 3)"],
    ["component_score", "record.components[0].score: expected a finite number from 0 to 1, or null (got 2)"],
    ["component_twice", 'record.components[1].name: another component has this name (got "DB")'],
    ["causes_null", "record.causes: expected a list (got null)"],
    ["cause_without_gates", "record.causes[0].gates: expected true or false (missing)"],
    ["cause_kind", "record.causes[0].kind: expected a cause kind (component, "],
    ["evidence_code", "record.causes[0].evidence[0].code: expected a string (missing)"],
    ["evidence_arguments", "record.causes[0].evidence[0].arguments: expected a Python value"],
    ["grade_throws", "grade failed: TypeError: Cannot read properties of undefined (reading 'x')"],
    ["nothing", "grade returned undefined (null says the grader does not apply)"],
  ];
  const ids = ["good", ...CASES.map(([id]) => id)];
  let result: Promise<{ code: number; stderr: string; stored: Stored }> | null = null;
  /** One run grades a simulation per case (the fixture reads the case from the simulation's id). */
  const graded = () => {
    result ??= (async () => {
      const file = experiment({ "a.json": trajectory(ids) }, withModule("bad_record", BAD_RECORD));
      const r = await run(file);
      return { code: r.code, stderr: r.stderr, stored: await stored(file) };
    })();
    return result;
  };

  it.each(CASES)(
    "with %s is an error row naming the module and the field, nothing stored",
    async (id, message) => {
      const { code, stored: s } = await graded();
      expect(code).toBe(1);
      const row = s.errors.find((e) => e.startsWith(`a.json ${id}: `));
      expect(row).toBeDefined();
      expect(row?.slice(`a.json ${id}: `.length)).toContain(
        `grader module ${resolve(BAD_RECORD)} (grader bad_record): ${message}`,
      );
      expect(s.verdicts.filter((v) => v.startsWith(`a.json ${id} `))).toEqual([]);
    },
    60_000,
  );

  it("that is well formed is stored as it is, its cause and evidence too", async () => {
    const { stored: s } = await graded();
    expect(s.errors.filter((e) => e.startsWith("a.json good: "))).toEqual([]);
    expect(s.verdicts.filter((v) => v.startsWith("a.json good "))).toEqual([
      "a.json good bad_record",
      "a.json good tau3",
    ]);
    expect(s.causes.filter((c) => c.startsWith("a.json good bad_record "))).toEqual([
      "a.json good bad_record component:DB db.field",
    ]);
    // Nothing at all of the refused records: no verdict, cause or evidence of the module's elsewhere.
    expect(s.causes.filter((c) => / bad_record /.test(c) && !c.startsWith("a.json good "))).toEqual([]);
    expect(s.errors).toHaveLength(CASES.length);
  }, 60_000);
});

describe("a grader module's load", () => {
  it("that throws is a usage error naming the module, before the store is opened", async () => {
    const file = experiment({}, withModule("throwing_load", `${FIXTURES}/throwing-load.mjs`));
    await expectRefused(
      file,
      new RegExp(
        `: grader module ${moduleAt(`${FIXTURES}/throwing-load.mjs`)} \\(grader throwing_load\\): load failed: fixtures/missing\\.json: no such file$`,
      ),
    );
  });
});
