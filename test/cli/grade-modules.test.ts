/**
 * `grade --grader-module PATH` tries a grader module on files without an experiment, with the checks
 * `run` makes: its records checked, a load that fails is exit 2 naming the module, and a module that
 * gives no verdict is an error line once over the time limit (graded in a grading thread, timed by the
 * main thread), the file's other simulations graded. `--grader-config ID=JSON` configures it.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { closeWorkers, threadsStarted } from "../../src/pipeline/parallel.ts";
import { cliInProcess } from "../helpers/cli-in-process.ts";
import { CORPUS_DIR, DATA_DIR } from "../helpers/data.ts";
import { CLI } from "../helpers/small-run.ts";

afterAll(closeWorkers);

const LENIENT = "examples/graders/tau3-lenient.ts";
const FIXTURES = "test/experiments/fixtures";
const STALLS = `${FIXTURES}/stalls.mjs`;
const BAD_RECORD = `${FIXTURES}/bad-record.mjs`;
const THROWING_LOAD = `${FIXTURES}/throwing-load.mjs`;
const AIRLINE = join(CORPUS_DIR, "jitrc-tau2-enhanced/airline_gemini2_5_flash_10tasks_2t.json");
const SOURCE = join(CORPUS_DIR, "sierra-tau2-bench__pr170-tau2-trace/e2e_airline_baseline.json");

/** The one-simulation airline file with its simulation under each id (the fixtures act on ids). */
function trajectory(ids: readonly string[]): string {
  const file = JSON.parse(readFileSync(SOURCE, "utf8"));
  const [sim] = file.simulations;
  file.simulations = ids.map((id, trial) => ({ ...sim, id, trial }));
  const path = join(mkdtempSync(join(tmpdir(), "tr-grade-modules-")), "a.json");
  writeFileSync(path, JSON.stringify(file));
  return path;
}

type Line = Record<string, unknown> & { simulation_id: string; error?: string };

async function grade(args: readonly string[], env: Record<string, string> = {}) {
  const r = await cliInProcess(["grade", ...args, "--data-dir", DATA_DIR], { env });
  const text = r.stdout.trim();
  return { ...r, lines: text === "" ? [] : text.split("\n").map((l) => JSON.parse(l) as Line) };
}

const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const overdue = (seconds: string) =>
  `grader module ${resolve(STALLS)} (grader stalls): no verdict within ${seconds} s`;

