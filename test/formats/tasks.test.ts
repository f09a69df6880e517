import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FormatError } from "../../src/formats/errors.ts";
import { listTaskSets, loadTaskFile } from "../../src/formats/tasks.ts";
import { PyFloat } from "../../src/py/value.ts";
import { DATA_DIR } from "./paths.ts";

const V0 = join(DATA_DIR, "versions", "v0.2.0_f8de30c", "domains");
const HEAD = join(DATA_DIR, "domains");

const bases = (path: string): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const t of loadTaskFile(path)) {
    const key = (t.evaluation_criteria?.reward_basis ?? []).join("+");
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
};

describe("task files", () => {
  it("v0.x files omit reward_basis; the tau2 default [DB, COMMUNICATE] applies", () => {
    expect(bases(join(V0, "airline", "tasks.json"))).toEqual({ "DB+COMMUNICATE": 50 });
    expect(bases(join(V0, "retail", "tasks.json"))).toEqual({ "DB+COMMUNICATE": 114 });
  });

  it("HEAD retail has [DB, NL_ASSERTION] x112 and [DB] x2; telecom spells out ENV_ASSERTION", () => {
    expect(bases(join(HEAD, "retail", "tasks.json"))).toEqual({ "DB+NL_ASSERTION": 112, DB: 2 });
    expect(bases(join(HEAD, "telecom", "tasks_small.json"))).toEqual({
      ENV_ASSERTION: 18,
      "ENV_ASSERTION+ACTION": 2,
    });
  });

  it("reads structured and plain instructions, initial state and Python float arguments", () => {
    const airline = loadTaskFile(join(HEAD, "airline", "tasks.json"));
    const instructions = airline[0]!.user_scenario.instructions;
    expect(typeof instructions === "object" && instructions.domain).toBe("airline");
    const mock = loadTaskFile(join(HEAD, "mock", "tasks.json"));
    expect(mock.every((t) => typeof t.user_scenario.instructions === "string")).toBe(true);
    expect(mock.filter((t) => t.initial_state?.message_history?.length)).toHaveLength(2);
    expect(mock.filter((t) => t.initial_state?.initialization_data)).toHaveLength(1);
    const telecom = loadTaskFile(join(V0, "telecom", "tasks.json"));
    expect(telecom).toHaveLength(114);
    expect(telecom.every((t) => (t.initial_state?.initialization_actions?.length ?? 0) > 0)).toBe(true);
    const refuel = telecom
      .flatMap((t) => t.evaluation_criteria?.actions ?? [])
      .find((a) => a.name === "refuel_data");
    expect(refuel?.arguments.gb_amount).toBeInstanceOf(PyFloat);
  });

  it("lists the task sets of a data dir in preference order", () => {
    expect(listTaskSets(DATA_DIR, "airline").map((s) => s.name)).toEqual(["head", "v0.2.0_f8de30c"]);
    // HEAD's telecom tasks.json is the full 2,285-task set (shared/tau2-data since 2026-12).
    expect(listTaskSets(DATA_DIR, "telecom").map((s) => s.name)).toEqual([
      "head",
      "head/tasks_small",
      "v0.2.0_f8de30c",
    ]);
    expect(listTaskSets(DATA_DIR, "banking_knowledge").map((s) => s.name)).toEqual(["head"]);
    expect(listTaskSets(DATA_DIR, "nonexistent")).toEqual([]);
  });

  it("an invalid task is a FormatError naming file and path", () => {
    const path = join(mkdtempSync(join(tmpdir(), "tau-rescore-tasks-")), "tasks.json");
    writeFileSync(
      path,
      JSON.stringify([
        { id: "0", user_scenario: { instructions: "x" } },
        { id: "1", user_scenario: { instructions: { domain: "d" } } },
      ]),
    );
    let err: unknown;
    try {
      loadTaskFile(path);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(FormatError);
    expect((err as FormatError).message).toBe(
      `${path}: at [1].user_scenario.instructions.reason_for_call: invalid task: Invalid input: expected string, received undefined`,
    );
  });
});
