/**
 * banking_knowledge's policy clauses (prompt components and knowledge-base documents), each passing and
 * failing on real tasks. Calls go through `call_discoverable_agent_tool`, as an agent makes them: the
 * clauses see the tool each call runs.
 */
import { describe, expect, it } from "vitest";
import { causeLabel } from "../../../../src/graders/causes.ts";
import { goldSteps, type ProbeStep } from "../../../../src/probes/gold.ts";
import { isPyDict, type PyDict, type PyValue } from "../../../../src/py/value.ts";
import { contextOf, type Graded, gradeCalls, outcomes, rejectedClauses, step, taskOf } from "./harness.ts";

const H = "head";
const grade = (taskId: string, steps: readonly ProbeStep[]) =>
  gradeCalls("banking_knowledge", H, taskId, steps);

/** A field of a record at the end of the replay: a passing case must show the write happened. */
function finalField(g: Graded, table: string, id: string, key: string): PyValue | undefined {
  const r = g.tau3.env?.predicted?.agent.get(table, id);
  return isPyDict(r) && Object.hasOwn(r, key) ? r[key] : undefined;
}

/** Unlocks a discoverable agent tool and calls it, as the policy's discoverable-tool instructions say. */
const agent = (tool: string, args: PyDict): ProbeStep[] => [
  step("unlock_discoverable_agent_tool", { agent_tool_name: tool }),
  step("call_discoverable_agent_tool", { agent_tool_name: tool, arguments: JSON.stringify(args) }),
];
const verify = (userId: string, value?: string): ProbeStep =>
  step("log_verification", {
    name: value ?? "Customer",
    user_id: value ?? userId,
    address: value ?? "1 Main Street",
    email: value ?? "customer@example.com",
    phone_number: value ?? "555-0100",
    date_of_birth: value ?? "01/01/1980",
    time_verified: "2025-11-14 03:40:00 EST",
  });
const BYPASS = "9K2X7M4P1N8Q3R5T6A";

const V_USER = "banking_knowledge.verification.customer_by_user_id";
const V_ACCOUNT = "banking_knowledge.verification.bank_account_owner";
const V_CARD_ACCOUNT = "banking_knowledge.verification.credit_card_account_owner";
const V_CARD = "banking_knowledge.verification.debit_card_owner";
const V_TRANSFER = "banking_knowledge.verification.transfer_source_owner";
const V_REWARDS = "banking_knowledge.verification.rewards_transaction_owner";
const SAME_CUSTOMER = "banking_knowledge.transfer_funds.same_customer";
const PENDING_TXNS = "banking_knowledge.close_bank_account.no_pending_transactions";
const CARDS_FIRST = "banking_knowledge.close_bank_account.debit_cards_closed_first";
const SAVINGS_FIRST = "banking_knowledge.close_bank_account.business_savings_closed_first";
const ZERO_BALANCE = "banking_knowledge.close_credit_card_account.zero_balance";
const NO_REPLACEMENT = "banking_knowledge.close_credit_card_account.no_pending_replacement";
const NO_DISPUTES = "banking_knowledge.close_credit_card_account.no_pending_disputes";
const RESOLVED = "banking_knowledge.update_transaction_rewards.dispute_resolved";
const OVERDRAFT = "banking_knowledge.temporary_limit_increase.no_recent_overdraft";
const ENTRY_WAIT = "banking_knowledge.order_debit_card.entry_tier_wait";

const transfer = (from: string, to: string, amount: number) =>
  agent("transfer_funds_between_bank_accounts_7291", {
    source_account_id: from,
    destination_account_id: to,
    amount,
  });
const closeAccount = (account_id: string) => agent("close_bank_account_7392", { account_id });
const closeCard = (card_id: string, reason = "lost") => agent("close_debit_card_4721", { card_id, reason });
const closeCreditCard = (credit_card_account_id: string, user_id: string) =>
  agent("close_credit_card_account_7834", { credit_card_account_id, user_id });
