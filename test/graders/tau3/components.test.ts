/** The τ³ components on hand-made cases whose answers follow from tau2's rules. */
import { describe, expect, it } from "vitest";
import { loadDomainData } from "../../../src/domains/load-data.ts";
import { mockDomain } from "../../../src/domains/mock/index.ts";
import { TAU2_QUIRKS } from "../../../src/domains/quirks.ts";
import type { Simulation } from "../../../src/formats/model.ts";
import { GradingContext } from "../../../src/graders/context.ts";
import { actionMatchesCall } from "../../../src/graders/tau3/action.ts";
import { evaluateCommunicate } from "../../../src/graders/tau3/communicate.ts";
import { gradeTau3 } from "../../../src/graders/tau3/evaluate.ts";
import { PyFloat } from "../../../src/py/value.ts";
import { DATA_DIR } from "../../helpers/data.ts";
import { call, calls, result, say } from "../../helpers/messages.ts";
import { action, task } from "../../helpers/tasks.ts";

describe("ACTION: compare_with_tool_call", () => {
  const gold = action("f", { a: 1, b: [1, 2] });
  it.each([
    [{}, true],
    [{ a: 1 }, true],
    [{ a: new PyFloat(1) }, true],
    [{ a: true }, true],
    [{ a: "1" }, false],
    [{ a: 1, b: [2, 1] }, false],
    [{ a: 1, c: 3 }, false],
  ])("gold {a: 1, b: [1, 2]} vs call %j → %s", (args, match) => {
    expect(actionMatchesCall(gold, call("x", "f", args))).toBe(match);
  });
  it("explicit compare_args: a key on one side only fails; [] matches any call of that name", () => {
    expect(
      actionMatchesCall(action("f", { a: 1 }, { compare_args: ["a", "b"] }), call("x", "f", { a: 1, b: 2 })),
    ).toBe(false);
    expect(actionMatchesCall(action("f", { a: 1 }, { compare_args: [] }), call("x", "f", { z: 9 }))).toBe(
      true,
    );
    expect(actionMatchesCall(action("f", { a: 1 }), call("x", "g", { a: 1 }))).toBe(false);
  });
});

describe("COMMUNICATE", () => {
  const t = task({ communicate_info: ["1093.34"] });
  it("removes commas from the message only, case-insensitively, assistant text only", () => {
    expect(evaluateCommunicate(t, [say("assistant", "Total: $1,093.34")]).reward).toBe(1);
    expect(
      evaluateCommunicate(task({ communicate_info: ["1,093.34"] }), [say("assistant", "Total: $1,093.34")])
        .reward,
    ).toBe(0);
    expect(evaluateCommunicate(t, [say("user", "1093.34")]).reward).toBe(0);
    expect(
      evaluateCommunicate(task({ communicate_info: ["ABC"] }), [say("assistant", "abc")]).checks?.[0]
        ?.messageIndex,
    ).toBe(0);
  });
  it("nothing to check gives 1 with null checks", () => {
    expect(evaluateCommunicate(task({}), [])).toEqual({ reward: 1, checks: null });
  });
});

