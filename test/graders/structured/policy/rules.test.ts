import { describe, expect, it } from "vitest";
import { makeToolkit } from "../../../../src/domains/toolkit.ts";
import type { Evidence } from "../../../../src/graders/evidence.ts";
import {
  POLICY_RULE_IDS,
  POLICY_RULES,
  runPolicyRules,
} from "../../../../src/graders/structured/policy/index.ts";
import { action, agent, call, domain, input, result, task, user } from "./fixtures.ts";

/** The location of each finding: what tests pin exactly. */
const where = (es: Evidence[]) => es.map((e) => [e.messageIndex, e.toolCallId]);

const { write_without_confirmation, write_before_authentication, multiple_actions_in_turn } = POLICY_RULES;
const { action_after_transfer, off_reference_write } = POLICY_RULES;

describe("registry", () => {
  it("registers every rule under its own id, each with documented limits", () => {
    expect(Object.keys(POLICY_RULES)).toEqual(POLICY_RULE_IDS);
    expect([...POLICY_RULE_IDS].sort()).toEqual([
      "action_after_transfer",
      "informed_amount",
      "informed_consent",
      "informed_payment",
      "informed_record",
      "misreported_amount",
      "multiple_actions_in_turn",
      "off_reference_write",
      "once_only_without_reminder",
      "summary_mismatch",
      "unneeded_transfer",
      "write_before_authentication",
      "write_without_confirmation",
    ]);
    for (const id of POLICY_RULE_IDS) {
      expect(POLICY_RULES[id].id).toBe(id);
      expect(POLICY_RULES[id].limits.length).toBeGreaterThan(0);
    }
  });

  it("runPolicyRules returns an entry per rule, empty when clean", () => {
    const out = runPolicyRules(input([user("hi"), agent("Hello!")]));
    expect(Object.keys(out).sort()).toEqual([...POLICY_RULE_IDS].sort());
    expect(Object.values(out).every((es) => es.length === 0)).toBe(true);
  });
});

describe("write_without_confirmation", () => {
  it("flags a write after a user message with no affirmative, with full evidence", () => {
    const messages = [
      user("I want to cancel order #1.", 0),
      agent(null, [call("c1", "cancel_order", { order_id: "#1" })], 1),
      result("c1", "ok"),
    ];
    expect(write_without_confirmation.check(input(messages))).toEqual([
      {
        code: "write_without_confirmation",
        message:
          "Write cancel_order was called but the latest user message (#0) has no explicit confirmation.",
        messageIndex: 1,
        turnIdx: 1,
        toolCallId: "c1",
        toolName: "cancel_order",
        arguments: { order_id: "#1" },
        excerpt: "I want to cancel order #1.",
      },
    ]);
  });

  it("passes a write right after an explicit yes", () => {
    const messages = [
      user("Yes, please go ahead."),
      agent(null, [call("c1", "cancel_order")]),
      result("c1", "ok"),
    ];
    expect(write_without_confirmation.check(input(messages))).toEqual([]);
  });

  it.each([
    ["a message opening with a refusal", "No, please do not proceed."],
    ["a negation before the affirmative", "That is not correct."],
    ["a negation right after the affirmative", "Absolutely not."],
  ])("flags %s", (_, text) => {
    const messages = [user(text), agent(null, [call("c1", "cancel_order")]), result("c1", "ok")];
    expect(where(write_without_confirmation.check(input(messages)))).toEqual([[1, "c1"]]);
  });

  it("lets one yes confirm several writes in a row", () => {
    const messages = [
      user("Yes"),
      agent(null, [call("c1", "cancel_order")]),
      result("c1", "ok"),
      agent(null, [call("c2", "update_address")]),
      result("c2", "ok"),
    ];
    expect(write_without_confirmation.check(input(messages))).toEqual([]);
  });

  it("reads only the latest user message with text before each write", () => {
    const messages = [
      user("Yes, cancel it."),
      agent(null, [call("c1", "cancel_order")]),
      result("c1", "ok"),
      agent("Done. Anything else?"),
      user("Also change my address to 1 Main St."),
      agent(null, [call("c2", "update_address")]),
      result("c2", "ok"),
    ];
    expect(where(write_without_confirmation.check(input(messages)))).toEqual([[5, "c2"]]);
  });

  it("skips user messages without text (user tool calls)", () => {
    const userToolCall = {
      role: "user" as const,
      content: null,
      tool_calls: [{ ...call("u1", "toggle_airplane_mode"), requestor: "user" as const }],
      turn_idx: null,
    };
    const messages = [user("Yes go ahead"), userToolCall, agent(null, [call("c1", "cancel_order")])];
    expect(write_without_confirmation.check(input(messages))).toEqual([]);
  });

  it("ignores read, generic and unknown tools", () => {
    const messages = [
      user("hi"),
      agent(null, [call("c1", "get_order")]),
      agent(null, [call("c2", "transfer_to_human_agents", { summary: "x" })]),
      agent(null, [call("c3", "drop_tables")]),
    ];
    expect(write_without_confirmation.check(input(messages))).toEqual([]);
  });

  it("flags a write with no user message before it, without an excerpt", () => {
    const [e] = write_without_confirmation.check(input([agent(null, [call("c1", "cancel_order")])]));
    expect(e).toMatchObject({
      messageIndex: 0,
      toolCallId: "c1",
      message: expect.stringContaining("no user message"),
    });
    expect(e?.excerpt).toBeUndefined();
  });
});