const orderCard = (account_id: string, user_id: string) =>
  agent("order_debit_card_5739", {
    account_id,
    user_id,
    delivery_option: "STANDARD",
    delivery_fee: 0,
    card_design: "CLASSIC",
    design_fee: 0,
    shipping_address: "1420 Lake Shore Drive, Chicago, IL 60610",
  });

describe("banking clauses verify", () => {
  it("every banking clause verifies against the data", () => {
    expect(rejectedClauses(grade("task_075", []))).toEqual([]);
  });
});

describe("identity verification before changing a customer's records", () => {
  const open = agent("open_bank_account_4821", {
    user_id: "mv93f8a7b2",
    account_type: "checking",
    account_class: "Green Fee-Free Account",
  });

  it("by user_id: satisfied after log_verification (or the recovery bypass code), broken without", () => {
    expect(outcomes(grade("task_075", [verify("mv93f8a7b2"), ...open]), V_USER)).toEqual(["satisfied"]);
    expect(outcomes(grade("task_075", [verify("x", BYPASS), ...open]), V_USER)).toEqual(["satisfied"]);
    const unverified = grade("task_075", open);
    expect(outcomes(unverified, V_USER)).toEqual(["broken"]);
    // The cause names the tool the dispatcher ran and the dispatcher's own call.
    const c = unverified.structured.causes.find((x) => x.kind === "policy_clause");
    expect(c).toMatchObject({ reference: V_USER, toolName: "open_bank_account_4821", gates: true });
    expect(c?.toolCallId).toBe("probe_1");
    expect(c?.message).toContain("open_bank_account_4821 via call_discoverable_agent_tool");
    expect(c?.evidence[0]?.quote).toContain("you must first verify their identify");
  });

  it("a call that changes nothing breaks nothing (the account does not exist)", () => {
    const steps = agent("apply_checking_account_credit_5829", {
      account_id: "no_such_account",
      amount: 5,
      credit_type: "fee_refund",
    });
    expect(outcomes(grade("task_072", steps), V_ACCOUNT)).toEqual([]);
  });

  const credit = agent("apply_checking_account_credit_5829", {
    account_id: "chk_lj82d4f1a9",
    amount: 14,
    credit_type: "fee_refund",
  });
  it("bank account: its owner must be verified, not just someone", () => {
    expect(outcomes(grade("task_072", [verify("lj82d4f1a9"), ...credit]), V_ACCOUNT)).toEqual(["satisfied"]);
    expect(outcomes(grade("task_072", [verify("kj93a7b2e1"), ...credit]), V_ACCOUNT)).toEqual(["broken"]);
  });

  it("credit card account: closing another customer's card under the verified user's id breaks it", () => {
    const own = grade("task_048", [
      verify("e3f4a5b6c7"),
      ...closeCreditCard("cc_e3f4a5b6c7_green", "e3f4a5b6c7"),
    ]);
    expect(outcomes(own, V_CARD_ACCOUNT)).toEqual(["satisfied"]);
    const other = grade("task_048", [
      verify("224959b99e"),
      ...closeCreditCard("cc_e3f4a5b6c7_green", "224959b99e"),
    ]);
    // The user_id the call gives is verified; the account's owner is not (the tool does not check).
    expect(outcomes(other, V_USER)).toEqual(["satisfied"]);
    expect(outcomes(other, V_CARD_ACCOUNT)).toEqual(["broken"]);
  });

  it("debit card: its cardholder must be verified", () => {
    const freeze = agent("freeze_debit_card_3892", { card_id: "dbc_lj82d4f1a9_bluest" });
    expect(outcomes(grade("task_077", [verify("lj82d4f1a9"), ...freeze]), V_CARD)).toEqual(["satisfied"]);
    expect(outcomes(grade("task_077", freeze), V_CARD)).toEqual(["broken"]);
  });

  it("transfer: the source account's owner must be verified", () => {
    const move = transfer("chk_lj82d4f1a9", "chk_538bfb9cba", 10);
    expect(outcomes(grade("task_072", [verify("lj82d4f1a9"), ...move]), V_TRANSFER)).toEqual(["satisfied"]);
    expect(outcomes(grade("task_072", move), V_TRANSFER)).toEqual(["broken"]);
  });

  it("rewards update: the transaction's owner must be verified", () => {
    const task = taskOf("banking_knowledge", H, "task_026");
    const gold = goldSteps(contextOf("banking_knowledge"), task);
    expect(outcomes(grade("task_026", gold), V_REWARDS)).toEqual(Array(4).fill("satisfied"));
    const unverified = gold.filter((s) => s.action.name !== "log_verification");
    expect(outcomes(grade("task_026", unverified), V_REWARDS)).toEqual(Array(4).fill("broken"));
  });
});

