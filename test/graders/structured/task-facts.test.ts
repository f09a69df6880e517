/**
 * Typed task facts: what the task text states (a cancellation reason, a budget), quoted verbatim and
 * read by policy clauses and requirements. The airline's insured cancellation is eligible only for a
 * covered reason; a charge above the user's stated cap fails with both amounts; a task that states no
 * reason leaves the clause undecided, reported and never a silent pass or fail.
 */
import { describe, expect, it } from "vitest";
import { type Cause, causeLabel } from "../../../src/graders/causes.ts";
import { gradeCalls, step } from "./clauses/harness.ts";

const NOT_ELIGIBLE = "airline.cancel_reservation.not_eligible";
const clauseCauses = (causes: readonly Cause[]) =>
  causes.filter((c) => c.kind === "policy_clause" && c.reference === NOT_ELIGIBLE);

// Task 39 (amelia_davis_8890): cancel every upcoming flight "so that you can give up your seat for
// someone else". Its reference cancels 8C8K4E (business), LU15PA (business) and MSJ4OA: economy,
// insured, booked 2024-05-05. Giving a seat away is no health or weather reason.
const gold39 = ["8C8K4E", "LU15PA", "MSJ4OA"].map((id) => step("cancel_reservation", { reservation_id: id }));

describe("the airline's insured cancellation reads the task's cancellation reason", () => {
  it("an insured cancellation for a reason the insurance does not cover fails, with the clause, the fact and its quote", () => {
    const g = gradeCalls("airline", "head", "39", gold39);
    expect(g.tau3.reward).toBe(1);
    expect(g.structured.pass).toBe(false);
    const [broken, ...more] = clauseCauses(g.structured.causes);
    expect(more).toEqual([]);
    expect(broken?.gates).toBe(true);
    expect(broken?.evidence[0]?.arguments).toEqual({ reservation_id: "MSJ4OA" });
    const fact = broken?.evidence.find((e) => e.code === "task_fact");
    expect(fact?.quote).toBe("so that you can give up your seat for someone else who needs it");
    expect(fact?.message).toContain('cancellation_reason = "change_of_plan"');
    expect(broken?.message).toContain('task fact cancellation_reason = "change_of_plan"');
    expect(broken?.evidence[0]?.quote).toContain("the reason for cancellation is covered by insurance");
  });

  it("an insured cancellation for a covered reason passes, having read the fact", () => {
    // Task 7 (daiki_muller_1116, "You are sick."): the reference upgrades XEHM4B to business, then
    // cancels it and 59XX6W (economy, insured, booked 2024-05-12).
    const g = gradeCalls("airline", "head", "7", [
      step("update_reservation_flights", {
        reservation_id: "XEHM4B",
        cabin: "business",
        flights: [
          { flight_number: "HAT005", date: "2024-05-20" },
          { flight_number: "HAT178", date: "2024-05-30" },
        ],
        payment_id: "credit_card_2408938",
      }),
      step("cancel_reservation", { reservation_id: "XEHM4B" }),
      step("cancel_reservation", { reservation_id: "59XX6W" }),
    ]);
    expect(g.tau3.reward).toBe(1);
    expect(g.structured.pass).toBe(true);
    expect(clauseCauses(g.structured.causes)).toEqual([]);
    expect(g.structured.causes.filter((c) => c.kind === "undecided_clause")).toEqual([]);
    expect(g.structured.task_facts.map((f) => [f.name, f.value, f.quote])).toEqual([
      ["cancellation_reason", "health", "You are sick."],
    ]);
  });

  it("an uninsured cancellation fails as it always did, without reading a reason", () => {
    // Task 45 (sophia_taylor_9065): PEP4E0 is basic economy, uninsured, booked 2024-05-05.
    const g = gradeCalls("airline", "head", "45", [step("cancel_reservation", { reservation_id: "PEP4E0" })]);
    expect(g.structured.pass).toBe(false);
    const [broken] = clauseCauses(g.structured.causes);
    expect(broken?.gates).toBe(true);
    expect(broken?.message).toContain('reservation.insurance = "no"');
    expect(broken?.evidence.filter((e) => e.code === "task_fact")).toEqual([]);
  });

  it("an insured cancellation in a task that states no reason is undecided: reported, not failed", () => {
    // Task 28 (the user of SI5UKW) states no reason; XYNI64 is insured, basic economy, booked 2024-05-11.
    const g = gradeCalls("airline", "head", "28", [step("cancel_reservation", { reservation_id: "XYNI64" })]);
    expect(clauseCauses(g.structured.causes)).toEqual([]);
    const undecided = g.structured.causes.filter((c) => c.kind === "undecided_clause");
    expect(undecided.map((c) => [c.reference, c.gates, c.toolName])).toEqual([
      [NOT_ELIGIBLE, false, "cancel_reservation"],
    ]);
    expect(undecided[0]?.message).toContain("cancellation_reason");
  });
});