describe("write_before_authentication", () => {
  const retail = { domain: domain("retail") };

  it("flags a retail write before any authentication", () => {
    const messages = [user("Cancel order #1"), agent(null, [call("c1", "cancel_order")]), result("c1", "ok")];
    const found = write_before_authentication.check(input(messages, retail));
    expect(where(found)).toEqual([[1, "c1"]]);
    expect(found[0]?.excerpt).toBe("Cancel order #1");
  });

  it("passes a write after a successful lookup", () => {
    const messages = [
      user("I am a@b.c"),
      agent(null, [call("a1", "find_user_id_by_email", { email: "a@b.c" })]),
      result("a1", "user_1"),
      agent(null, [call("c1", "cancel_order")]),
      result("c1", "ok"),
    ];
    expect(write_before_authentication.check(input(messages, retail))).toEqual([]);
  });

  it("does not count a failed lookup or one without a result", () => {
    const messages = [
      agent(null, [call("a1", "find_user_id_by_name_zip")]),
      result("a1", "Error: User not found"),
      agent(null, [call("a2", "find_user_id_by_email")]),
      agent(null, [call("c1", "update_address")]),
    ];
    expect(where(write_before_authentication.check(input(messages, retail)))).toEqual([[3, "c1"]]);
  });

  it("applies to retail only", () => {
    const messages = [agent(null, [call("c1", "cancel_order")]), result("c1", "ok")];
    expect(write_before_authentication.check(input(messages))).toEqual([]);
  });
});

describe("multiple_actions_in_turn", () => {
  it("flags several tool calls in one message", () => {
    const messages = [user("hi"), agent(null, [call("c1", "get_order"), call("c2", "cancel_order")], 3)];
    expect(multiple_actions_in_turn.check(input(messages))).toEqual([
      {
        code: "multiple_actions_in_turn",
        message: "One agent message holds 2 tool calls (get_order, cancel_order).",
        messageIndex: 1,
        turnIdx: 3,
        toolCallId: "c1",
        toolName: "get_order",
      },
    ]);
  });

  it("flags a tool call with text to the user", () => {
    const found = multiple_actions_in_turn.check(input([agent("Let me check.", [call("c1", "get_order")])]));
    expect(found).toMatchObject([{ messageIndex: 0, toolCallId: "c1", excerpt: "Let me check." }]);
    expect(found[0]?.message).toBe("One agent message holds a tool call (get_order) and text to the user.");
  });

  it("passes one call alone, text alone, and a call with whitespace-only text", () => {
    const messages = [
      agent(null, [call("c1", "get_order")]),
      agent("Here you go."),
      agent(" \n", [call("c2", "get_order")]),
    ];
    expect(multiple_actions_in_turn.check(input(messages))).toEqual([]);
  });
});

