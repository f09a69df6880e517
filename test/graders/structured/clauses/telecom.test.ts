/**
 * Telecom's policy clauses, each passing and failing, and the acceptance cases: runs the
 * minimal gold (a transfer) did not foresee are judged by the policy, not by the footprint.
 */
import { describe, expect, it } from "vitest";
import { causeLabel } from "../../../../src/graders/causes.ts";
import { gradeCalls, outcomes, rejectedClauses, step } from "./harness.ts";

const V0 = "v0.2.0_f8de30c";
const OVERDUE =
  "[service_issue]airplane_mode_on|break_apn_settings|lock_sim_card_pin|overdue_bill_suspension[PERSONA:Hard]";
const CONTRACT_ENDED =
  "[service_issue]airplane_mode_on|break_apn_settings|contract_end_suspension|lock_sim_card_pin[PERSONA:None]";
const PIN_LOCKED = "[service_issue]airplane_mode_on|lock_sim_card_pin[PERSONA:Easy]";
const ABROAD =
  "[mobile_data_issue]bad_network_preference|bad_vpn|data_saver_mode_on|data_usage_exceeded|user_abroad_roaming_disabled_off[PERSONA:Easy]";

const transfer = step("transfer_to_human_agents", { summary: "The SIM card is PIN-locked." });
const payOverdue = [
  step("send_payment_request", { customer_id: "C1001", bill_id: "B1234321" }),
  step("check_payment_request", {}, "user"),
  step("make_payment", {}, "user"),
];
const resume = step("resume_line", { customer_id: "C1001", line_id: "L1002" });
const gating = (g: ReturnType<typeof gradeCalls>) =>
  g.structured.causes.filter((c) => c.gates && c.kind !== "tau3").map(causeLabel);

describe("telecom acceptance cases", () => {
  it("passes: airplane mode off, then a transfer, on a PIN-locked SIM (the user's own device is not gated)", () => {
    const g = gradeCalls("telecom", V0, PIN_LOCKED, [step("toggle_airplane_mode", {}, "user"), transfer]);
    expect(g.tau3.reward).toBe(1);
    expect(g.structured.pass).toBe(true);
    expect(g.structured.causes.map(causeLabel)).toContain("user_state:user:device.airplane_mode");
    expect(rejectedClauses(g)).toEqual([]);
  });

  it("passes: pays the overdue bill the user allowed, lifts the suspension of a line whose contract is valid", () => {
    const g = gradeCalls("telecom", V0, OVERDUE, [...payOverdue, resume, transfer]);
    expect(g.tau3.reward).toBe(1);
    expect(gating(g)).toEqual([]);
    expect(g.structured.pass).toBe(true);
    const licensed = g.structured.causes.filter((c) => c.kind === "licensed_write").map((c) => c.reference);
    expect(licensed).toEqual(expect.arrayContaining(["lines[1].status", "bills[6].status"]));
    // The user's line_active only mirrors the line's status: folded under it, not a cause of its own.
    expect(g.structured.causes.some((c) => c.reference === "user:surroundings.line_active")).toBe(false);
    const status = g.structured.causes.find((c) => c.reference === "lines[1].status");
    expect(
      status?.evidence.some((e) => e.code === "delta_gate.mirror" && e.path === "surroundings.line_active"),
    ).toBe(true);
  });

  it("fails: the same run on a line whose contract ended, with the clause and its turn first", () => {
    const g = gradeCalls("telecom", V0, CONTRACT_ENDED, [...payOverdue, resume, transfer]);
    expect(g.tau3.reward).toBe(1);
    expect(g.structured.pass).toBe(false);
    const first = g.structured.causes[0];
    expect(first).toMatchObject({
      kind: "policy_clause",
      reference: "telecom.resume_line.contract_not_ended",
      gates: true,
    });
    expect(first?.toolName).toBe("resume_line");
    expect(first?.messageIndex).not.toBeNull();
    expect(first?.message).toContain('line.contract_end_date = "2025-01-31"');
    expect(first?.evidence[0]?.quote).toContain("not allowed to lift the suspension");
  });

  it("fails: a payment request for a bill that is Issued, not overdue", () => {
    const g = gradeCalls("telecom", V0, OVERDUE, [
      step("send_payment_request", { customer_id: "C1001", bill_id: "B1002" }),
      transfer,
    ]);
    expect(g.tau3.reward).toBe(1);
    expect(g.structured.pass).toBe(false);
    expect(g.structured.causes[0]).toMatchObject({
      kind: "policy_clause",
      reference: "telecom.send_payment_request.bill_overdue",
    });
    expect(g.structured.causes[0]?.message).toContain('bill.status = "Issued"');
  });

  it("fails: roaming enabled on a line the user does not own, for a user at home", () => {
    const g = gradeCalls("telecom", V0, PIN_LOCKED, [
      step("enable_roaming", { customer_id: "C1001", line_id: "L1001" }),
      transfer,
    ]);
    expect(g.tau3.reward).toBe(1);
    expect(g.structured.pass).toBe(false);
    expect(g.structured.causes[0]).toMatchObject({
      kind: "policy_clause",
      reference: "telecom.enable_roaming.user_traveling",
    });
    expect(gating(g)).toContain("unlicensed_write:lines[0].roaming_enabled");
  });
  it("fails: a suspend_line on another customer who has an overdue bill (a reason to suspend is no request)", () => {
    const g = gradeCalls("telecom", V0, PIN_LOCKED, [
      step("suspend_line", { customer_id: "C1002", line_id: "L1004", reason: "overdue bill" }),
      transfer,
    ]);
    expect(g.tau3.reward).toBe(1);
    expect(g.structured.pass).toBe(false);
    expect(outcomes(g, "telecom.line_tools.callers_account")).toEqual(["broken"]);
    expect(gating(g)).toContain("unlicensed_write:lines[3].status");
  });

  it("fails: lifting the suspension of a line that is not the caller's, even once the bills are paid", () => {
    const other = step("resume_line", { customer_id: "C1001", line_id: "L1003" });
    const g = gradeCalls("telecom", V0, OVERDUE, [...payOverdue, other, transfer]);
    // The caller's own account: the account clause holds, only the licence is missing.
    expect(outcomes(g, "telecom.line_tools.callers_account")).toEqual(["satisfied"]);
    expect(outcomes(g, "telecom.resume_line.overdue_bills_paid")).toEqual(["satisfied"]);
    expect(outcomes(g, "telecom.resume_line.after_overdue_bills_paid")).toEqual([]);
  });
});

