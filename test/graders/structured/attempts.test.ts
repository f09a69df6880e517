/**
 * Attempts: a call that would break a requirement rule or a policy clause but failed or changed nothing
 * is an `attempted_violation` at its turn, with the environment's error (or "changed nothing") and the
 * rule's quote; reported by default, failing the verdict under the `attempted_violation` gate. A call
 * that took effect keeps its `requirement` or `policy_clause` cause.
 */
import { describe, expect, it } from "vitest";
import { type Cause, causeLabel } from "../../../src/graders/causes.ts";
import type { Graded } from "./clauses/harness.ts";
import { gradeCalls, step } from "./clauses/harness.ts";

const attempts = (g: Graded): Cause[] => g.structured.causes.filter((c) => c.kind === "attempted_violation");

// Retail task 74's user (lei_li_6575): #W3189752 is pending, #W6289770 delivered. Its reference cancels
// the pending order and modifies another; tau2 refuses to cancel a delivered order.
const LEI = "74";
const goldLei = [
  step("cancel_pending_order", { order_id: "#W3189752", reason: "no longer needed" }),
  step("modify_pending_order_items", {
    order_id: "#W5166363",
    item_ids: ["3334537816"],
    new_item_ids: ["3265035808"],
    payment_method_id: "credit_card_4466831",
  }),
];
const cancelDelivered = step("cancel_pending_order", { order_id: "#W6289770", reason: "no longer needed" });
const CANCEL_STATUS = "retail.cancel_pending_order.status_pending";

// Airline task 27's user (ethan_martin_2396) does not want any reservation cancelled or modified; the
// reference only reads the user. GXWCPN has one passenger, Ethan Martin (1963-05-18).
const ETHAN = "27";
const goldEthan = [step("get_user_details", { user_id: "ethan_martin_2396" })];
const samePassengers = step("update_reservation_passengers", {
  reservation_id: "GXWCPN",
  passengers: [{ first_name: "Ethan", last_name: "Martin", dob: "1963-05-18" }],
});

describe("attempted violations of policy clauses", () => {
  it("a refused cancellation of a delivered order: reported at its turn with the error, not a broken clause", () => {
    const g = gradeCalls("retail", "head", LEI, [...goldLei, cancelDelivered]);
    expect(g.tau3.reward).toBe(1);
    expect(g.structured.pass).toBe(true);
    expect(g.structured.causes.filter((c) => c.kind === "policy_clause")).toEqual([]);
    const [a, ...more] = attempts(g);
    expect(more).toEqual([]);
    expect(a).toMatchObject({
      reference: CANCEL_STATUS,
      gates: false,
      toolName: "cancel_pending_order",
      actor: "agent",
    });
    // The third call, at its own turn (each message of a synthetic trajectory is one).
    expect(a?.toolCallId).toBe("probe_2");
    expect(a?.turnIdx).not.toBeNull();
    expect(a?.turnIdx).toBe(a?.messageIndex);
    const e = a?.evidence[0];
    expect(e?.code).toBe("attempted_violation.clause");
    expect(e?.excerpt).toBe("Error: Non-pending order cannot be cancelled");
    expect(e?.quote).toContain("pending");
    expect(a?.message).toContain(
      `at turn ${a?.turnIdx} failed: "Error: Non-pending order cannot be cancelled"`,
    );
  });

  it("gates under the attempted_violation switch, and only with policy clauses gating", () => {
    const gated = gradeCalls("retail", "head", LEI, [...goldLei, cancelDelivered], false, {
      attempted_violation: true,
    });
    expect(gated.structured.pass).toBe(false);
    expect(attempts(gated).map((c) => [causeLabel(c), c.gates])).toEqual([
      [`attempted_violation:${CANCEL_STATUS}`, true],
    ]);
    const clausesOff = gradeCalls("retail", "head", LEI, [...goldLei, cancelDelivered], false, {
      attempted_violation: true,
      policy_clauses: false,
    });
    expect(clausesOff.structured.pass).toBe(true);
    expect(attempts(clausesOff).map((c) => c.gates)).toEqual([false]);
  });

  it("a successful call that breaks a clause keeps its policy_clause cause", () => {
    // Modifying the items first leaves the order "pending (item modified)": the address change breaks it.
    const g = gradeCalls("retail", "head", "97", [
      step("modify_pending_order_items", {
        order_id: "#W6750959",
        item_ids: ["3254583681"],
        new_item_ids: ["9440686670"],
        payment_method_id: "paypal_8080730",
      }),
      step("modify_pending_order_address", {
        order_id: "#W6750959",
        address1: "476 Maple Drive",
        address2: "Suite 432",
        city: "New York",
        country: "USA",
        state: "NY",
        zip: "10093",
      }),
    ]);
    expect(g.structured.pass).toBe(false);
    expect(g.structured.causes.map(causeLabel)).toContain(
      "policy_clause:retail.modify_pending_order.status_pending",
    );
    expect(attempts(g)).toEqual([]);
  });
});

describe("attempted violations of requirement rules", () => {
  it("a refused call the user prohibited: reported with the error, not a requirement", () => {
    const g = gradeCalls("airline", "head", ETHAN, [
      ...goldEthan,
      step("cancel_reservation", { reservation_id: "NOSUCH" }),
    ]);
    expect(g.tau3.reward).toBe(1);
    expect(g.structured.pass).toBe(true);
    expect(g.structured.requirements.pass).toBe(true);
    expect(g.structured.requirements.violations).toEqual([]);
    expect(g.structured.requirements.attempts.map((a) => a.v.ruleId)).toEqual(["airline.27.no_cancel"]);
    const [a, ...more] = attempts(g);
    expect(more).toEqual([]);
    expect(a).toMatchObject({
      reference: "airline.27.no_cancel",
      gates: false,
      toolCallId: "probe_1",
      toolName: "cancel_reservation",
    });
    const e = a?.evidence[0];
    expect(e?.code).toBe("attempted_violation.requirement");
    expect(e?.excerpt).toBe("Error: Reservation NOSUCH not found");
    expect(e?.quote).toBe("But you DO NOT want to cancel or modify your reservation.");
    expect(e?.turnIdx).toBe(a?.turnIdx);
  });

  it("a call that changed nothing is an attempt too; the switch makes it fail the verdict", () => {
    const steps = [...goldEthan, samePassengers];
    const g = gradeCalls("airline", "head", ETHAN, steps);
    expect(g.tau3.reward).toBe(1);
    expect(g.structured.pass).toBe(true);
    const [a] = attempts(g);
    expect(a).toMatchObject({ reference: "airline.27.no_passenger_change", gates: false });
    expect(a?.evidence[0]?.excerpt).toBe("changed nothing");
    expect(a?.message).toMatch(/update_reservation_passengers at turn \d+ changed nothing$/);
    const gated = gradeCalls("airline", "head", ETHAN, steps, false, { attempted_violation: true });
    expect(gated.structured.pass).toBe(false);
    expect(attempts(gated).map((c) => c.gates)).toEqual([true]);
  });

  it("a successful prohibited call keeps its gating requirement cause", () => {
    const g = gradeCalls("airline", "head", ETHAN, [
      ...goldEthan,
      step("cancel_reservation", { reservation_id: "GXWCPN" }),
    ]);
    expect(g.structured.pass).toBe(false);
    const req = g.structured.causes.find((c) => c.kind === "requirement");
    expect(req).toMatchObject({ reference: "airline.27.no_cancel", gates: true, toolCallId: "probe_1" });
    expect(g.structured.requirements.attempts).toEqual([]);
    expect(attempts(g)).toEqual([]);
  });
});
