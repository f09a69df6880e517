/** `corpus inspect` run in-process through commander, the way the real CLI main wires it. */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { registerCorpusCommand } from "../../src/cli/commands/corpus.ts";
import { CORPUS_DIR, corpusFile, DATA_DIR } from "../formats/paths.ts";
import { runInProcess } from "../helpers/cli-in-process.ts";

const run = (args: string[], env: Record<string, string | undefined> = {}) =>
  runInProcess((program, io) => registerCorpusCommand(program, { ...io, env }), args);

afterEach(() => {
  process.exitCode = undefined;
});

const TRACE = corpusFile("sierra-tau2-bench__pr170-tau2-trace");

describe("corpus inspect --json", () => {
  it("describes the whole corpus in one object", async () => {
    const r = await run(["corpus", "inspect", CORPUS_DIR, "--json", "--data-dir", DATA_DIR]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    const report = JSON.parse(r.stdout);
    expect(report.totals).toEqual({ files: 101, trajectory_files: 33, simulations: 1118, failed_files: 0 });
    const byName = (suffix: string) => report.files.find((f: { path: string }) => f.path.endsWith(suffix));
    expect(byName("pr448-whissle/airline_run1.json")).toEqual({
      path: corpusFile("sierra-tau2-bench__pr448-whissle/airline_run1.json"),
      variant: "tau2-runner",
      domain: "airline",
      agent_model: "whissle",
      user_model: "gpt-4o",
      task_version: "head",
      simulations: 50,
      trials: 1,
      configuration:
        'whissle whissle {"temperature":0} · user_simulator gpt-4o {"temperature":0} · airline head',
      repeated_tasks: 0,
      with_reward_info: 50,
      recorded_pass_rate: 0.56,
      rejected: 0,
      note: null,
      error: null,
      // 28 of its 50 tasks have a fixture whose quotes all stand in the task text.
      fixtures: { tasks: 50, with_fixture: 28 },
    });
    expect(byName("gpt-4o-airline.json")).toMatchObject({
      variant: "tau-bench-v1",
      simulations: 200,
      trials: 4,
      recorded_pass_rate: 0.42,
    });
    expect(byName("adaptive_agent_airline_opus46_cascata.json")).toMatchObject({
      variant: "domain-simulations",
      task_version: "none",
      with_reward_info: 49,
      recorded_pass_rate: 0.98,
    });
    expect(byName("airline-multi-judge-full_quick_triage_v1.json")).toMatchObject({
      variant: "not-trajectories",
      simulations: 0,
      error: null,
    });
    expect(report.notes).toEqual([]);
  });

  it("lists failed inputs with the reason, keeps going, and exits 1", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tau-rescore-cli-"));
    const truncated = join(dir, "truncated.json");
    writeFileSync(truncated, '{"info": {}, "simulations": [');
    const missing = join(dir, "missing.json");
    const r = await run(["corpus", "inspect", "--json", missing, truncated, TRACE], {
      TAU2_DATA_DIR: DATA_DIR,
    });
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report.totals).toEqual({ files: 7, trajectory_files: 5, simulations: 5, failed_files: 2 });
    expect(report.files.slice(0, 2).map((f: { path: string; error: string }) => [f.path, f.error])).toEqual([
      [missing, "no such file or directory"],
      [
        truncated,
        "invalid JSON: unexpected end of input (truncated file?) at position 29 (line 1, column 30)",
      ],
    ]);
    // TAU2_DATA_DIR was used: versions are known
    expect(report.files.slice(2).map((f: { task_version: string }) => f.task_version)).toEqual([
      "head",
      "head",
      "v0.2.0_f8de30c",
      "head/tasks_small",
      "head/tasks_small",
    ]);
  });

  it("a rejected simulation makes the exit code 1", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tau-rescore-cli-"));
    const path = join(dir, "bad-sim.json");
    writeFileSync(path, JSON.stringify([{ id: "a", task_id: "0", termination_reason: 5, messages: [] }]));
    const r = await run(["corpus", "inspect", "--json", path]);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).files[0]).toMatchObject({
      variant: "bare-simulations",
      simulations: 0,
      rejected: 1,
    });
  });

  it("without a data dir the task version is unknown, with a note", async () => {
    const r = await run(["corpus", "inspect", "--json", join(TRACE, "e2e_airline_baseline.json")]);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.files[0]).toMatchObject({ task_version: "unknown", note: "no tau2 data dir given" });
    expect(report.notes).toEqual([
      "no tau2 data dir (--data-dir or TAU2_DATA_DIR): task versions are unknown",
    ]);
  });
});

describe("corpus inspect table", () => {
  it("prints an aligned table and a totals line", async () => {
    const r = await run(["corpus", "inspect", TRACE, "--data-dir", DATA_DIR]);
    expect(r.code).toBe(0);
    const lines = r.stdout.split("\n");
    expect(lines[0]).toMatch(
      /^FILE +VARIANT +DOMAIN +AGENT MODEL +USER MODEL +TASKS +SIMS +TRIALS +REPEATED +REWARD_INFO +RECORDED PASS +FIXTURES$/,
    );
    const column = lines[0]!.indexOf("TASKS");
    const rows = lines.slice(1, 6);
    expect(rows.map((l) => l.slice(column).split(/ +/)[0])).toEqual([
      "head",
      "head",
      "v0.2.0_f8de30c",
      "head/tasks_small",
      "head/tasks_small",
    ]);
    // Recorded pass, then fixtures: telecom's every-task fixture quotes nothing of this task.
    expect(rows[3]).toMatch(/0\/1 \(0\.0%\) +0\/1$/);
    expect(lines).toContain("5 files, 5 with trajectories, 5 simulations, 0 failed");
  });
});

describe("corpus inspect usage errors exit 2", () => {
  it("a data dir that does not exist", async () => {
    const r = await run(["corpus", "inspect", TRACE, "--data-dir", "/nonexistent/tau2"]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe("tau-rescore: --data-dir: /nonexistent/tau2 is not a directory\n");
  });

  it("a data dir from the environment that is not a tau2 data dir", async () => {
    const r = await run(["corpus", "inspect", TRACE], { TAU2_DATA_DIR: CORPUS_DIR });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `tau-rescore: TAU2_DATA_DIR: ${CORPUS_DIR} has no domains/ folder (expected a tau2-bench data/tau2 dir)\n`,
    );
  });

  it("missing paths and unknown options", async () => {
    const noPaths = await run(["corpus", "inspect"]);
    expect([noPaths.code, noPaths.stderr]).toEqual([2, "error: missing required argument 'paths'\n"]);
    const unknown = await run(["corpus", "inspect", TRACE, "--bogus"]);
    expect([unknown.code, unknown.stderr]).toEqual([2, "error: unknown option '--bogus'\n"]);
  });
});