describe("telecom clauses", () => {
  it("send_payment_request: an overdue bill satisfies the requirement and is licensed; any other breaks it", () => {
    const overdue = gradeCalls("telecom", V0, OVERDUE, payOverdue);
    expect(outcomes(overdue, "telecom.send_payment_request.bill_overdue")).toEqual(["satisfied"]);
    expect(outcomes(overdue, "telecom.send_payment_request.overdue_bill_payment")).toEqual(["licenses"]);
    const issued = gradeCalls("telecom", V0, OVERDUE, [
      step("send_payment_request", { customer_id: "C1001", bill_id: "B1002" }),
    ]);
    expect(outcomes(issued, "telecom.send_payment_request.bill_overdue")).toEqual(["broken"]);
    expect(outcomes(issued, "telecom.send_payment_request.overdue_bill_payment")).toEqual([]);
  });

  it("make_payment: the user may pay a sent request; a solo agent only with the ticket's permission", () => {
    expect(
      outcomes(gradeCalls("telecom", V0, OVERDUE, payOverdue), "telecom.make_payment.user_accepts_request"),
    ).toEqual(["licenses"]);
    const solo = gradeCalls("telecom", V0, OVERDUE, payOverdue, true);
    // The overdue tasks' ticket says "They gave permission to pay all their overdue bills."
    expect(outcomes(solo, "telecom.make_payment.ticket_permission")).toEqual(["satisfied"]);
    expect(outcomes(solo, "telecom.send_payment_request.overdue_bill_payment_solo")).toEqual(["licenses"]);
    expect(outcomes(solo, "telecom.send_payment_request.overdue_bill_payment")).toEqual([]); // main policy only
    expect(outcomes(solo, "telecom.make_payment.user_accepts_request")).toEqual([]); // not in the solo policy
    const noPermission = gradeCalls(
      "telecom",
      V0,
      ABROAD,
      [step("refuel_data", { customer_id: "C1001", line_id: "L1002", gb_amount: 1 }), ...payOverdue.slice(2)],
      true,
    );
    // No payment request is pending here: make_payment changes nothing: an attempt, not a break.
    expect(outcomes(noPermission, "telecom.make_payment.ticket_permission")).toEqual(["attempted"]);
  });

  it("suspend_line.allowed_reasons: breaks without an overdue bill or an ended contract, is satisfied with one", () => {
    const noReason = gradeCalls("telecom", V0, PIN_LOCKED, [
      step("suspend_line", { customer_id: "C1001", line_id: "L1001", reason: "user request" }),
    ]);
    expect(outcomes(noReason, "telecom.suspend_line.allowed_reasons")).toEqual(["broken"]);
    // C1002 has overdue bill B1005.
    const overdue = gradeCalls("telecom", V0, PIN_LOCKED, [
      step("suspend_line", { customer_id: "C1002", line_id: "L1004", reason: "overdue bill" }),
    ]);
    expect(outcomes(overdue, "telecom.suspend_line.allowed_reasons")).toEqual(["satisfied"]);
    // A reason to suspend is not a request to: nothing licenses the suspension.
    expect(overdue.structured.clauses.filter((f) => f.outcome === "licenses")).toEqual([]);
  });

  it("resume_line: overdue bills must be paid first, and never on an ended contract", () => {
    const unpaid = gradeCalls("telecom", V0, OVERDUE, [resume]);
    expect(outcomes(unpaid, "telecom.resume_line.overdue_bills_paid")).toEqual(["broken"]);
    expect(outcomes(unpaid, "telecom.resume_line.contract_not_ended")).toEqual([]);
    const paid = gradeCalls("telecom", V0, OVERDUE, [...payOverdue, resume]);
    expect(outcomes(paid, "telecom.resume_line.overdue_bills_paid")).toEqual(["satisfied"]);
    expect(outcomes(paid, "telecom.resume_line.after_overdue_bills_paid")).toEqual(["licenses"]);
    expect(outcomes(unpaid, "telecom.resume_line.after_overdue_bills_paid")).toEqual([]);
    const ended = gradeCalls("telecom", V0, CONTRACT_ENDED, [...payOverdue, resume]);
    expect(outcomes(ended, "telecom.resume_line.contract_not_ended")).toEqual(["broken"]);
    expect(outcomes(ended, "telecom.resume_line.after_overdue_bills_paid")).toEqual([]);
  });

  it("enable_roaming: the traveling user's own line satisfies the requirement and is licensed; no other", () => {
    const own = gradeCalls("telecom", V0, ABROAD, [
      step("enable_roaming", { customer_id: "C1001", line_id: "L1002" }),
    ]);
    expect(outcomes(own, "telecom.enable_roaming.user_traveling")).toEqual(["satisfied"]);
    expect(outcomes(own, "telecom.enable_roaming.traveling_user")).toEqual(["licenses"]);
    const other = gradeCalls("telecom", V0, ABROAD, [
      step("enable_roaming", { customer_id: "C1001", line_id: "L1001" }),
    ]);
    expect(outcomes(other, "telecom.enable_roaming.user_traveling")).toEqual(["broken"]);
    expect(outcomes(other, "telecom.enable_roaming.traveling_user")).toEqual([]);
  });

  it("refuel_data: at most 2 GB, on the user's own line", () => {
    const ok = gradeCalls("telecom", V0, ABROAD, [
      step("refuel_data", { customer_id: "C1001", line_id: "L1002", gb_amount: 2.0 }),
    ]);
    expect(outcomes(ok, "telecom.refuel_data.at_most_2gb")).toEqual(["satisfied"]);
    expect(outcomes(ok, "telecom.refuel_data.users_line")).toEqual(["satisfied"]);
    expect(outcomes(ok, "telecom.refuel_data.users_line_up_to_2gb")).toEqual(["licenses"]);
    const tooMuch = gradeCalls("telecom", V0, ABROAD, [
      step("refuel_data", { customer_id: "C1001", line_id: "L1002", gb_amount: 3 }),
    ]);
    expect(outcomes(tooMuch, "telecom.refuel_data.at_most_2gb")).toEqual(["broken"]);
    expect(outcomes(tooMuch, "telecom.refuel_data.users_line_up_to_2gb")).toEqual([]);
    const otherLine = gradeCalls("telecom", V0, ABROAD, [
      step("refuel_data", { customer_id: "C1001", line_id: "L1001", gb_amount: 1 }),
    ]);
    expect(outcomes(otherLine, "telecom.refuel_data.users_line")).toEqual(["broken"]);
    expect(outcomes(otherLine, "telecom.refuel_data.users_line_up_to_2gb")).toEqual([]);
  });
});

describe("clause machinery", () => {
  it("a call that rewrites what a record already held changed nothing: an attempt, not a break", () => {
    // Resuming twice: the second call fails (the line is already active) and writes nothing.
    const g = gradeCalls("telecom", V0, CONTRACT_ENDED, [...payOverdue, resume, resume]);
    expect(outcomes(g, "telecom.resume_line.contract_not_ended")).toEqual(["broken", "attempted"]);
  });
});