describe("bank accounts", () => {
  it("transfer_funds: between one customer's accounts only", () => {
    const own = grade("task_072", [
      verify("lj82d4f1a9"),
      ...transfer("chk_lj82d4f1a9", "chk_538bfb9cba", 10),
    ]);
    expect(outcomes(own, SAME_CUSTOMER)).toEqual(["satisfied"]);
    const other = grade("task_072", [
      verify("lj82d4f1a9"),
      ...transfer("chk_lj82d4f1a9", "chk_kj93a7b2e1_1", 10),
    ]);
    expect(outcomes(other, SAME_CUSTOMER)).toEqual(["broken"]);
    expect(other.structured.causes[0]?.message).toContain('source.user_id = "lj82d4f1a9"');
  });

  // chk_538bfb9cba (Light Green, $1,847.50, no early closure fee) carries debit card dbc_538bfb9cba.
  const emptyAndClose = [
    ...transfer("chk_538bfb9cba", "chk_lj82d4f1a9", 1847.5),
    ...closeAccount("chk_538bfb9cba"),
  ];
  it("close_bank_account: its debit cards must be closed first", () => {
    const cardOpen = grade("task_077", [verify("lj82d4f1a9"), ...emptyAndClose]);
    expect(outcomes(cardOpen, CARDS_FIRST)).toEqual(["broken"]);
    const cardClosed = grade("task_077", [
      verify("lj82d4f1a9"),
      ...closeCard("dbc_538bfb9cba"),
      ...emptyAndClose,
    ]);
    expect(outcomes(cardClosed, CARDS_FIRST)).toEqual([]);
    expect(outcomes(cardClosed, PENDING_TXNS)).toEqual([]);
    expect(cardClosed.structured.clauses.filter((f) => f.outcome === "broken")).toEqual([]);
    expect(finalField(cardClosed, "accounts", "chk_538bfb9cba", "status")).toBe("CLOSED");
  });

  it("close_bank_account: not with a pending transaction", () => {
    // chk_mc78a5b9d2_3 has two pending transactions (task_078).
    const g = grade("task_078", [
      verify("mc78a5b9d2"),
      ...closeCard("dbc_mc78a5b9d2_lg"),
      ...transfer("chk_mc78a5b9d2_3", "chk_mc78a5b9d2_1", 2100),
      ...closeAccount("chk_mc78a5b9d2_3"),
    ]);
    expect(outcomes(g, PENDING_TXNS)).toEqual(["broken"]);
    expect(outcomes(g, CARDS_FIRST)).toEqual([]);
  });

  it("close_bank_account: a business checking account only once its business savings are closed", () => {
    const openSavings = agent("open_bank_account_4821", {
      user_id: "b5e8f2a1c9",
      account_type: "business_savings",
      account_class: "Silver Plus Saver Account",
    });
    // The savings account open_bank_account_4821 creates (id from the gold of task_056).
    const withSavings = grade("task_056", [
      verify("b5e8f2a1c9"),
      ...openSavings,
      ...transfer("biz_chk_b5e8f2a1c9", "c1b48f17bb35e876", 3200),
      ...closeAccount("biz_chk_b5e8f2a1c9"),
    ]);
    expect(outcomes(withSavings, SAVINGS_FIRST)).toEqual(["broken"]);
    const without = grade("task_056", [
      verify("b5e8f2a1c9"),
      ...transfer("biz_chk_b5e8f2a1c9", "chk_b5e8f2a1c9", 3200),
      ...closeAccount("biz_chk_b5e8f2a1c9"),
    ]);
    expect(outcomes(without, SAVINGS_FIRST)).toEqual([]);
    expect(without.structured.clauses.filter((f) => f.outcome === "broken")).toEqual([]);
    expect(finalField(without, "accounts", "biz_chk_b5e8f2a1c9", "status")).toBe("CLOSED");
  });
});

