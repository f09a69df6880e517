import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FormatError } from "../../src/formats/errors.ts";
import { fileWarnings } from "../../src/formats/file-warnings.ts";
import { loadTrajectoryFile } from "../../src/formats/load.ts";
import { listTaskSets, loadTaskFile, taskFileUnknownFields } from "../../src/formats/tasks.ts";
import { PyFloat } from "../../src/py/value.ts";
import { corpusFile, DATA_DIR } from "./paths.ts";

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

/** Airline task 8 of the shared data as a fork writes it: its gold actions moved into acceptable outcomes. */
function forkTask(outcome: Record<string, unknown> = {}): Record<string, unknown> {
  const tasks = JSON.parse(readFileSync(join(V0, "airline", "tasks.json"), "utf8")) as Record<
    string,
    unknown
  >[];
  const task = tasks.find((t) => t.id === "8") as Record<string, unknown>;
  const criteria = task.evaluation_criteria as Record<string, unknown>;
  return {
    ...task,
    annotations: { relaxed_version: true },
    evaluation_criteria: {
      reward_basis: ["DB", "COMMUNICATE"],
      acceptable_outcomes: [
        {
          outcome_id: "8_outcome_A",
          description: "the gold booking",
          reward: 0.7,
          actions: criteria.actions,
          communicate_info: [],
          nl_assertions: criteria.nl_assertions,
          ...outcome,
        },
      ],
      failure_conditions: [{ condition: "no_booking", description: "no booking" }],
      nothing_here: null,
    },
  };
}

function writeTasks(tasks: unknown[]): string {
  const path = join(mkdtempSync(join(tmpdir(), "tau-rescore-tasks-")), "tasks.json");
  writeFileSync(path, JSON.stringify(tasks));
  return path;
}

const formatError = (path: string): string => {
  try {
    loadTaskFile(path);
  } catch (e) {
    if (e instanceof FormatError) return e.message;
    throw e;
  }
  throw new Error("no FormatError");
};

describe("acceptable outcomes (a fork's evaluation rule)", () => {
  it("are read as criteria of their own, with an id, a description and a reward", () => {
    const [task] = loadTaskFile(writeTasks([forkTask()]));
    const criteria = task?.evaluation_criteria;
    expect(criteria?.actions).toBeNull();
    const outcome = criteria?.acceptable_outcomes?.[0];
    expect(outcome).toMatchObject({
      outcome_id: "8_outcome_A",
      description: "the gold booking",
      reward: 0.7,
      env_assertions: null,
      // An outcome without its own basis takes tau2's default, as criteria do.
      reward_basis: ["DB", "COMMUNICATE"],
    });
    expect(outcome).not.toHaveProperty("acceptable_outcomes");
    expect(outcome?.actions?.map((a) => a.name)).toEqual([
      "get_user_details",
      "get_reservation_details",
      "search_direct_flight",
      "book_reservation",
    ]);
  });

  it("tasks without them parse as before: no key is added", () => {
    const [task] = loadTaskFile(join(V0, "airline", "tasks.json"));
    expect(Object.keys(task?.evaluation_criteria ?? {})).not.toContain("acceptable_outcomes");
  });

  it.each([
    [{ reward: 1.5 }, "[0].evaluation_criteria.acceptable_outcomes[0].reward", "Too big"],
    [{ reward: -0.1 }, "[0].evaluation_criteria.acceptable_outcomes[0].reward", "Too small"],
    [
      { outcome_id: undefined },
      "[0].evaluation_criteria.acceptable_outcomes[0].outcome_id",
      "expected string",
    ],
    [
      { actions: [{ name: "book_reservation", arguments: {} }] },
      "[0].evaluation_criteria.acceptable_outcomes[0].actions[0].action_id",
      "expected string",
    ],
  ])("an invalid outcome %j is a FormatError naming its path", (outcome, at, why) => {
    const path = writeTasks([forkTask(outcome)]);
    const message = formatError(path);
    expect(message.startsWith(`${path}: at ${at}: invalid task: `)).toBe(true);
    expect(message).toContain(why);
  });
});

describe("task fields the tool does not understand", () => {
  it("a data dir's task file names each, with its JSON path; tau2's own keys and null values are not named", () => {
    const path = writeTasks([forkTask()]);
    expect(taskFileUnknownFields(path)).toEqual([
      {
        file: path,
        fields: [
          { path: "[0].evaluation_criteria.failure_conditions", key: "failure_conditions" },
          { path: "[0].annotations", key: "annotations" },
        ],
      },
    ]);
    expect(taskFileUnknownFields(join(V0, "airline", "tasks.json"))).toEqual([]);
  });

  it("a results file's embedded tasks give one warning per field, naming the file", () => {
    const results = JSON.parse(
      readFileSync(corpusFile("jitrc-tau2-enhanced/airline_gemini2_5_flash_10tasks_2t.json"), "utf8"),
    ) as Record<string, unknown>;
    const path = join(mkdtempSync(join(tmpdir(), "tau-rescore-tasks-")), "results.json");
    writeFileSync(path, JSON.stringify({ ...results, tasks: [forkTask(), forkTask({ extra_key: 1 })] }));
    const file = loadTrajectoryFile(path);
    expect(file.unknownTaskFields?.map((f) => f.path)).toEqual([
      "tasks[0].evaluation_criteria.failure_conditions",
      "tasks[0].annotations",
      "tasks[1].evaluation_criteria.acceptable_outcomes[0].extra_key",
      "tasks[1].evaluation_criteria.failure_conditions",
      "tasks[1].annotations",
    ]);
    expect(fileWarnings(file, "results.json")).toEqual([
      "results.json: warning: task field failure_conditions is not understood and is ignored: tasks[0].evaluation_criteria.failure_conditions (2 times, as tasks[].evaluation_criteria.failure_conditions)",
      "results.json: warning: task field annotations is not understood and is ignored: tasks[0].annotations (2 times, as tasks[].annotations)",
      "results.json: warning: task field extra_key is not understood and is ignored: tasks[1].evaluation_criteria.acceptable_outcomes[0].extra_key",
    ]);
    // A file whose tasks hold nothing unknown carries no list at all.
    expect(
      loadTrajectoryFile(corpusFile("jitrc-tau2-enhanced/airline_gemini2_5_flash_10tasks_2t.json")),
    ).not.toHaveProperty("unknownTaskFields");
  });
});