describe("action_after_transfer", () => {
  const transfer = (id: string) => call(id, "transfer_to_human_agents", { summary: "s" });

  it("flags any call after a successful transfer", () => {
    const messages = [
      user("human please"),
      agent(null, [transfer("t1")]),
      result("t1", "Transfer successful"),
      agent(null, [call("c1", "get_order")]),
      result("c1", "ok"),
    ];
    const found = action_after_transfer.check(input(messages));
    expect(where(found)).toEqual([[3, "c1"]]);
    expect(found[0]?.message).toContain("call t1 at #1");
  });

  it("flags calls listed after the transfer in the same message", () => {
    const messages = [
      agent(null, [transfer("t1"), call("c1", "get_order")]),
      result("t1", "Transfer successful"),
    ];
    expect(where(action_after_transfer.check(input(messages)))).toEqual([[0, "c1"]]);
  });

  it.each([
    ["flagged as an error", result("t1", "Error: transfer failed", true)],
    ["recognised by its Error: text alone", result("t1", "Error: transfer failed", false)],
  ])("passes calls after a failed transfer (%s)", (_, failure) => {
    const messages = [agent(null, [transfer("t1")]), failure, agent(null, [call("c1", "get_order")])];
    expect(action_after_transfer.check(input(messages))).toEqual([]);
  });

  it("passes when no transfer happened or its result is missing", () => {
    expect(action_after_transfer.check(input([agent(null, [call("c1", "get_order")])]))).toEqual([]);
    const noResult = [agent(null, [transfer("t1")]), agent(null, [call("c1", "get_order")])];
    expect(action_after_transfer.check(input(noResult))).toEqual([]);
  });
});

describe("off_reference_write", () => {
  const gold = task([action("cancel_order", { order_id: "#1", reason: "no longer needed" })]);

  it("flags a successful write no gold action names", () => {
    const messages = [user("yes"), agent(null, [call("c1", "update_address", { a: 1 })]), result("c1", "ok")];
    const found = off_reference_write.check(input(messages, { task: gold }));
    expect(where(found)).toEqual([[1, "c1"]]);
    expect(found[0]?.message).toContain("no gold action has this name");
  });

  it("flags a write whose arguments differ from every gold action of that name", () => {
    const args = { order_id: "#2", reason: "no longer needed" };
    const messages = [agent(null, [call("c1", "cancel_order", args)]), result("c1", "ok")];
    const found = off_reference_write.check(input(messages, { task: gold }));
    expect(found).toMatchObject([{ messageIndex: 0, toolCallId: "c1", arguments: args }]);
    expect(found[0]?.message).toContain("differ from all 1 gold cancel_order");
  });

  it("passes a write that matches a gold action", () => {
    const messages = [
      agent(null, [call("c1", "cancel_order", { order_id: "#1", reason: "no longer needed" })]),
      result("c1", "ok"),
    ];
    expect(off_reference_write.check(input(messages, { task: gold }))).toEqual([]);
  });

  it("compares only compare_args when the gold action lists them", () => {
    const partial = task([action("cancel_order", { order_id: "#1", reason: "x" }, ["order_id"])]);
    const messages = [
      agent(null, [call("c1", "cancel_order", { order_id: "#1", reason: "y" })]),
      result("c1", "ok"),
    ];
    expect(off_reference_write.check(input(messages, { task: partial }))).toEqual([]);
  });

  it("ignores failed writes, writes without a result and reads", () => {
    const messages = [
      agent(null, [call("c1", "update_address")]),
      result("c1", "Error: Order not found"),
      agent(null, [call("c2", "update_address")]),
      agent(null, [call("c3", "get_order")]),
      result("c3", "ok"),
    ];
    expect(off_reference_write.check(input(messages, { task: gold }))).toEqual([]);
  });

  it("skips tasks without criteria; flags every write when the criteria list no actions", () => {
    const messages = [agent(null, [call("c1", "cancel_order")]), result("c1", "ok")];
    const noCriteria = { ...task(), evaluation_criteria: null };
    expect(off_reference_write.check(input(messages, { task: noCriteria }))).toEqual([]);
    expect(where(off_reference_write.check(input(messages, { task: task(null) })))).toEqual([[0, "c1"]]);
  });
});