describe("credit card accounts", () => {
  it("close: only at a $0.00 balance (pay it off first)", () => {
    const owing = grade("task_043", [
      verify("224959b99e"),
      ...closeCreditCard("cc_224959b99e_plat", "224959b99e"),
    ]);
    expect(outcomes(owing, ZERO_BALANCE)).toEqual(["broken"]);
    expect(owing.structured.causes[0]?.message).toContain('card_account.current_balance = "$75.00"');
    const paid = grade("task_043", [
      verify("224959b99e"),
      ...agent("pay_credit_card_from_checking_9182", {
        user_id: "224959b99e",
        checking_account_id: "05",
        credit_card_account_id: "cc_224959b99e_plat",
        amount: 75.0,
      }),
      ...closeCreditCard("cc_224959b99e_plat", "224959b99e"),
    ]);
    expect(outcomes(paid, ZERO_BALANCE)).toEqual([]);
    expect(finalField(paid, "credit_card_accounts", "cc_224959b99e_plat", "status")).toBe("CLOSED");
  });

  it("close: not while a replacement card is on its way", () => {
    // cc_e3f4a5b6c7_eco has a SHIPPED replacement order; cc_e3f4a5b6c7_green has none.
    const shipped = grade("task_048", [
      verify("e3f4a5b6c7"),
      ...closeCreditCard("cc_e3f4a5b6c7_eco", "e3f4a5b6c7"),
    ]);
    expect(outcomes(shipped, NO_REPLACEMENT)).toEqual(["broken"]);
    const none = grade("task_048", [
      verify("e3f4a5b6c7"),
      ...closeCreditCard("cc_e3f4a5b6c7_green", "e3f4a5b6c7"),
    ]);
    expect(none.structured.clauses.filter((f) => f.outcome === "broken")).toEqual([]);
    expect(finalField(none, "credit_card_accounts", "cc_e3f4a5b6c7_green", "status")).toBe("CLOSED");
  });

  it("close: not with an open dispute on one of its transactions", () => {
    const dispute = agent("file_credit_card_transaction_dispute_4829", {
      transaction_id: "txn_adea68821a1d",
      card_action: "keep_active",
      card_last_4_digits: "5320",
      full_name: "Fatima Al-Hassan",
      user_id: "890389b165",
      phone: "313-555-0198",
      email: "fatima@example.com",
      address: "Detroit, MI",
      contacted_merchant: true,
      purchase_date: "11/07/2025",
      issue_noticed_date: "11/08/2025",
      dispute_reason: "goods_services_not_as_described",
      resolution_requested: "full_refund",
      eligible_for_provisional_credit: false,
    });
    const close = closeCreditCard("cc_890389b165_silver", "890389b165");
    const open = grade("task_031", [verify("890389b165"), ...dispute, ...close]);
    expect(outcomes(open, NO_DISPUTES)).toEqual(["broken"]);
    const before = grade("task_031", [verify("890389b165"), ...close, ...dispute]);
    expect(outcomes(before, NO_DISPUTES)).toEqual([]);
    expect(finalField(before, "credit_card_accounts", "cc_890389b165_silver", "status")).toBe("CLOSED");
  });
});

