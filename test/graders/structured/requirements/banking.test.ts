/**
 * banking's requirement fixtures on the real grading path: a prohibition names the discoverable tool a
 * dispatcher call runs, and a task permission licenses the user's own requested writes off the gold.
 */
import { describe, expect, it } from "vitest";
import { causeLabel } from "../../../../src/graders/causes.ts";
import { goldSteps, type ProbeStep } from "../../../../src/probes/gold.ts";
import type { PyDict } from "../../../../src/py/value.ts";
import { contextOf, gradeCalls, step, taskOf } from "../clauses/harness.ts";

const grade = (taskId: string, steps: readonly ProbeStep[]) =>
  gradeCalls("banking_knowledge", "head", taskId, steps);
const gold = (taskId: string) =>
  goldSteps(contextOf("banking_knowledge"), taskOf("banking_knowledge", "head", taskId));
const unlock = (tool: string) => step("unlock_discoverable_agent_tool", { agent_tool_name: tool });
const call = (tool: string, args: PyDict) =>
  step("call_discoverable_agent_tool", { agent_tool_name: tool, arguments: JSON.stringify(args) });

describe("banking prohibitions", () => {
  const replacement = {
    credit_card_account_id: "cc_890389b165_silver",
    user_id: "890389b165",
    shipping_address: "Detroit, MI",
    reason: "other",
  };

  it("gold passes; unlocking the prohibited tool is no violation, calling it through the dispatcher is", () => {
    expect(grade("task_031", gold("task_031")).structured.pass).toBe(true);
    const unlocked = grade("task_031", [...gold("task_031"), unlock("order_replacement_credit_card_7291")]);
    expect(unlocked.structured.requirements.violations).toEqual([]);
    const steps = [
      ...gold("task_031"),
      unlock("order_replacement_credit_card_7291"),
      call("order_replacement_credit_card_7291", replacement),
    ];
    const g = grade("task_031", steps);
    const v = g.structured.requirements.violations;
    expect(v.map((x) => [x.ruleId, x.toolName, x.toolCallId])).toEqual([
      [
        "banking_knowledge.task_031.no_card_replacement",
        "order_replacement_credit_card_7291",
        `probe_${steps.length - 1}`,
      ],
    ]);
    expect(v[0]?.arguments).toEqual(replacement);
    expect(g.structured.causes[0]).toMatchObject({
      kind: "requirement",
      reference: "banking_knowledge.task_031.no_card_replacement",
      gates: true,
    });
    expect(g.structured.causes[0]?.evidence[0]?.quote).toBe(
      "You want to keep your card active (don't cancel and reissue)",
    );
  });

  it("the scope reads the dispatched arguments: another account is not the user's refusal", () => {
    const other = { ...replacement, credit_card_account_id: "cc_890389b165_gold" };
    const g = grade("task_031", [
      ...gold("task_031"),
      unlock("order_replacement_credit_card_7291"),
      call("order_replacement_credit_card_7291", other),
    ]);
    expect(g.structured.requirements.violations).toEqual([]);
  });

  it("a refused transfer to a human agent", () => {
    const g = grade("task_052", [...gold("task_052"), step("transfer_to_human_agents", { summary: "CLI" })]);
    expect(g.structured.causes.filter((c) => c.gates).map(causeLabel)).toContain(
      "requirement:banking_knowledge.task_052.no_transfer",
    );
  });
});

describe("banking permissions", () => {
  /** task_072's gold with the first credit's amount changed: its transaction record is off the gold. */
  function withCredit(account: string, amount: number): ProbeStep[] {
    const steps = gold("task_072");
    return steps.map((s) => {
      const args = s.action.arguments;
      if (
        s.action.name !== "call_discoverable_agent_tool" ||
        args.agent_tool_name !== "apply_checking_account_credit_5829"
      )
        return s;
      if (!String(args.arguments).includes('"chk_lj82d4f1a9"')) return s;
      return call("apply_checking_account_credit_5829", {
        account_id: account,
        amount,
        credit_type: "fee_refund",
      });
    });
  }

  it("the user's request for credits licenses a credit on their own account the gold did not make", () => {
    const g = grade("task_072", withCredit("chk_lj82d4f1a9", 15));
    expect(g.tau3.reward).toBe(0);
    const licensed = g.structured.causes.filter((c) => c.kind === "licensed_write");
    expect(licensed.length).toBeGreaterThan(0);
    expect(licensed.every((c) => c.reference.startsWith("bank_account_transaction_history."))).toBe(true);
    expect(licensed[0]?.evidence.some((e) => e.code === "license.permission")).toBe(true);
    expect(g.structured.causes.some((c) => c.kind === "unlicensed_write")).toBe(false);
  });

  it("not on another customer's account", () => {
    const g = grade("task_072", withCredit("chk_kj93a7b2e1_1", 15));
    expect(g.structured.causes.filter((c) => c.gates).map(causeLabel)).toEqual(
      expect.arrayContaining([
        "policy_clause:banking_knowledge.verification.bank_account_owner",
        expect.stringMatching(/^unlicensed_write:bank_account_transaction_history\./),
      ]),
    );
  });
});
