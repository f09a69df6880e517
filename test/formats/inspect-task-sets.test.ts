/**
 * `corpus inspect` validates only the task sets that decide a version. In a file of its own: the
 * validated sets are kept per process, so a test before this one could hide a load.
 */
import { relative } from "node:path";
import { expect, it, vi } from "vitest";
import { inspectFile } from "../../src/formats/inspect.ts";
import { loadTaskFile } from "../../src/formats/tasks.ts";
import { corpusFile, DATA_DIR } from "./paths.ts";

vi.mock("../../src/formats/tasks.ts", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/formats/tasks.ts")>();
  return { ...real, loadTaskFile: vi.fn(real.loadTaskFile) };
});

it("telecom's 2,285-task head set is counted, not validated, when a smaller set matches", () => {
  const small = inspectFile(
    corpusFile("sierra-tau2-bench__pr170-tau2-trace/e2e_telecom_baseline.json"),
    DATA_DIR,
  );
  const v0 = inspectFile(
    corpusFile(
      "sierra-tau2-bench__branch-feature-gym__experiments/gpt-4.1_telecom_default_gpt-4.1_1trials.json",
    ),
    DATA_DIR,
  );
  expect([small.task_version, v0.task_version]).toEqual(["head/tasks_small", "v0.2.0_f8de30c"]);
  const validated = vi.mocked(loadTaskFile).mock.calls.map(([path]) => relative(DATA_DIR, path));
  expect(validated).toEqual([
    "domains/telecom/tasks_small.json",
    "versions/v0.2.0_f8de30c/domains/telecom/tasks.json",
  ]);
});