describe("cash back corrections", () => {
  it("update_transaction_rewards: only for a resolved, approved dispute", () => {
    const resolved = grade(
      "task_026",
      goldSteps(contextOf("banking_knowledge"), taskOf("banking_knowledge", H, "task_026")),
    );
    expect(outcomes(resolved, RESOLVED)).toEqual(Array(4).fill("satisfied"));
    // task_027 does not auto-resolve: the disputes stay SUBMITTED.
    const task27 = taskOf("banking_knowledge", H, "task_027");
    const gold27 = goldSteps(contextOf("banking_knowledge"), task27);
    const update = agent("update_transaction_rewards_3847", {
      transaction_id: "txn_a8f1c2d3e403",
      new_rewards_earned: "6300 points",
    });
    const submitted = grade("task_027", [...gold27, ...update]);
    expect(outcomes(submitted, RESOLVED)).toEqual(["broken"]);
    expect(submitted.structured.causes.map(causeLabel)).toContain(`policy_clause:${RESOLVED}`);
  });
});

describe("debit cards", () => {
  it("temporary limit increase: not after an overdraft fee in the last 30 days", () => {
    const blue = agent("request_temporary_debit_card_limit_increase_8374", {
      card_id: "dbc_5e1b9d4f2a8c",
      limit_type: "purchase",
      new_limit: 4000,
    });
    expect(outcomes(grade("task_089", [verify("dm42f8c3a7"), ...blue]), OVERDRAFT)).toEqual(["broken"]);
    const green = agent("request_temporary_debit_card_limit_increase_8374", {
      card_id: "dbc_2f8a7c3d1e9b",
      limit_type: "purchase",
      new_limit: 5000,
    });
    const ok = grade("task_089", [verify("dm42f8c3a7"), ...green]);
    expect(outcomes(ok, OVERDRAFT)).toEqual([]);
    expect(ok.structured.clauses.filter((f) => f.outcome === "broken")).toEqual([]);
    expect(finalField(ok, "debit_cards", "dbc_2f8a7c3d1e9b", "temporary_purchase_limit_increase")).toBe(true);
  });

  it("order a replacement: an ENTRY-tier account waits 48 hours after the closure, an ELITE one does not", () => {
    const entry = grade("task_077", [
      verify("lj82d4f1a9"),
      ...closeCard("dbc_538bfb9cba"),
      ...orderCard("chk_538bfb9cba", "lj82d4f1a9"),
    ]);
    expect(outcomes(entry, ENTRY_WAIT)).toEqual(["broken"]);
    const elite = grade("task_077", [
      verify("lj82d4f1a9"),
      ...closeCard("dbc_lj82d4f1a9_bluest"),
      ...orderCard("chk_lj82d4f1a9", "lj82d4f1a9"),
    ]);
    expect(outcomes(elite, ENTRY_WAIT)).toEqual([]);
    expect(elite.tau3.env?.predicted?.agent.keys("debit_card_orders")).toHaveLength(1);
  });

  it("task_091's gold breaks the ENTRY-tier wait (task_084 applies it to the same fraud closure)", () => {
    // Both golds close a Light Blue (ENTRY) card as fraud_suspected; task_084's does not order a
    // replacement ("Entry Tier 48-hour waiting period for card replacement", its notes), task_091's does.
    const ctx = contextOf("banking_knowledge");
    const g91 = grade("task_091", goldSteps(ctx, taskOf("banking_knowledge", H, "task_091")));
    expect(g91.tau3.reward).toBe(1);
    expect(g91.structured.causes.filter((c) => c.gates).map(causeLabel)).toEqual([
      `policy_clause:${ENTRY_WAIT}`,
    ]);
    const g84 = grade("task_084", goldSteps(ctx, taskOf("banking_knowledge", H, "task_084")));
    expect(g84.structured.pass).toBe(true);
  });
});
