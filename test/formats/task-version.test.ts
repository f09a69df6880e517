import { describe, expect, it } from "vitest";
import { loadTrajectoryFile } from "../../src/formats/load.ts";
import type { TrajectoryFile } from "../../src/formats/model.ts";
import { detectTaskVersion, sameGradedContent } from "../../src/formats/task-version.ts";
import { loadTaskFile } from "../../src/formats/tasks.ts";
import { corpusFile, DATA_DIR } from "./paths.ts";

const AIRLINE = "sierra-tau2-bench__pr170-tau2-trace/e2e_airline_baseline.json";

describe("detectTaskVersion", () => {
  it("reports every matching set and prefers head on a tie", () => {
    const file = loadTrajectoryFile(corpusFile(AIRLINE));
    expect(detectTaskVersion(file, DATA_DIR)).toEqual({
      version: "head",
      matches: ["head", "v0.2.0_f8de30c"],
      note: null,
    });
  });

  it("prefers the smallest matching set: a later superset does not relabel files run on a smaller one", () => {
    // Telecom HEAD's full set repeats the tasks of tasks_small (20) and the v0.x test split.
    const small = loadTrajectoryFile(
      corpusFile("sierra-tau2-bench__pr170-tau2-trace/e2e_telecom_baseline.json"),
    );
    expect(detectTaskVersion(small, DATA_DIR)).toMatchObject({
      version: "head/tasks_small",
      matches: ["head/tasks_small", "head"],
    });
    const v0 = loadTrajectoryFile(
      corpusFile(
        "sierra-tau2-bench__branch-feature-gym__experiments/gpt-4.1_telecom_default_gpt-4.1_1trials.json",
      ),
    );
    expect(detectTaskVersion(v0, DATA_DIR)).toMatchObject({
      version: "v0.2.0_f8de30c",
      matches: ["v0.2.0_f8de30c", "head"],
    });
  });

  it("unknown without a data dir, none without tasks, tau-bench-v1 for v1 files", () => {
    const file = loadTrajectoryFile(corpusFile(AIRLINE));
    expect(detectTaskVersion(file, null)).toEqual({
      version: "unknown",
      matches: [],
      note: "no tau2 data dir given",
    });
    const noTasks: TrajectoryFile = { ...file, tasks: null };
    expect(detectTaskVersion(noTasks, DATA_DIR).version).toBe("none");
    expect(detectTaskVersion({ ...file, variant: "tau-bench-v1" }, DATA_DIR).version).toBe("tau-bench-v1");
  });

  it("a changed task makes the version unknown and names the closest set", () => {
    const file = loadTrajectoryFile(corpusFile("sierra-tau2-bench__pr448-whissle/airline_run1.json"));
    const tasks = file.tasks!.map((t, i) =>
      i === 0
        ? { ...t, evaluation_criteria: { ...t.evaluation_criteria!, communicate_info: ["changed"] } }
        : t,
    );
    expect(detectTaskVersion({ ...file, tasks }, DATA_DIR)).toEqual({
      version: "unknown",
      matches: [],
      note: "closest: head (1 of 50 tasks differ)",
    });
  });

  it("27 airline tasks differ between v0.x and HEAD (PROVENANCE)", () => {
    const head = new Map(loadTaskFile(`${DATA_DIR}/domains/airline/tasks.json`).map((t) => [t.id, t]));
    const v0 = loadTaskFile(`${DATA_DIR}/versions/v0.2.0_f8de30c/domains/airline/tasks.json`);
    const differs = v0.filter((t) => {
      const h = head.get(t.id);
      return h === undefined || !sameGradedContent(h, t);
    });
    expect(differs).toHaveLength(27);
  });
});
