/**
 * Comparisons, rankings and exclusions are what the views compute, not what the verdicts are: changing
 * them and running again grades nothing, and the report shows the change.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { cli, smallExperiment } from "../helpers/small-run.ts";

const FILE = "jitrc-tau2-enhanced/airline_gemini2_5_flash_10tasks_2t.json";

const summaryOf = (dir: string) => JSON.parse(readFileSync(join(dir, "summary.json"), "utf8"));

describe("analysis settings re-grade nothing", () => {
  let experiment = "";
  let dir = "";
  let config: Record<string, unknown> = {};
  let firstRun = "";
  beforeAll(() => {
    const s = smallExperiment([FILE]);
    experiment = s.experiment;
    dir = s.dir;
    config = {
      ...JSON.parse(readFileSync(experiment, "utf8")),
      graders: ["tau3", "structured", "structured_strict"],
      comparisons: [{ baseline: "tau3", candidate: "structured" }],
    };
    writeFileSync(experiment, JSON.stringify(config));
    const r = cli(["run", experiment]);
    expect(r.status, r.stderr).toBe(0);
    firstRun = /run ([0-9a-f]{16})/.exec(r.stderr)?.[1] ?? "";
    expect(r.stderr).toMatch(/simulations graded now: [1-9]\d*/);
  });

  it("a new comparison, ranking seed and file exclusion: the same run, 0 simulations graded, the report shows them", () => {
    writeFileSync(
      experiment,
      JSON.stringify({
        ...config,
        comparisons: [
          { baseline: "tau3", candidate: "structured" },
          { baseline: "structured", candidate: "structured_strict" },
        ],
        ranking: { min_task_coverage: 0.5, bootstrap_samples: 50, seed: 2 },
        exclude_from_rankings: [
          { path_contains: "gemini2_5_flash", reason: "left out to check exclusions follow" },
        ],
      }),
    );
    const again = cli(["run", experiment]);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stderr).toContain(`run ${firstRun} `);
    expect(again.stderr).toContain("simulations graded now: 0 ");
    expect(again.stderr).toContain("comparisons, rankings and exclusions updated from the experiment");
    const out = join(dir, "report-after");
    const report = cli(["report", "--experiment", experiment, "--out", out]);
    expect(report.status, report.stderr).toBe(0);
    const summary = summaryOf(out);
    expect(Object.keys(summary.comparisons)).toEqual([
      "tau3-vs-structured",
      "structured-vs-structured_strict",
    ]);
    expect(summary.excluded_files).toEqual([
      { path: FILE, reason: "left out to check exclusions follow", simulations: expect.any(Number) },
    ]);
    const seed = cli([
      "query",
      "--experiment",
      experiment,
      "--format",
      "json",
      `SELECT seed FROM runs WHERE run_id = '${firstRun}'`,
    ]);
    expect(seed.status, seed.stderr).toBe(0);
    expect(JSON.parse(seed.stdout)).toEqual([{ seed: 2 }]);
  });

  it("a changed grader configuration is another run: it grades again", () => {
    writeFileSync(experiment, JSON.stringify({ ...config, graders: ["tau3", "structured"] }));
    const r = cli(["run", experiment]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).not.toContain(`run ${firstRun} `);
    expect(r.stderr).toMatch(/simulations graded now: [1-9]\d*/);
  });
});
