/**
 * `exclude_tasks`: a task left out of every headline number and ranking, with its reason, as an excluded
 * file is; its simulations are still graded and stored. Four agents over ten airline tasks, where τ³ and
 * the structured grader disagree on every simulation of task 6 and nowhere else. An entry that matches no
 * simulation of the run is a warning, at `run` and `report` time and in summary.json.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeReport } from "../../src/analysis/export.ts";
import type { Summary } from "../../src/analysis/summary.ts";
import { loadExperiment } from "../../src/experiments/config.ts";
import { runExperiment } from "../../src/pipeline/run.ts";
import { planRun } from "../../src/pipeline/settings.ts";
import { VerdictStore } from "../../src/store/store.ts";
import { type CliResult, cliInProcess } from "../helpers/cli-in-process.ts";
import { CORPUS_DIR, DATA_DIR } from "../helpers/data.ts";
import { writeExperiment } from "../helpers/small-run.ts";

const REASON = "gold actions disputed";
const quiet = { start() {}, tick() {}, stop() {} };

interface Graded {
  readonly store: VerdictStore;
  readonly summary: Summary;
}

async function graded(dir: string, name: string, over: Record<string, unknown>): Promise<Graded> {
  const file = writeExperiment(
    join(dir, `${name}.json`),
    {
      name,
      corpus: ["jitrc-tau2-enhanced"],
      output: `${name}.duckdb`,
      graders: ["tau3", "structured"],
      ranking: { min_task_coverage: 0.5, bootstrap_samples: 50, seed: 1 },
      ...over,
    },
    { corpus: CORPUS_DIR, data: DATA_DIR, repo: resolve(".") },
  );
  const plan = await planRun(loadExperiment(file));
  const store = await VerdictStore.open(plan.exp.output);
  await runExperiment(plan, store, quiet, { workers: 1 });
  return { store, summary: await writeReport(store, join(dir, `${name}-report`)) };
}

/** The experiment run and reported through the CLI, for what each command says on stderr. */
async function viaCli(
  dir: string,
  name: string,
  over: Record<string, unknown>,
): Promise<{ run: CliResult; report: CliResult; summary: Summary }> {
  const file = writeExperiment(
    join(dir, `${name}.json`),
    { name, corpus: ["jitrc-tau2-enhanced"], output: `${name}.duckdb`, graders: ["tau3"], ...over },
    { corpus: CORPUS_DIR, data: DATA_DIR, repo: resolve(".") },
  );
  const out = join(dir, `${name}-report`);
  const run = await cliInProcess(["run", file]);
  const report = await cliInProcess(["report", "--experiment", file, "--out", out]);
  return { run, report, summary: JSON.parse(readFileSync(join(out, "summary.json"), "utf8")) };
}

let all: Graded;
let without: Graded;
let otherSet: Graded;
let unmatched: Awaited<ReturnType<typeof viaCli>>;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), "tr-exclude-tasks-"));
  all = await graded(dir, "all", {});
  without = await graded(dir, "without", {
    exclude_tasks: [{ domain: "airline", task_id: "6", reason: REASON }],
  });
  otherSet = await graded(dir, "other-set", {
    exclude_tasks: [{ domain: "airline", task_version: "head", task_id: "6", reason: REASON }],
  });
  unmatched = await viaCli(dir, "unmatched", {
    exclude_tasks: [
      { domain: "airline", task_id: "6", reason: REASON },
      { domain: "airline", task_version: "head", task_id: "6", reason: REASON },
      { domain: "airline", task_id: "99", reason: "no such task in this corpus" },
    ],
  });
}, 300_000);
afterAll(() => {
  all?.store.close();
  without?.store.close();
  otherSet?.store.close();
});

const flipCount = (s: Summary) => s.flips.pass_to_fail + s.flips.fail_to_pass;

