/** Loader behaviour on hand-written and malformed inputs, written to a temp dir. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FormatError } from "../../src/formats/errors.ts";
import { loadJsonFile, loadTrajectoryFile } from "../../src/formats/load.ts";
import { PyFloat } from "../../src/py/value.ts";

const dir = mkdtempSync(join(tmpdir(), "tau-rescore-formats-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let counter = 0;
function write(text: string, name = `f${counter++}.json`): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}
const writeJson = (data: unknown): string => write(JSON.stringify(data, null, 2));

const messages = () => [
  { role: "assistant", content: "Hi! How can I help you today?", tool_calls: null, turn_idx: 0 },
  { role: "user", content: "cancel it", turn_idx: 1 },
  {
    role: "assistant",
    content: null,
    tool_calls: [
      { id: "c1", name: "get_user_details", arguments: { user_id: "u1" }, requestor: "assistant" },
    ],
    turn_idx: 2,
  },
  { role: "tool", id: "c1", content: "{}", turn_idx: 3 },
];
const sim = (over: Record<string, unknown> = {}) => ({
  id: "s0",
  task_id: "0",
  trial: 0,
  termination_reason: "user_stop",
  reward_info: { reward: 1.0, db_check: { db_match: true, db_reward: 1.0 } },
  messages: messages(),
  ...over,
});
const results = (simulations: unknown[], tasks: unknown[] = []) => ({
  timestamp: "2025-08-01T00:00:00",
  info: {
    num_trials: 1,
    agent_info: { implementation: "llm_agent", llm: "agent-model" },
    user_info: { implementation: "user_simulator", llm: "user-model" },
    environment_info: { domain_name: "airline" },
  },
  tasks,
  simulations,
});

function formatErrorOf(fn: () => unknown): FormatError {
  try {
    fn();
  } catch (err) {
    if (err instanceof FormatError) return err;
    throw err;
  }
  throw new Error("expected a FormatError");
}

describe("whole-file problems throw FormatError", () => {
  it("truncated JSON names the file and the position", () => {
    const full = JSON.stringify(results([sim()]), null, 2);
    const cut = full.slice(0, full.indexOf('"simulations"')); // ends after `"tasks": [],\n  `
    const path = write(cut);
    const err = formatErrorOf(() => loadJsonFile(path));
    expect(err.file).toBe(path);
    expect(err.path).toBe("$");
    expect(err.reason).toBe(
      `invalid JSON: unexpected end of input (truncated file?) at position ${cut.length} (line 18, column 3)`,
    );
    expect(err.message).toBe(`${path}: ${err.reason}`);
    expect(err.stack).toBeDefined();
  });

  it("a syntax error in the middle gives its line and column", () => {
    const path = write('{\n  "simulations": [\n    {"id": "x",, }\n  ]\n}');
    expect(formatErrorOf(() => loadJsonFile(path)).reason).toBe(
      "invalid JSON: expected a string key at position 36 (line 3, column 16)",
    );
  });

  it("a missing file", () => {
    const err = formatErrorOf(() => loadJsonFile(join(dir, "nope.json")));
    expect(err.reason).toBe("cannot read file: no such file");
  });

  it("an invalid embedded task names the task path", () => {
    const path = writeJson(
      results(
        [sim()],
        [
          {
            id: "0",
            user_scenario: { instructions: "x" },
            evaluation_criteria: { reward_basis: ["DB", "VIBES"] },
          },
        ],
      ),
    );
    const err = formatErrorOf(() => loadTrajectoryFile(path));
    expect(err.path).toBe("tasks[0].evaluation_criteria.reward_basis[1]");
    expect(err.reason).toMatch(/^invalid task: Invalid option: expected one of "DB"\|"ENV_ASSERTION"/);
  });

  it("a wrong type in run info", () => {
    const doc = results([sim()]);
    (doc.info.agent_info as Record<string, unknown>).llm = 42;
    const err = formatErrorOf(() => loadTrajectoryFile(writeJson(doc)));
    expect([err.path, err.reason]).toEqual([
      "info.agent_info.llm",
      "invalid run info: Invalid input: expected string, received number",
    ]);
  });

  it("directory-layout results (simulation_index without simulations) are refused clearly", () => {
    const doc: Record<string, unknown> = results([]);
    delete doc.simulations;
    doc.simulation_index = [{ id: "s0", task_id: "0" }];
    const err = formatErrorOf(() => loadTrajectoryFile(writeJson(doc)));
    expect([err.path, err.reason]).toEqual([
      "simulations",
      "directory-layout results (simulation_index only) are not supported",
    ]);
  });
});

describe("one bad simulation is rejected, the rest load", () => {
  it("termination_reason: 5", () => {
    const file = loadTrajectoryFile(writeJson(results([sim({ termination_reason: 5 }), sim({ id: "s1" })])));
    expect(file.simulations.map((s) => s.id)).toEqual(["s1"]);
    expect(file.rejected).toEqual([
      {
        index: 0,
        id: "s0",
        path: "simulations[0].termination_reason",
        reason:
          'Invalid option: expected one of "user_stop"|"agent_stop"|"max_steps"|"too_many_errors"|"agent_error"|"user_error"|"timeout"|"infrastructure_error"|"context_window_exceeded"|"unexpected_error"',
      },
    ]);
  });

  it("a simulation with no messages", () => {
    const broken: Record<string, unknown> = sim({ id: "s1" });
    delete broken.messages;
    const file = loadTrajectoryFile(writeJson(results([sim(), broken])));
    expect(file.simulations).toHaveLength(1);
    expect(file.rejected).toEqual([
      {
        index: 1,
        id: "s1",
        path: "simulations[1].messages",
        reason: "Invalid input: expected array, received undefined",
      },
    ]);
  });

  it("a full-duplex simulation (ticks, no messages) says so", () => {
    const file = loadTrajectoryFile(writeJson(results([sim({ messages: null, ticks: [{ tick: 0 }] })])));
    expect(file.variant).toBe("tau2-runner");
    expect(file.rejected[0]).toEqual({
      index: 0,
      id: "s0",
      path: "simulations[0].messages",
      reason: "full-duplex simulation (ticks, no messages) is not supported",
    });
  });

  it("deep paths: a tool call without a name, a tool message without id, an unknown role", () => {
    const noName = messages();
    (noName[2] as { tool_calls: Record<string, unknown>[] }).tool_calls[0]!.name = undefined;
    const noId = messages();
    delete (noId[3] as Record<string, unknown>).id;
    const badRole = messages();
    (badRole[0] as Record<string, unknown>).role = "narrator";
    const file = loadTrajectoryFile(
      writeJson(
        results([
          sim({ messages: noName }),
          sim({ id: "b", messages: noId }),
          sim({ id: "c", messages: badRole }),
        ]),
      ),
    );
    expect(file.rejected.map((r) => [r.path, r.reason])).toEqual([
      ["simulations[0].messages[2].tool_calls[0].name", "Invalid input: expected string, received undefined"],
      ["simulations[1].messages[3].id", "Invalid input: expected string, received undefined"],
      [
        "simulations[2].messages[0].role",
        "Invalid discriminator value. Expected 'system' | 'assistant' | 'user' | 'tool'",
      ],
    ]);
  });
});

describe("structure is kept as recorded", () => {
  it("a tool message whose call is missing still loads (pairing is the replay's job)", () => {
    const orphan = [...messages(), { role: "tool", id: "never-called", content: "Error: x", error: true }];
    const file = loadTrajectoryFile(writeJson(results([sim({ messages: orphan })])));
    expect(file.rejected).toEqual([]);
    expect(file.simulations[0]!.messages.at(-1)).toEqual({
      role: "tool",
      id: "never-called",
      content: "Error: x",
      requestor: "assistant",
      error: true,
      turn_idx: null,
    });
  });

  it("tool_calls null vs [] vs missing; tool message defaults; unknown keys dropped", () => {
    const msgs = [
      { role: "assistant", content: "a", tool_calls: [], reasoning: "r", cost: 0.1 },
      { role: "user", content: "b" },
      { role: "tool", id: "c1", content: "{}" },
    ];
    const file = loadTrajectoryFile(writeJson(results([sim({ messages: msgs, trial: null })])));
    expect(file.simulations[0]).toMatchObject({ trial: null });
    expect(file.simulations[0]!.messages).toEqual([
      { role: "assistant", content: "a", tool_calls: [], turn_idx: null },
      { role: "user", content: "b", tool_calls: null, turn_idx: null },
      { role: "tool", id: "c1", content: "{}", requestor: "assistant", error: false, turn_idx: null },
    ]);
  });

  it("a missing reward_info is null, like tau2's default", () => {
    const bare: Record<string, unknown> = sim();
    delete bare.reward_info;
    const file = loadTrajectoryFile(writeJson(results([bare])));
    expect(file.rejected).toEqual([]);
    expect(file.simulations[0]!.reward_info).toBeNull();
  });

  it("recorded reward_info is read loosely and kept raw", () => {
    const ri = {
      reward: 0.0,
      db_check: { db_match: false },
      nl_assertions: [{ nl_assertion: "n", met: true, justification: "j" }],
      x: 1,
    };
    const file = loadTrajectoryFile(
      writeJson(results([sim({ reward_info: ri }), sim({ id: "b", reward_info: "odd" })])),
    );
    expect(file.simulations.map((s) => s.reward_info)).toEqual([
      {
        reward: 0,
        db_match: false,
        nl_assertions: [{ nl_assertion: "n", met: true, justification: "j" }],
        raw: ri,
      },
      { reward: null, db_match: null, nl_assertions: null, raw: "odd" },
    ]);
  });

  it("typed arguments from the file text: 100.0 is a float, 100 an int", () => {
    const text = JSON.stringify(results([sim()]), null, 2).replace(
      '"arguments": {\n                "user_id": "u1"\n              }',
      '"arguments": {"amount": 100.0, "count": 100}',
    );
    expect(text).toContain('"amount": 100.0');
    const file = loadTrajectoryFile(write(text));
    const msg = file.simulations[0]!.messages[2]!;
    expect(msg.role === "assistant" && msg.tool_calls?.[0]?.arguments).toEqual({
      amount: new PyFloat(100),
      count: 100,
    });
    const args = msg.role === "assistant" ? (msg.tool_calls?.[0]?.arguments as Record<string, unknown>) : {};
    expect(args.amount).toBeInstanceOf(PyFloat);
    expect(args.count).toBe(100);
  });

  it("__proto__ keys never reach a prototype", () => {
    const text = `{"__proto__": {"polluted": 1}, "timestamp": null,
      "info": {"__proto__": {"polluted": 2}, "environment_info": {"domain_name": "airline"}},
      "tasks": [],
      "simulations": [{"__proto__": {"polluted": 3}, "id": "s0", "task_id": "0", "termination_reason": "user_stop",
        "messages": [{"role": "assistant", "content": null, "tool_calls": [
          {"id": "c", "name": "n", "arguments": {"__proto__": {"polluted": 4.0}, "a": 1.5}}]}]}]}`;
    const file = loadTrajectoryFile(write(text));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const msg = file.simulations[0]!.messages[0]!;
    const args = (msg.role === "assistant" ? msg.tool_calls?.[0]?.arguments : null) as Record<
      string,
      unknown
    >;
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
    expect(Object.hasOwn(args, "__proto__")).toBe(true);
    expect(Object.getOwnPropertyDescriptor(args, "__proto__")?.value).toEqual({ polluted: new PyFloat(4) });
    expect(args.a).toEqual(new PyFloat(1.5));
    expect(Object.hasOwn(file.simulations[0]!, "__proto__")).toBe(false);
  });
});

describe("variant detection", () => {
  it("bare list and domain wrapper, with domain inference", () => {
    const bare = loadTrajectoryFile(writeJson([sim({ policy: "# Retail agent policy\n..." })]));
    expect([bare.variant, bare.info.domain, bare.tasks]).toEqual(["bare-simulations", "retail", null]);
    const wrapped = loadTrajectoryFile(
      writeJson({ domain: "telecom", agent: "my_agent", model: "m1", simulations: [sim()] }),
    );
    expect([
      wrapped.variant,
      wrapped.info.domain,
      wrapped.info.agent_implementation,
      wrapped.info.agent_model,
    ]).toEqual(["domain-simulations", "telecom", "my_agent", "m1"]);
  });

  it("files without trajectories are classified, and loadTrajectoryFile refuses them", () => {
    const cases: [string, string][] = [
      [write('{"a": 1}\n{"a": 2}\n'), "JSON Lines (2 records), not a results file"],
      [writeJson([]), "JSON list without objects"],
      [writeJson({ model_name: "x", submission_date: "2025-01-01" }), "leaderboard submission metadata"],
      [
        writeJson({ _about: "x", task: {}, simulation_run: {} }),
        "a single annotated example (task + reconstructed simulation_run), not a results file",
      ],
      [writeJson({ files: [] }), "JSON object without simulations (keys: files)"],
      [writeJson(3), "JSON number"],
    ];
    for (const [path, reason] of cases) {
      expect(loadJsonFile(path)).toEqual({ path, variant: "not-trajectories", reason });
      expect(formatErrorOf(() => loadTrajectoryFile(path)).reason).toBe(`not a trajectory file: ${reason}`);
    }
  });

  it("a file without trajectories keeps JSON.parse's numbers: its typed keys are never restored", () => {
    // An escaped key name cannot be lined up with the text; for a file that is graded that is an error.
    const text = `{"files": [{"argum\\u0065nts": {"a": 1.0}}, {"arguments": {"b": 2.5}}]}`;
    expect(loadJsonFile(write(text))).toMatchObject({
      variant: "not-trajectories",
      reason: "JSON object without simulations (keys: files)",
    });
    const graded = JSON.stringify(results([sim()])).replace('"arguments":', '"argum\\u0065nts":');
    expect(formatErrorOf(() => loadTrajectoryFile(write(graded))).reason).toMatch(
      /cannot restore Python number types/,
    );
  });

  it("τ-bench v1: gold kwargs keep Python's float type", () => {
    const text = JSON.stringify([
      {
        task_id: 1,
        reward: 1.0,
        trial: 0,
        info: {
          task: { user_id: "u", instruction: "pay", actions: [{ name: "pay", kwargs: { amount: 5 } }] },
        },
        traj: [
          { role: "system", content: "# Airline Agent Policy" },
          { role: "user", content: "bye ###STOP###" },
        ],
      },
    ]).replace('"amount":5', '"amount":5.0');
    expect(text).toContain('"amount":5.0');
    const file = loadTrajectoryFile(write(text));
    expect(file.variant).toBe("tau-bench-v1");
    const action = file.tasks?.[0]?.evaluation_criteria?.actions?.[0];
    expect(action?.arguments).toEqual({ amount: new PyFloat(5) });
  });

  it("τ-bench v1: a broken arguments string rejects only that record", () => {
    const record = (args: string) => ({
      task_id: 3,
      reward: 1.0,
      trial: 0,
      info: {
        task: {
          user_id: "u",
          instruction: "do it",
          actions: [{ name: "a", kwargs: { amount: 5 } }],
          outputs: ["42"],
        },
      },
      traj: [
        { role: "system", content: "# Airline Agent Policy" },
        { role: "user", content: "hi" },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "t", type: "function", function: { name: "get", arguments: args } }],
        },
        { role: "tool", tool_call_id: "t", name: "get", content: "ok" },
        { role: "user", content: "bye ###STOP###" },
      ],
    });
    const file = loadTrajectoryFile(writeJson([record('{"amount": 2.0}'), record("{not json")]));
    expect(file.variant).toBe("tau-bench-v1");
    expect(file.rejected).toEqual([
      {
        index: 1,
        id: null,
        path: "[1].traj[2].tool_calls[0].function.arguments",
        reason: "arguments are not valid JSON: expected a string key at position 1",
      },
    ]);
    const [s] = file.simulations;
    expect(s).toMatchObject({ id: "v1-0", task_id: "3", trial: 0, termination_reason: "user_stop" });
    expect(s!.messages.map((m) => m.turn_idx)).toEqual([0, 1, 2, 3]);
    const call = s!.messages[1]!;
    expect(call.role === "assistant" && call.tool_calls?.[0]?.arguments).toEqual({ amount: new PyFloat(2) });
    expect(file.tasks).toEqual([
      {
        id: "3",
        user_scenario: { persona: null, instructions: "do it" },
        ticket: null,
        initial_state: null,
        evaluation_criteria: {
          actions: [
            {
              action_id: "0",
              requestor: "assistant",
              name: "a",
              arguments: { amount: 5 },
              info: null,
              compare_args: null,
            },
          ],
          env_assertions: null,
          communicate_info: ["42"],
          nl_assertions: null,
          reward_basis: ["DB", "COMMUNICATE"],
        },
      },
    ]);
  });
});