describe("evaluate_simulation", () => {
  const ctx = new GradingContext(loadDomainData(DATA_DIR, mockDomain), TAU2_QUIRKS);
  const sim = (
    termination: Simulation["termination_reason"],
    messages: Simulation["messages"] = [],
  ): Simulation => ({
    id: "s",
    task_id: "t1",
    trial: 0,
    termination_reason: termination,
    messages,
    reward_info: null,
  });
  const create = action("create_task", { user_id: "user_1", title: "T" });
  const did = [
    calls("assistant", call("1", "create_task", { user_id: "user_1", title: "T" })),
    result("1", "{}"),
    say("assistant", "done"),
  ];

  it("gives 0 for premature termination without replaying anything", () => {
    const v = gradeTau3(ctx, task({ actions: [create] }), sim("max_steps", [result("dangling", "x")]), {
      solo: false,
      nl: null,
    });
    expect(v).toMatchObject({
      reward: 0,
      basis: null,
      db_match: null,
      notes: ["Simulation terminated prematurely. Termination reason: max_steps"],
    });
  });
  it("gives 1 when the task has no criteria", () => {
    expect(gradeTau3(ctx, task(null), sim("user_stop"), { solo: false, nl: null }).reward).toBe(1);
  });
  it("multiplies only the basis, but computes every component", () => {
    const t = task({ actions: [create], reward_basis: ["COMMUNICATE"], communicate_info: ["done"] });
    const v = gradeTau3(ctx, t, sim("user_stop", [say("assistant", "done")]), { solo: false, nl: null });
    expect(v.reward).toBe(1);
    expect(v.components).toMatchObject({ DB: 0, ACTION: 0, COMMUNICATE: 1 });
    expect(v.db_match).toBe(false);
    expect(v.breakdown).toEqual({ COMMUNICATE: 1 });
    expect(gradeTau3(ctx, t, sim("user_stop", [...did]), { solo: false, nl: null }).components.DB).toBe(1);
  });
  it("a vacuous env result adds no DB entry to the breakdown (tau2 quirk)", () => {
    const v = gradeTau3(ctx, task({ communicate_info: ["x"] }), sim("agent_stop", [say("assistant", "x")]), {
      solo: false,
      nl: null,
    });
    expect(v.breakdown).toEqual({ COMMUNICATE: 1 });
    expect(v.db_match).toBe(true);
  });
  it("marks as vacuous exactly the components that had nothing to check", () => {
    // No gold actions and no env assertions: tau2 skips the replay, DB scores 1 with nothing compared.
    const empty = gradeTau3(ctx, task({}), sim("user_stop"), { solo: false, nl: null });
    expect(empty.reward).toBe(1);
    expect(empty.vacuous).toEqual({
      DB: true,
      ENV_ASSERTION: true,
      COMMUNICATE: true,
      ACTION: true,
      NL_ASSERTION: true,
    });
    // An empty action list is a real check: the DB must stay as it was.
    const noWrites = gradeTau3(ctx, task({ actions: [], communicate_info: ["x"] }), sim("user_stop"), {
      solo: false,
      nl: null,
    });
    expect(noWrites.vacuous).toMatchObject({ DB: false, COMMUNICATE: false, ACTION: true });
    expect(noWrites.components).toMatchObject({ DB: 1, COMMUNICATE: 0, ACTION: 1 });
    const full = gradeTau3(ctx, task({ actions: [create], nl_assertions: ["x"] }), sim("user_stop", did), {
      solo: false,
      nl: { status: "judged", source: "test", results: [{ assertion: "x", met: true, justification: null }] },
    });
    expect(full.vacuous).toMatchObject({ DB: false, ACTION: false, NL_ASSERTION: false, COMMUNICATE: true });
    // Nothing is scored after a premature end, so nothing is vacuous either.
    expect(
      Object.values(gradeTau3(ctx, task({}), sim("max_steps"), { solo: false, nl: null }).vacuous),
    ).toEqual([false, false, false, false, false]);
  });
  it("an unjudged NL assertion in the basis makes the reward unknown, never 1.0", () => {
    const t = task({
      actions: [create],
      nl_assertions: ["Agent is polite"],
      reward_basis: ["DB", "NL_ASSERTION"],
    });
    const unknown = gradeTau3(ctx, t, sim("user_stop", did), {
      solo: false,
      nl: { status: "unknown", reason: "no judge" },
    });
    expect(unknown.reward).toBeNull();
    expect(unknown.components.NL_ASSERTION).toBeNull();
    const judged = gradeTau3(ctx, t, sim("user_stop", did), {
      solo: false,
      nl: {
        status: "judged",
        source: "test",
        results: [{ assertion: "Agent is polite", met: true, justification: null }],
      },
    });
    expect(judged.reward).toBe(1);
    expect(judged.breakdown).toEqual({ DB: 1, NL_ASSERTION: 1 });
  });
  it("an unknown NL component does not hide a known 0: the reward is 0, as tau2 would give", () => {
    const t = task({
      actions: [create],
      nl_assertions: ["Agent is polite"],
      reward_basis: ["DB", "NL_ASSERTION"],
    });
    // Nothing was created: DB is 0 whatever the judge would say.
    const v = gradeTau3(ctx, t, sim("user_stop", [say("assistant", "bye")]), {
      solo: false,
      nl: { status: "unknown", reason: "NL judge failed: HTTP 500", failed: true },
    });
    expect(v.components).toMatchObject({ DB: 0, NL_ASSERTION: null });
    expect(v.reward).toBe(0);
    // NL before COMMUNICATE in tau2's order: a later known 0 decides it too.
    const later = gradeTau3(
      ctx,
      task({ nl_assertions: ["x"], communicate_info: ["42"], reward_basis: ["NL_ASSERTION", "COMMUNICATE"] }),
      sim("user_stop", [say("assistant", "no number")]),
      { solo: false, nl: { status: "unknown", reason: "no judge" } },
    );
    expect(later.reward).toBe(0);
  });
  it("an env assertion that raises aborts grading, as in tau2", () => {
    const t = task({
      env_assertions: [
        {
          env_type: "assistant",
          func_name: "assert_task_status",
          arguments: { task_id: "nope", expected_status: "pending" },
          assert_value: true,
          message: null,
        },
      ],
      reward_basis: ["ENV_ASSERTION"],
    });
    expect(() => gradeTau3(ctx, t, sim("user_stop"), { solo: false, nl: null })).toThrow(
      "Task nope not found",
    );
  });
});