describe("a task left out by exclude_tasks", () => {
  it("is listed with its reason and how many simulations it covers", () => {
    expect(all.summary.excluded_tasks).toEqual([]);
    expect(without.summary.excluded_tasks).toEqual([
      { domain: "airline", task_version: null, task_id: "6", reason: REASON, simulations: 8 },
    ]);
  });

  it("of another task set leaves this one's task in", () => {
    expect(otherSet.summary.excluded_tasks).toEqual([
      { domain: "airline", task_version: "head", task_id: "6", reason: REASON, simulations: 0 },
    ]);
    expect(otherSet.summary.flips).toEqual(all.summary.flips);
  });

  it("leaves the headline numbers: its flips are no longer counted", () => {
    const headline = "tau3-vs-structured";
    expect(all.summary.comparisons[headline]?.headline).toBe(true);
    expect(flipCount(all.summary)).toBe(8);
    expect(flipCount(without.summary)).toBe(0);
    expect(without.summary.comparisons[headline]?.paired).toBe(
      (all.summary.comparisons[headline]?.paired ?? 0) - 8,
    );
    for (const [name, c] of Object.entries(without.summary.comparisons))
      expect(c.paired, name).toBe((all.summary.comparisons[name]?.paired ?? 0) - 8);
  });

  it("is still graded and stored, its flips marked excluded", async () => {
    const count = async (g: Graded, sql: string) =>
      Number((await g.store.query<{ n: number }>(sql))[0]?.n ?? -1);
    expect(await count(without, "SELECT count(*) AS n FROM verdicts WHERE grader = 'tau3'")).toBe(80);
    expect(
      await count(
        without,
        "SELECT count(*) AS n FROM flips WHERE comparison = 'tau3-vs-structured' AND excluded",
      ),
    ).toBe(8);
  });

  it("leaves the rankings: every model is ranked over the other nine tasks", async () => {
    const ranked = (g: Graded) =>
      g.store.query<{ model: string; grader: string; tasks: number; successes: number }>(
        "SELECT model, grader, tasks, successes FROM ranking WHERE domain = 'airline' ORDER BY model, grader",
      );
    const before = await ranked(all);
    const after = await ranked(without);
    expect(before.length).toBeGreaterThanOrEqual(8);
    expect(after.map((r) => [r.model, r.grader])).toEqual(before.map((r) => [r.model, r.grader]));
    for (const r of before) expect(Number(r.tasks)).toBe(10);
    for (const r of after) expect(Number(r.tasks)).toBe(9);
    const successes = await without.store.query<{ model: string; grader: string; n: number }>(
      `SELECT s.model, v.grader, count(*) FILTER (WHERE v.pass) AS n
       FROM run_verdicts v JOIN sim_verdicts s USING (sim_key)
       WHERE s.task_id <> '6' GROUP BY ALL`,
    );
    let checked = 0;
    for (const r of after) {
      const expected = successes.find((s) => s.model === r.model && s.grader === r.grader);
      if (expected === undefined) continue;
      expect(Number(r.successes), `${r.model} ${r.grader}`).toBe(Number(expected.n));
      checked++;
    }
    expect(checked).toBe(after.length);
  });
});

describe("an exclude_tasks entry that matches no simulation of the run", () => {
  const WARNINGS = [
    "exclude_tasks[1] (airline task 6, task set head) matches no simulation of this run",
    "exclude_tasks[2] (airline task 99, any task set) matches no simulation of this run",
  ];

  it("is a warning in summary.json; entries that all match add none", () => {
    expect(unmatched.summary.warnings).toEqual(WARNINGS);
    expect(otherSet.summary.warnings).toEqual([WARNINGS[0]?.replace("[1]", "[0]")]);
    expect(all.summary).not.toHaveProperty("warnings");
    expect(without.summary).not.toHaveProperty("warnings");
  });

  it("is said on stderr by report and by run", () => {
    expect(unmatched.report.status, unmatched.report.stderr).toBe(0);
    for (const w of WARNINGS) {
      expect(unmatched.report.stderr).toContain(`tau-rescore: warning: ${w}\n`);
      expect(unmatched.run.stderr).toContain(`  warning: ${w}\n`);
    }
    expect(unmatched.report.stderr).toContain("2 warning(s), in summary.json");
    expect(unmatched.run.stderr).not.toContain("exclude_tasks[0]");
  });
});
