/**
 * A task field the tool does not understand (a fork's `failure_conditions`, an `annotations` block) is a
 * warning naming the field and the file, at grade and at run time: never dropped silently.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliInProcess } from "../helpers/cli-in-process.ts";
import { CORPUS_DIR, DATA_DIR } from "../helpers/data.ts";
import { writeExperiment } from "../helpers/small-run.ts";

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
    const r = await cliInProcess([
      "grade",
      file,
      "--grader",
      "tau3",
      "--format",
      "jsonl",
      "--data-dir",
      DATA_DIR,
    ]);
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