describe("grade --grader-module", () => {
  it("grades the module's grader beside τ³, with its default configuration or --grader-config's", async () => {
    const plain = await grade([AIRLINE, "--grader", "tau3,tau3_lenient", "--grader-module", LENIENT]);
    expect(plain.status, plain.stderr).toBe(0);
    expect(plain.lines).toHaveLength(20);
    for (const l of plain.lines) expect(l.tau3_lenient).toMatchObject({ ignored: ["NL_ASSERTION"] });
    const configured = await grade([
      AIRLINE,
      "--grader",
      "tau3,tau3_lenient",
      "--grader-module",
      LENIENT,
      "--grader-config",
      'tau3_lenient={"ignore":["COMMUNICATE"]}',
    ]);
    expect(configured.status, configured.stderr).toBe(0);
    const rewards = configured.lines.map((l) => [
      (l.tau3 as { reward: number }).reward,
      (l.tau3_lenient as { reward: number; ignored: string[] }).reward,
    ]);
    for (const l of configured.lines) expect(l.tau3_lenient).toMatchObject({ ignored: ["COMMUNICATE"] });
    // Forgiving COMMUNICATE passes some simulations τ³ fails, and fails none it passes.
    expect(rewards.some(([t, l]) => t === 0 && l === 1)).toBe(true);
    expect(rewards.every(([t, l]) => t === 0 || l === 1)).toBe(true);
  }, 60_000);

  it("writes the built-in graders' lines as without the module, in file order from two threads", async () => {
    const folder = join(CORPUS_DIR, "jitrc-tau2-enhanced");
    const module = ["--grader-module", LENIENT];
    const threads = { TAU_RESCORE_WORKERS: "2" };
    const without = await grade([folder, "--grader", "tau3,structured"]);
    const withModule = await grade([folder, "--grader", "tau3,structured,tau3_lenient", ...module], threads);
    expect(without.lines).toHaveLength(80);
    expect(withModule.lines.map(({ tau3_lenient: _, ...rest }) => rest)).toEqual(without.lines);
    const table = ["--format", "table"];
    const tableWithout = await cliInProcess(["grade", folder, ...table, "--data-dir", DATA_DIR]);
    const tableWith = await cliInProcess(
      ["grade", folder, ...table, "--grader", "tau3,tau3_lenient", ...module, "--data-dir", DATA_DIR],
      { env: threads },
    );
    expect(tableWith.stdout).toBe(tableWithout.stdout);
  }, 120_000);

  it("makes a simulation the module gives no verdict on an error line naming it and the limit, graded in a grading thread", async () => {
    const file = trajectory(["first", "never_settles", "third"]);
    const before = threadsStarted();
    const r = await grade(
      [file, "--grader", "tau3,stalls", "--grader-module", STALLS, "--grader-timeout", "0.25"],
      { TAU_RESCORE_GRADER_TIMEOUT: "600" },
    );
    expect(r.status).toBe(1);
    expect(threadsStarted()).toBeGreaterThan(before);
    expect(r.lines.map((l) => [l.simulation_id, l.error ?? Object.keys(l.stalls ?? {}).join(",")])).toEqual([
      ["first", "pass"],
      ["never_settles", overdue("0.25")],
      ["third", "pass"],
    ]);
    expect(r.stderr).toContain(`tau-rescore: ${file}: 1 simulation: ${overdue("0.25")}\n`);
  }, 30_000);

  it("takes the limit from TAU_RESCORE_GRADER_TIMEOUT, and refuses one out of range", async () => {
    const file = trajectory(["first", "never_settles"]);
    const args = [file, "--grader", "tau3,stalls", "--grader-module", STALLS];
    const r = await grade(args, { TAU_RESCORE_GRADER_TIMEOUT: "0.25" });
    expect(r.lines.map((l) => l.error ?? null)).toEqual([null, overdue("0.25")]);
    const refused = await grade([...args, "--grader-timeout", "601"]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toBe(
      'tau-rescore: --grader-timeout: must be a number from 0.001 to 600 (got "601")\n',
    );
    expect(refused.stdout).toBe("");
  }, 30_000);

  it("makes a record the module gets wrong an error line naming the module and the field", async () => {
    const r = await grade([
      trajectory(["good", "reward_text"]),
      "--grader",
      "tau3,bad_record",
      "--grader-module",
      BAD_RECORD,
    ]);
    expect(r.status).toBe(1);
    expect(r.lines[0]?.error).toBeUndefined();
    expect(r.lines[0]?.bad_record).toBeDefined();
    expect(r.lines[1]?.error).toBe(
      `grader module ${resolve(BAD_RECORD)} (grader bad_record): record.reward: expected a finite number from 0 to 1, or null (got "abc")`,
    );
  }, 30_000);

  it.each([
    [
      "a load that throws",
      THROWING_LOAD,
      `grader module ${escaped(resolve(THROWING_LOAD))} \\(grader throwing_load\\): load failed: fixtures/missing\\.json: no such file`,
    ],
    [
      "a module that is not there",
      `${FIXTURES}/missing.mjs`,
      `grader module ${escaped(resolve(FIXTURES, "missing.mjs"))}: cannot import it: `,
    ],
  ])("stops on %s with exit 2, one line naming the module", async (_, module, pattern) => {
    const id = module === THROWING_LOAD ? "throwing_load" : "missing";
    const r = await grade([SOURCE, "--grader", `tau3,${id}`, "--grader-module", module]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(new RegExp(`^tau-rescore: ${pattern}`));
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });
});

describe("grade --grader-config", () => {
  it.each([
    ["not JSON", "tau3_lenient={ignore", /^tau-rescore: --grader-config tau3_lenient: not JSON: /],
    ["without =", "tau3_lenient", /^tau-rescore: --grader-config takes ID=JSON \(got "tau3_lenient"\)$/],
    [
      "an unknown id",
      "nope={}",
      /^tau-rescore: --grader-config nope: no grader nope comes from a --grader-module \(tau3_lenient\)$/,
    ],
    [
      "a built-in grader",
      "structured={}",
      /^tau-rescore: --grader-config structured: a built-in grader takes its settings from grade's own flags$/,
    ],
    [
      "a configuration its schema refuses",
      'tau3_lenient={"ignore":["X"]}',
      /^tau-rescore: at grader_config\.tau3_lenient\.ignore\[0\]: /,
    ],
  ])("refuses %s in one line, exit 2", async (_, config, pattern) => {
    const r = await grade([
      SOURCE,
      "--grader",
      "tau3,tau3_lenient",
      "--grader-module",
      LENIENT,
      "--grader-config",
      config,
    ]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr.trim()).toMatch(pattern);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });
});

describe("grade --grader-config, for a module's grader --grader does not select", () => {
  it("is refused in one line, exit 2", async () => {
    const r = await grade([
      SOURCE,
      "--grader",
      "tau3",
      "--grader-module",
      LENIENT,
      "--grader-config",
      "tau3_lenient={}",
    ]);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      "tau-rescore: --grader-config tau3_lenient: grader tau3_lenient is not selected (add it to --grader)\n",
    );
  });
});

describe("the built CLI", () => {
  /** Runs `grade` in a child process; kills it if it has not ended within `ms` (a module holding it). */
  async function spawnGrade(args: readonly string[], env: Record<string, string>, ms: number) {
    const child: ChildProcess = spawn(process.execPath, [CLI, "grade", ...args, "--data-dir", DATA_DIR], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr?.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), ms);
    const code = await new Promise<number | null>((done) => child.on("close", (c) => done(c)));
    clearTimeout(timer);
    return { code, stdout, stderr };
  }

  it("ends a module that loops for ever once over the limit: an error line, the other simulations graded", async () => {
    const file = trajectory(["first", "loops", "third"]);
    const r = await spawnGrade(
      [file, "--grader", "tau3,stalls", "--grader-module", STALLS, "--grader-timeout", "0.5"],
      {},
      20_000,
    );
    expect(r.code, r.stderr).toBe(1);
    const lines = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Line);
    expect(lines.map((l) => [l.simulation_id, l.error ?? "graded"])).toEqual([
      ["first", "graded"],
      ["loops", overdue("0.5")],
      ["third", "graded"],
    ]);
  }, 30_000);
});