describe("a charge cap the user states", () => {
  // Task 34 (yara_garcia_1905): "If the total cost for this exact combination of changes exceeds your
  // $200 budget, cancel the entire request". Bags cost $50 each: 3 then 2 more is $250 in all.
  const bags = (nonfree: number, payment: string) =>
    step("update_reservation_baggages", {
      reservation_id: "HXDUBJ",
      total_baggages: nonfree,
      nonfree_baggages: nonfree,
      payment_id: payment,
    });

  it("charges above the cap fail, with what was charged and the cap in the evidence", () => {
    const g = gradeCalls("airline", "head", "34", [
      bags(3, "gift_card_1646646"),
      bags(5, "gift_card_6941833"),
    ]);
    const caps = g.structured.causes.filter(
      (c) => c.kind === "requirement" && c.reference === "airline.34.budget",
    );
    expect(caps.map((c) => c.gates)).toEqual([true]);
    const text = caps[0]?.evidence.map((e) => e.message).join(" | ") ?? "";
    expect(caps[0]?.message).toContain("250");
    expect(caps[0]?.message).toContain("200");
    expect(text).toContain("150");
    expect(text).toContain("100");
    expect(caps[0]?.evidence.some((e) => e.quote?.includes("$200 budget"))).toBe(true);
  });

  it("charges within the cap say nothing", () => {
    const g = gradeCalls("airline", "head", "34", [bags(3, "gift_card_1646646")]);
    expect(g.structured.causes.filter((c) => c.reference === "airline.34.budget")).toEqual([]);
  });
});

describe("what the user agreed to", () => {
  // Three paid bags on HXDUBJ cost $150; the user says yes to a summary stating `amount`.
  const confirmedBags = (amount: string) =>
    gradeCalls("airline", "head", "34", [
      {
        ...step("update_reservation_baggages", {
          reservation_id: "HXDUBJ",
          total_baggages: 3,
          nonfree_baggages: 3,
          payment_id: "gift_card_1646646",
        }),
        summary: `I will add 3 checked bags to reservation HXDUBJ for ${amount} on your gift card. Shall I proceed?`,
      },
    ]);

  it("a yes to a summary that states another amount than the call charged is reported", () => {
    const g = confirmedBags("$100");
    const hits = g.structured.causes.filter(
      (c) => c.kind === "policy_rule" && c.reference === "summary_mismatch",
    );
    expect(hits.map((c) => [c.gates, c.toolName])).toEqual([[false, "update_reservation_baggages"]]);
    expect(hits[0]?.evidence[0]?.message).toMatch(/\$100\b.*\b150\b/);
    expect(causeLabel(hits[0] as Cause)).toBe("policy_rule:summary_mismatch");
  });

  it("a summary naming the amount charged says nothing", () => {
    const g = confirmedBags("$150");
    expect(g.structured.causes.filter((c) => c.reference === "summary_mismatch")).toEqual([]);
  });
});