describe("rules made reliable enough to gate (issue: Grader B precision)", () => {
  const write = (name: string) => ({ name, kind: "write" as const, params: [], run: () => "ok" });
  const telecom = {
    name: "telecom",
    agentTools: makeToolkit("T", [write("suspend_line"), write("refuel_data")]),
  };

  it("write_without_confirmation asks only for what the domain policy asks: telecom confirms refuels, not suspensions", () => {
    const messages = [
      user("My line is broken.", 0),
      agent(null, [call("c1", "suspend_line", {}), call("c2", "refuel_data", {})], 1),
      result("c1", "ok"),
      result("c2", "ok"),
    ];
    expect(
      write_without_confirmation.check(input(messages, { domain: telecom })).map((e) => e.toolCallId),
    ).toEqual(["c2"]);
    // Without a policy list (a domain it does not know), every write still needs a yes.
    expect(
      write_without_confirmation.check(input(messages, { domain: { ...telecom, name: "fake" } })),
    ).toHaveLength(2);
  });

  it("write_without_confirmation: an opening 'Sure,' that answers another question is not a confirmation", () => {
    const answering = [
      agent("Could you give me your order id?"),
      user("Sure, it's #1."),
      agent(null, [call("c1", "cancel_order", { order_id: "#1" })]),
      result("c1", "ok"),
    ];
    const hits = write_without_confirmation.check(input(answering));
    expect(hits.map((e) => e.toolCallId)).toEqual(["c1"]);
    expect(hits[0]?.message).toContain(
      'opens with "sure" in answer to a question that did not ask to approve an action',
    );
    const approving = [
      agent("I will cancel order #1. Shall I proceed?"),
      user("Sure, go ahead."),
      agent(null, [call("c1", "cancel_order", { order_id: "#1" })]),
      result("c1", "ok"),
    ];
    expect(write_without_confirmation.check(input(approving))).toEqual([]);
    // An explicit "yes" still confirms, whatever was asked.
    const yes = [
      agent("Anything else?"),
      user("Yes, cancel #1."),
      agent(null, [call("c1", "cancel_order", {})]),
      result("c1", "ok"),
    ];
    expect(write_without_confirmation.check(input(yes))).toEqual([]);
  });

  it("off_reference_write compares by meaning: a flight entry with an extra field is the same flight", () => {
    const gold = action("cancel_order", { order_id: "#1", items: [{ id: "a", qty: 1 }] });
    const same = [
      user("yes"),
      agent(null, [call("c1", "cancel_order", { order_id: "#1", items: [{ id: "a", qty: 1.0, price: 5 }] })]),
      result("c1", "ok"),
    ];
    expect(off_reference_write.check(input(same, { task: task([gold]) }))).toEqual([]);
    const other = [
      user("yes"),
      agent(null, [call("c1", "cancel_order", { order_id: "#1", items: [{ id: "b", qty: 1 }] })]),
      result("c1", "ok"),
    ];
    expect(off_reference_write.check(input(other, { task: task([gold]) })).map((e) => e.toolCallId)).toEqual([
      "c1",
    ]);
  });

  it("action_after_transfer counts a loop of repeated transfers once, other calls each", () => {
    const t = (id: string) => call(id, "transfer_to_human_agents", { summary: "x" });
    const messages = [
      agent(null, [t("t1")]),
      result("t1", "Transfer successful"),
      user("hello?"),
      agent(null, [t("t2")]),
      result("t2", "Transfer successful"),
      user("still there?"),
      agent(null, [t("t3")]),
      result("t3", "Transfer successful"),
      agent(null, [call("g1", "get_order", {})]),
      result("g1", "{}"),
    ];
    const hits = action_after_transfer.check(input(messages));
    expect(hits.map((e) => e.toolCallId)).toEqual(["t2", "g1"]);
    expect(hits[0]?.message).toContain("repeated 2 times in a row");
  });
});
