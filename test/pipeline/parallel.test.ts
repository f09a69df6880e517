/** The reusable grading threads: the thread-count rule, reuse across runs, and a thread lost mid-run. */
import { afterAll, describe, expect, it } from "vitest";
import { runTuning } from "../../src/cli/env.ts";
import { loadExperiment } from "../../src/experiments/config.ts";
import {
  closeWorkers,
  THREADS_PAY_OFF_BYTES,
  threadsRunning,
  threadsStarted,
  workerCount,
} from "../../src/pipeline/parallel.ts";
import type { FileResult } from "../../src/pipeline/process-file.ts";
import { gradeJobs, jobsFor } from "../../src/pipeline/run.ts";
import { planRun, type RunPlan } from "../../src/pipeline/settings.ts";
import { smallExperiment } from "../helpers/small-run.ts";

afterAll(closeWorkers);

const { experiment } = smallExperiment();
const loaded = loadExperiment(experiment);
const both = await planRun(loaded);
const tau3Only = await planRun({
  ...loaded,
  config: { ...loaded.config, graders: ["tau3"], corrections: false },
});
const jobs = jobsFor(loaded);

/** Results in a comparable order (threads finish in any order). */
async function grade(plan: RunPlan, workers: number): Promise<FileResult[]> {
  const out: FileResult[] = [];
  for await (const r of gradeJobs(plan, jobs, new Set(), workers)) out.push(r);
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

describe("workerCount", () => {
  const none = undefined;
  it("grades in the main thread on one core and for small inputs on two", async () => {
    await closeWorkers();
    expect(workerCount(50, 10 * THREADS_PAY_OFF_BYTES, none, 1)).toBe(1);
    expect(workerCount(50, THREADS_PAY_OFF_BYTES - 1, none, 2)).toBe(1);
    expect(workerCount(50, THREADS_PAY_OFF_BYTES, none, 2)).toBe(2);
  });
  it("uses threads from four cores, leaving one core for the writer, and never more than files", () => {
    expect(workerCount(50, 0, none, 4)).toBe(3);
    expect(workerCount(50, 0, none, 64)).toBe(8);
    expect(workerCount(2, 0, none, 64)).toBe(2);
  });
  it("obeys TAU_RESCORE_WORKERS (read by the command line)", () => {
    expect(workerCount(50, 0, runTuning({ TAU_RESCORE_WORKERS: "3" }).workers, 1)).toBe(3);
    expect(workerCount(50, 0, runTuning({ TAU_RESCORE_WORKERS: "" }).workers, 1)).toBe(1);
    // A value that is not a worker count is refused, no longer ignored (test/cli/limits.test.ts).
    expect(() => runTuning({ TAU_RESCORE_WORKERS: "junk" })).toThrow("TAU_RESCORE_WORKERS: must be");
  });
});

describe("grading threads", () => {
  it("grade what the main thread grades, and are reused by the next run with its own settings", async () => {
    const main = await grade(both, 1);
    expect(await grade(tau3Only, 2)).not.toEqual(main); // fewer graders, fewer rows
    expect(threadsRunning()).toBe(2);
    const starts = threadsStarted();
    expect(await grade(both, 2)).toEqual(main);
    expect(threadsStarted()).toBe(starts);
    expect(threadsRunning()).toBe(2);
    // Once running, threads pay even for a small input on two cores.
    expect(workerCount(50, 0, undefined, 2)).toBe(2);
  });

  it("serve two concurrent runs one after the other, each with its own settings", async () => {
    const [a, b] = await Promise.all([grade(both, 2), grade(tau3Only, 2)]);
    expect(a).toEqual(await grade(both, 1));
    expect(b).toEqual(await grade(tau3Only, 1));
  });

  it("stop feeding when the consumer stops early; the next run is complete", async () => {
    const main = await grade(both, 1);
    for await (const _ of gradeJobs(both, jobs, new Set(), 2)) break;
    expect(await grade(both, 2)).toEqual(main);
  });

  it("fail the run clearly when a thread dies mid-run, and start fresh threads next time", async () => {
    const main = await grade(both, 1);
    const run = async () => {
      for await (const _ of gradeJobs(both, jobs, new Set(), 2)) await closeWorkers();
    };
    await expect(run()).rejects.toThrow(/a grading thread exited/);
    const starts = threadsStarted();
    expect(await grade(both, 2)).toEqual(main);
    expect(threadsStarted()).toBe(starts + 2);
  });
});
