/**
 * An experiment's `comparisons`: each side a grader the experiment runs or `recorded`, names unique,
 * two different sides; without the key, what the graders run declare. A mistake is one line naming the
 * file and the JSON path, found before the store is opened. `graders` and `grader_modules` are checked
 * the same way.
 */
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { registerRunCommand } from "../../src/cli/commands/run.ts";
import { ExperimentError, loadExperiment } from "../../src/experiments/config.ts";
import { planRun } from "../../src/pipeline/settings.ts";
import { runInProcess } from "../helpers/cli-in-process.ts";
import { DATA_DIR } from "../helpers/data.ts";
import { writeExperiment } from "../helpers/small-run.ts";
import { expectRefused } from "./refused.ts";

function setup(
  over: Record<string, unknown>,
  dir = mkdtempSync(join(tmpdir(), "tr-cmp-")),
  name = "x.json",
): string {
  mkdirSync(join(dir, "corpus"), { recursive: true });
  return writeExperiment(join(dir, name), over);
}

const _run = (file: string) => runInProcess(registerRunCommand, ["run", file], { TAU2_DATA_DIR: DATA_DIR });

describe("comparisons that cannot be made", () => {
  it.each([
    [
      "a side the experiment does not run",
      [
        { baseline: "tau3", candidate: "structured" },
        { baseline: "tau3_corrected", candidate: "tau3" },
      ],
      /at comparisons\[1\]\.baseline: "tau3_corrected" is not a grader this experiment runs \(recorded, tau3, structured, structured_strict\)$/,
    ],
    [
      "a grader nobody registered",
      [{ baseline: "tau3", candidate: "tau4" }],
      /at comparisons\[0\]\.candidate: "tau4" is not a grader this experiment runs/,
    ],
    [
      "a name given twice",
      [
        { baseline: "tau3", candidate: "structured", name: "gate" },
        { baseline: "recorded", candidate: "tau3", name: "gate" },
      ],
      /at comparisons\[1\]\.name: comparison gate is declared twice$/,
    ],
    [
      "the same default name twice",
      [
        { baseline: "tau3", candidate: "structured" },
        { baseline: "tau3", candidate: "structured" },
      ],
      /at comparisons\[1\]\.name: comparison tau3-vs-structured is declared twice$/,
    ],
    [
      "a grader compared with itself",
      [{ baseline: "structured", candidate: "structured" }],
      /at comparisons\[0\]\.candidate: a comparison needs two different sides$/,
    ],
  ])(
    "refuses %s in one line naming the file, before the store is opened",
    async (_what, comparisons, pattern) => {
      const file = setup({ graders: ["tau3", "structured"], comparisons });
      await expectRefused(file, pattern);
    },
  );

  it.each([
    [{ comparisons: [] }, /at comparisons: /],
    [{ comparisons: [{ baseline: "tau3" }] }, /at comparisons\[0\]\.candidate: /],
    [
      { comparisons: [{ baseline: "tau3", candidate: "structured", name: "a/b" }] },
      /comparisons\[0\]\.name: /,
    ],
    [{ graders: ["tau3", "tau4"] }, /at graders\[1\]: unknown grader tau4 \(tau3, .*grader_modules\)/],
    [{ grader_modules: ["../elsewhere.ts"] }, /grader module "\.\.\/elsewhere\.ts" escapes its root/],
    [
      { exclude_tasks: [{ domain: "airline", task_id: "6", reason: " " }] },
      /at exclude_tasks\[0\]\.reason: every exclusion needs a reason/,
    ],
    [{ exclude_tasks: [{ domain: "airline", reason: "why" }] }, /at exclude_tasks\[0\]\.task_id: /],
  ])("refuses %j when the config is read", (over, pattern) => {
    const file = setup(over);
    expect(() => loadExperiment(file)).toThrow(ExperimentError);
    expect(() => loadExperiment(file)).toThrow(pattern);
  });
});

describe("comparisons the run makes", () => {
  it("follow from the graders run when the experiment lists none, the headline first", async () => {
    const file = setup({ graders: ["tau3", "structured"], corrections: true });
    const plan = await planRun(loadExperiment(file));
    expect(plan.comparisons).toEqual([
      { name: "tau3-vs-structured", baseline: "tau3", candidate: "structured" },
      { name: "structured-vs-structured_strict", baseline: "structured", candidate: "structured_strict" },
      { name: "tau3-vs-tau3_corrected", baseline: "tau3", candidate: "tau3_corrected" },
      { name: "recorded-vs-tau3", baseline: "recorded", candidate: "tau3" },
    ]);
    const tau3Only = await planRun(loadExperiment(setup({ graders: ["tau3"] })));
    expect(tau3Only.comparisons).toEqual([
      { name: "recorded-vs-tau3", baseline: "recorded", candidate: "tau3" },
    ]);
  });

  it("are the listed ones, in their order, named as given; not part of the run id, but reading recorded is", async () => {
    const listed = [
      { baseline: "recorded", candidate: "structured", name: "recorded-gate" },
      { baseline: "tau3", candidate: "structured" },
    ];
    // One corpus folder: the run id also names the corpus.
    const dir = mkdtempSync(join(tmpdir(), "tr-cmp-"));
    const plan = await planRun(
      loadExperiment(setup({ graders: ["tau3", "structured"], comparisons: listed }, dir, "a.json")),
    );
    expect(plan.comparisons).toEqual([
      { name: "recorded-gate", baseline: "recorded", candidate: "structured" },
      { name: "tau3-vs-structured", baseline: "tau3", candidate: "structured" },
    ]);
    const swapped = await planRun(
      loadExperiment(
        setup({ graders: ["tau3", "structured"], comparisons: [...listed].reverse() }, dir, "b.json"),
      ),
    );
    expect(swapped.comparisons.map((c) => c.name)).toEqual(["tau3-vs-structured", "recorded-gate"]);
    expect(swapped.exp.configHash).toBe(plan.exp.configHash);
    expect(swapped.runId).toBe(plan.runId);
    // Whether a comparison reads the recorded reward decides which conversations the run keeps.
    const withoutRecorded = await planRun(
      loadExperiment(setup({ graders: ["tau3", "structured"], comparisons: [listed[1]] }, dir, "c.json")),
    );
    expect(withoutRecorded.runId).not.toBe(plan.runId);
  });
});
