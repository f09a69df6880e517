/**
 * A task field the tool does not understand (a fork's `failure_conditions`, an `annotations` block) is a
 * warning naming the field and the file, at grade and at run time: never dropped silently.
 */
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { closeWorkers } from "../../src/pipeline/parallel.ts";
import { cliInProcess, gradeTau3 } from "../helpers/cli-in-process.ts";
import { CORPUS_DIR, DATA_DIR } from "../helpers/data.ts";
import { writeExperiment } from "../helpers/small-run.ts";

afterAll(closeWorkers);

const dir = mkdtempSync(join(tmpdir(), "tr-unknown-fields-"));
mkdirSync(join(dir, "corpus"));
const file = join(dir, "corpus", "fork.json");
const doc = JSON.parse(
  readFileSync(join(CORPUS_DIR, "sierra-tau2-bench__pr170-tau2-trace/e2e_airline_baseline.json"), "utf8"),
);
doc.tasks[0].evaluation_criteria.failure_conditions = [{ description: "the agent books twice" }];
doc.tasks[0].annotations = { reviewer: "someone" };
writeFileSync(file, JSON.stringify(doc));

const FAILURE =
  "warning: task field failure_conditions is not understood and is ignored: tasks[0].evaluation_criteria.failure_conditions";
const ANNOTATIONS = "warning: task field annotations is not understood and is ignored: tasks[0].annotations";

describe("task fields the tool does not understand", () => {
  it("grade warns once per field, naming the file, and still grades", async () => {
    const r = await gradeTau3(file, DATA_DIR, "jsonl");
    expect(r.status).toBe(0);
    expect(r.stderr).toContain(`${file}: ${FAILURE}`);
    expect(r.stderr).toContain(`${file}: ${ANNOTATIONS}`);
    expect(r.stdout.trim().split("\n")).toHaveLength(doc.simulations.length);
  });

  it("run prints them with the file", async () => {
    const experiment = writeExperiment(join(dir, "x.json"));
    const r = await cliInProcess(["run", experiment, "--db", join(dir, "x.duckdb")]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain(`fork.json: ${FAILURE}`);
    expect(r.stderr).toContain(`fork.json: ${ANNOTATIONS}`);
  });
});

/**
 * A data dir whose airline task set carries a fork's fields (written here from the shared one: its DB and
 * policy linked, its tasks.json changed); each test its own, as a process loads a task set once.
 */
function forkDataDir(name: string): { dataDir: string; failure: string; annotations: string } {
  const dataDir = join(dir, name);
  mkdirSync(join(dataDir, "domains", "airline"), { recursive: true });
  for (const f of ["db.json", "policy.md"])
    symlinkSync(join(DATA_DIR, "domains", "airline", f), join(dataDir, "domains", "airline", f));
  const tasksFile = join(dataDir, "domains", "airline", "tasks.json");
  const tasks = JSON.parse(readFileSync(join(DATA_DIR, "domains", "airline", "tasks.json"), "utf8"));
  tasks[0].evaluation_criteria.failure_conditions = [{ description: "the agent books twice" }];
  tasks[1].evaluation_criteria.failure_conditions = [{ description: "the agent cancels" }];
  tasks[2].annotations = { reviewer: "someone" };
  writeFileSync(tasksFile, JSON.stringify(tasks));
  return {
    dataDir,
    failure: `${tasksFile}: warning: task field failure_conditions is not understood and is ignored: [0].evaluation_criteria.failure_conditions (2 times, as [].evaluation_criteria.failure_conditions)`,
    annotations: `${tasksFile}: warning: task field annotations is not understood and is ignored: [2].annotations`,
  };
}

/**
 * Results files that embed no tasks: each is graded against the data dir's task set. Four, so that two
 * grading threads get two each.
 */
const NO_TASKS_FILES = ["a.json", "b.json", "c.json", "d.json"];
const noTasks = join(dir, "no-tasks");
mkdirSync(noTasks);
for (const name of NO_TASKS_FILES)
  writeFileSync(join(noTasks, name), JSON.stringify({ ...doc, timestamp: name, tasks: [] }));

const linesWith = (text: string, word: string) => text.split("\n").filter((l) => l.includes(word));

describe("task fields the tool does not understand in a data dir's task set", () => {
  it("grade warns once per field, naming the task file, for the files graded against it", async () => {
    const fork = forkDataDir("grade-data");
    const r = await cliInProcess([
      "grade",
      noTasks,
      "--grader",
      "tau3",
      "--format",
      "jsonl",
      "--data-dir",
      fork.dataDir,
    ]);
    expect(r.status, r.stderr).toBe(0);
    expect(linesWith(r.stderr, "failure_conditions")).toEqual([`tau-rescore: ${fork.failure}`]);
    expect(linesWith(r.stderr, "annotations")).toEqual([`tau-rescore: ${fork.annotations}`]);
    expect(r.stdout.trim().split("\n")).toHaveLength(NO_TASKS_FILES.length * doc.simulations.length);
  });

  // Two threads load the task set each: the summary still says each field once.
  it.each([1, 2])("run prints them in its summary once (%i grading threads)", async (workers) => {
    const fork = forkDataDir(`run-data-${workers}`);
    const experiment = writeExperiment(
      join(dir, `fork-data-${workers}.json`),
      { corpus: ["no-tasks"] },
      { corpus: ".", data: fork.dataDir },
    );
    const r = await cliInProcess(["run", experiment, "--db", join(dir, `fork-data-${workers}.duckdb`)], {
      env: { TAU_RESCORE_WORKERS: String(workers) },
    });
    expect(r.status, r.stderr).toBe(0);
    expect(linesWith(r.stderr, "failure_conditions")).toEqual([`  ${fork.failure}`]);
    expect(linesWith(r.stderr, "annotations")).toEqual([`  ${fork.annotations}`]);
  });
});
