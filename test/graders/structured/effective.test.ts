/**
 * The grader's view of calls as what they do: banking's dispatcher calls seen as the discoverable tool
 * they run (with the arguments that tool receives), everything else untouched, and the policy rules
 * reading that view.
 */
import { describe, expect, it } from "vitest";
import { DOMAINS } from "../../../src/domains/registry.ts";
import type { Message } from "../../../src/formats/model.ts";
import {
  effectiveAction,
  effectiveMessages,
  effectiveTask,
  seeCall,
} from "../../../src/graders/structured/effective.ts";
import { runPolicyRules } from "../../../src/graders/structured/policy/index.ts";
import { type PyDict, PyFloat, type PyValue } from "../../../src/py/value.ts";
import { action, agent, call, input, result, task, user } from "./policy/fixtures.ts";

const banking = DOMAINS.banking_knowledge;
const dispatch = (tool: string, args: string | undefined): PyDict =>
  args === undefined ? { agent_tool_name: tool } : { agent_tool_name: tool, arguments: args };

describe("banking's effectiveCall", () => {
  it("sees call_discoverable_agent_tool as the tool it runs, every JSON number a float", () => {
    const seen = seeCall(
      banking,
      "call_discoverable_agent_tool",
      dispatch("pay_credit_card_from_checking_9182", '{"user_id": "u1", "amount": 75}'),
    );
    expect(seen).toEqual({
      name: "pay_credit_card_from_checking_9182",
      args: { user_id: "u1", amount: new PyFloat(75) },
    });
    // No `arguments`: the dispatcher's default "{}".
    expect(
      seeCall(
        banking,
        "call_discoverable_agent_tool",
        dispatch("initial_transfer_to_human_agent_0218", undefined),
      ),
    ).toEqual({ name: "initial_transfer_to_human_agent_0218", args: {} });
  });

  it("sees call_discoverable_user_tool as the user tool it runs", () => {
    const args = {
      discoverable_tool_name: "deposit_check_3847",
      arguments: '{"account_id": "a1", "check_amount": 25}',
    };
    expect(seeCall(banking, "call_discoverable_user_tool", args)).toEqual({
      name: "deposit_check_3847",
      args: { account_id: "a1", check_amount: new PyFloat(25) },
    });
    // An agent tool is no user discoverable tool: the dispatcher would refuse it.
    const agentTool = { discoverable_tool_name: "open_bank_account_4821", arguments: "{}" };
    expect(seeCall(banking, "call_discoverable_user_tool", agentTool)).toBeNull();
  });

  it("a call that dispatches nothing stays what it names", () => {
    const cases: PyValue[] = [
      dispatch("no_such_tool_1234", "{}"),
      dispatch("open_bank_account_4821", "{not json"),
      dispatch("open_bank_account_4821", "[1, 2]"),
      { agent_tool_name: "open_bank_account_4821", arguments: { user_id: "u1" } },
      { agent_tool_name: ["open_bank_account_4821"], arguments: "{}" },
    ];
    for (const args of cases) expect(seeCall(banking, "call_discoverable_agent_tool", args)).toBeNull();
    expect(seeCall(banking, "open_bank_account_4821", { user_id: "u1" })).toBeNull();
    expect(seeCall(banking, "call_discoverable_agent_tool", "not a dict")).toBeNull();
  });
});

describe("views", () => {
  const messages: Message[] = [
    user("open it"),
    agent(
      null,
      [call("c1", "call_discoverable_agent_tool", dispatch("open_bank_account_4821", '{"user_id": "u1"}'))],
      3,
    ),
    result("c1", "Bank account opened successfully!"),
    agent(null, [call("c2", "get_current_time")], 4),
  ];

  it("keeps ids, indices and turns, and every message that dispatches nothing", () => {
    const seen = effectiveMessages(banking, messages);
    expect(seen).toHaveLength(messages.length);
    expect(seen[1]).toMatchObject({ role: "assistant", turn_idx: 3 });
    expect(seen[1]?.role === "assistant" ? seen[1].tool_calls : null).toEqual([
      { id: "c1", name: "open_bank_account_4821", arguments: { user_id: "u1" }, requestor: "assistant" },
    ]);
    for (const i of [0, 2, 3]) expect(seen[i]).toBe(messages[i]);
    // Once per message list.
    expect(effectiveMessages(banking, messages)).toBe(seen);
  });

  it("is the input itself for a domain without dispatchers, or without a dispatched call", () => {
    expect(effectiveMessages(DOMAINS.airline, messages)).toBe(messages);
    const plain = [messages[0] as Message, messages[3] as Message];
    expect(effectiveMessages(banking, plain)).toBe(plain);
    const t = task([action("cancel_reservation", { reservation_id: "X" })]);
    expect(effectiveTask(DOMAINS.airline, t)).toBe(t);
    expect(effectiveTask(banking, t)).toBe(t);
  });

  it("a gold dispatcher action becomes the call it makes; compare_args follow the dispatcher's", () => {
    const gold = action(
      "call_discoverable_agent_tool",
      dispatch("freeze_debit_card_3892", '{"card_id": "d1"}'),
    );
    expect(effectiveAction(banking, gold)).toMatchObject({
      name: "freeze_debit_card_3892",
      arguments: { card_id: "d1" },
      compare_args: null,
    });
    const nameOnly = { ...gold, compare_args: ["agent_tool_name"] };
    expect(effectiveAction(banking, nameOnly).compare_args).toEqual([]);
    expect(
      effectiveAction(banking, { ...gold, compare_args: ["agent_tool_name", "arguments"] }).compare_args,
    ).toBe(null);
  });
});

describe("policy rules read the view", () => {
  const bank = { name: banking.name, agentTools: banking.agentTools, effectiveCall: banking.effectiveCall };
  const read = call(
    "r1",
    "call_discoverable_agent_tool",
    dispatch("get_all_user_accounts_by_user_id_3847", '{"user_id": "u1"}'),
  );
  const write = call(
    "w1",
    "call_discoverable_agent_tool",
    dispatch("freeze_debit_card_3892", '{"card_id": "d1"}'),
  );
  const messages: Message[] = [
    user("Freeze my card."),
    agent(null, [read], 1),
    result("r1", "Accounts: ..."),
    agent(null, [write], 2),
    result("w1", "Debit Card Frozen Successfully"),
  ];

  it("a dispatched read is no write; a dispatched write is one, named by its tool, at its own call", () => {
    const hits = runPolicyRules(input(messages, { domain: bank })).write_without_confirmation;
    expect(hits.map((h) => [h.toolName, h.toolCallId, h.messageIndex])).toEqual([
      ["freeze_debit_card_3892", "w1", 3],
    ]);
    expect(hits[0]?.arguments).toEqual({ card_id: "d1" });
  });

  it("off_reference_write compares the dispatched call with the gold's dispatched call", () => {
    const same = task([
      action("call_discoverable_agent_tool", dispatch("freeze_debit_card_3892", '{"card_id": "d1"}')),
    ]);
    expect(runPolicyRules(input(messages, { domain: bank, task: same })).off_reference_write).toEqual([]);
    const other = task([
      action("call_discoverable_agent_tool", dispatch("freeze_debit_card_3892", '{"card_id": "d2"}')),
    ]);
    const hits = runPolicyRules(input(messages, { domain: bank, task: other })).off_reference_write;
    expect(hits.map((h) => h.message)).toEqual([
      "Successful write freeze_debit_card_3892 is off the reference: its arguments differ from all 1 gold freeze_debit_card_3892 action(s).",
    ]);
  });
});
