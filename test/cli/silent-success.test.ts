/**
 * No silent success: `grade` on nothing to grade says so and exits 1, an explicitly
 * named file is never ignored for its extension, and `run` names the files it could not read.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliInProcess } from "../helpers/cli-in-process.ts";
import { CORPUS_DIR, DATA_DIR } from "../helpers/data.ts";
import { smallExperiment } from "../helpers/small-run.ts";

/** `tau-rescore ...args` in-process, with `env` as its whole environment. */
const cli = (args: readonly string[], env: Record<string, string> = {}) => cliInProcess(args, { env });

const GOOD = "sierra-tau2-bench__pr170-tau2-trace/e2e_airline_baseline.json";
const grade = (...paths: string[]) => cli(["grade", ...paths, "--grader", "tau3", "--data-dir", DATA_DIR]);
const tmp = () => mkdtempSync(join(tmpdir(), "tr-silent-"));

describe("grade with nothing to grade", () => {
  it("says No trajectory files found for a non-trajectory file, and exits 1", async () => {
    const file = join(tmp(), "notraj.json");
    writeFileSync(file, JSON.stringify({ submission_date: "2025-01-01" }));
    const r = await grade(file);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/No trajectory files found/);
    expect(r.stderr).toMatch(/notraj\.json: .*leaderboard submission metadata/);
  });

  it("says No trajectory files found for an empty folder, and exits 1", async () => {
    const dir = join(tmp(), "emptydir");
    mkdirSync(dir);
    const r = await grade(dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/No trajectory files found/);
  });
});

describe("an explicitly named file", () => {
  it("is graded whatever its extension's case", async () => {
    const file = join(tmp(), "RESULTS.JSON");
    cpSync(join(CORPUS_DIR, GOOD), file);
    const r = await grade(file);
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.split("\n").filter((l) => l !== "");
    expect(lines.map((l) => JSON.parse(l).simulation_id)).toEqual(["0e32d252-7a06-4893-b390-b048a0ec32ff"]);
  });

  it("is reported when it is JSON Lines", async () => {
    const file = join(tmp(), "judge.jsonl");
    writeFileSync(file, '{"a": 1}\n{"a": 2}\n');
    const r = await grade(file);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/judge\.jsonl: .*JSON Lines/);
  });
});

describe("run", () => {
  it("names the files it could not read, with the reason", async () => {
    const { experiment, dir } = smallExperiment([GOOD]);
    const good = readFileSync(join(CORPUS_DIR, GOOD));
    writeFileSync(join(dir, "corpus", "half.json"), good.subarray(0, good.length / 2));
    const r = await cli(["run", experiment, "--db", join(dir, "x.duckdb")]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/half\.json: invalid JSON: unexpected end of input/);
  });
});
