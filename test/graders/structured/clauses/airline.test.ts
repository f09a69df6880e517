/**
 * Airline's policy clauses, each passing and failing, on real tasks and reservations: cancellation
 * eligibility (and what it cannot decide), checked bags, and compensation certificates.
 */
import { describe, expect, it } from "vitest";
import type { ProbeStep } from "../../../../src/probes/gold.ts";
import { buildTrajectory } from "../../../../src/probes/gold.ts";
import type { PyDict } from "../../../../src/py/value.ts";
import {
  contextOf,
  gradeCalls,
  outcomes,
  rejectedClauses,
  step,
  type TaskVersionName,
  taskOf,
} from "./harness.ts";

const V0 = "v0.2.0_f8de30c";
const NOT_ELIGIBLE = "airline.cancel_reservation.not_eligible";
const NO_REMOVAL = "airline.update_reservation_baggages.no_removal";
const BOOK_BAGS = "airline.book_reservation.regular_basic_economy_bags_not_free";
const UPDATE_BAGS = "airline.update_reservation_baggages.regular_basic_economy_bags_not_free";
const REGULAR_UNINSURED = "airline.send_certificate.regular_economy_uninsured";
const AMOUNT = "airline.send_certificate.amount_per_passenger";
const SAME_COUNT = "airline.update_reservation_passengers.same_count";
const AT_MOST_FIVE = "airline.book_reservation.at_most_five_passengers";

const cancel = (reservation_id: string) => step("cancel_reservation", { reservation_id });
const bags = (reservation_id: string, total: number, nonfree: number, payment_id: string) =>
  step("update_reservation_baggages", {
    reservation_id,
    total_baggages: total,
    nonfree_baggages: nonfree,
    payment_id,
  });
const certificate = (user_id: string, amount: number) => step("send_certificate", { user_id, amount });
/** XEHM4B (basic economy, booked 2024-05-01, no insurance) moved to another cabin, same flights. */
const changeCabin = (cabin: string) =>
  step("update_reservation_flights", {
    reservation_id: "XEHM4B",
    cabin,
    flights: [
      { flight_number: "HAT005", date: "2024-05-20" },
      { flight_number: "HAT178", date: "2024-05-30" },
    ],
    payment_id: "credit_card_2408938",
  });
/** mohamed_silva_9265 (regular member) books one passenger on HAT014 JFK→MIA, basic economy ($57). */
const bookBasic = (total: number, nonfree: number, cabin = "basic_economy", price = 57) =>
  step("book_reservation", {
    user_id: "mohamed_silva_9265",
    origin: "JFK",
    destination: "MIA",
    flight_type: "one_way",
    cabin,
    flights: [{ flight_number: "HAT014", date: "2024-05-20" }],
    passengers: [{ first_name: "Mohamed", last_name: "Silva", dob: "1960-11-26" }],
    payment_methods: [{ payment_id: "credit_card_2198526", amount: price + 50 * nonfree }],
    total_baggages: total,
    nonfree_baggages: nonfree,
    insurance: "no",
  });

/** Grades the calls after checking each one ran without a tool error (a failed call writes nothing, so it would pass vacuously). */
function grade(version: TaskVersionName, taskId: string, steps: readonly ProbeStep[]) {
  const messages = buildTrajectory(contextOf("airline"), taskOf("airline", version, taskId), steps);
  expect(messages.filter((m) => m.role === "tool" && m.error).map((m) => m.content)).toEqual([]);
  return gradeCalls("airline", version, taskId, steps);
}

describe("airline clauses verify", () => {
  it("every airline clause verifies against the airline domain", () => {
    expect(rejectedClauses(grade("head", "48", [cancel("3RK2T9")]))).toEqual([]);
  });
});

describe("airline cancellation", () => {
  it("not_eligible: breaks on an upcoming basic economy reservation booked two weeks ago without insurance", () => {
    // 3RK2T9: basic economy, created 2024-05-02, no insurance, flights on 2024-05-19/20.
    const g = grade("head", "48", [cancel("3RK2T9")]);
    expect(outcomes(g, NOT_ELIGIBLE)).toEqual(["broken"]);
    expect(g.structured.pass).toBe(false);
    const first = g.structured.causes[0];
    expect(first).toMatchObject({ kind: "policy_clause", reference: NOT_ELIGIBLE, gates: true });
    expect(first?.message).toContain('reservation.cabin = "basic_economy"');
  });

  it("business and booked-within-24-hours reservations break nothing, yet eligibility licenses nothing", () => {
    // LU15PA: business, booked 2024-05-01, no insurance.
    const business = grade("head", "39", [cancel("LU15PA")]);
    expect(business.structured.clauses).toEqual([]);
    // K1NW8N: basic economy, no insurance, but booked 2024-05-14T16:03:16, within 24 hours of 2024-05-15 15:00.
    const recent = grade("head", "14", [cancel("K1NW8N")]);
    // An eligible reservation is not one the user asked to cancel: no clause licenses the write.
    expect(recent.structured.clauses).toEqual([]);
  });

  it("an insured reservation: judged by the task's cancellation reason, undecided where the task states none", () => {
    // MSJ4OA: economy with insurance, booked 2024-05-05; task 39's user gives the seat away (not covered).
    const insured = grade("head", "39", [cancel("MSJ4OA")]);
    expect(outcomes(insured, NOT_ELIGIBLE)).toEqual(["broken"]);
    // XYNI64: basic economy with insurance, booked 2024-05-11; task 28 states no reason.
    const noReason = grade("head", "28", [cancel("XYNI64")]);
    expect(outcomes(noReason, NOT_ELIGIBLE)).toEqual(["undecided"]);
  });

  it("undecided, silently: a reservation with a past segment (flown or airline-cancelled)", () => {
    // A90KR2: economy, no insurance, booked 2024-05-13, its flight dated 2024-05-14.
    const past = grade("head", "7", [cancel("A90KR2")]);
    expect(outcomes(past, NOT_ELIGIBLE)).toEqual([]);
  });

  it("task 7: upgrading to economy does not make a cancellation eligible (v0 gold); business does (head gold)", () => {
    const v0 = grade(V0, "7", [changeCabin("economy"), cancel("XEHM4B")]);
    expect(outcomes(v0, NOT_ELIGIBLE)).toEqual(["broken"]);
    expect(v0.structured.causes.map((c) => c.reference)).toContain(NOT_ELIGIBLE);
    const head = grade("head", "7", [changeCabin("business"), cancel("XEHM4B")]);
    expect(outcomes(head, NOT_ELIGIBLE)).toEqual([]);
  });
});

describe("airline checked bags", () => {
  it("no_removal: breaks when the number of checked bags goes down, not when it goes up", () => {
    // 1N99U6 (james_taylor_7043, silver, economy, 2 passengers) has 1 checked bag.
    const removed = grade("head", "30", [bags("1N99U6", 0, 0, "gift_card_5634230")]);
    expect(outcomes(removed, NO_REMOVAL)).toEqual(["broken"]);
    const added = grade("head", "30", [bags("1N99U6", 2, 0, "gift_card_5634230")]);
    expect(outcomes(added, NO_REMOVAL)).toEqual([]);
    // Same number of bags, one more of them paid: nothing removed.
    const kept = grade("head", "30", [bags("1N99U6", 1, 1, "gift_card_5634230")]);
    expect(outcomes(kept, NO_REMOVAL)).toEqual([]);
    expect(added.structured.clauses.filter((f) => f.outcome === "broken")).toEqual([]);
  });

  it("update: a regular member's basic economy bag is never free", () => {
    // K1NW8N: mohamed_silva_9265 (regular), basic economy, no bags yet.
    const free = grade("head", "14", [bags("K1NW8N", 1, 0, "credit_card_2198526")]);
    expect(outcomes(free, UPDATE_BAGS)).toEqual(["broken"]);
    const paid = grade("head", "14", [bags("K1NW8N", 1, 1, "credit_card_2198526")]);
    expect(outcomes(paid, UPDATE_BAGS)).toEqual([]);
    // 1N99U6's user is silver: the clause does not speak.
    const silver = grade("head", "30", [bags("1N99U6", 2, 0, "gift_card_5634230")]);
    expect(outcomes(silver, UPDATE_BAGS)).toEqual([]);
  });

  it("book: a regular member booking basic economy pays for every checked bag", () => {
    const free = grade("head", "14", [bookBasic(1, 0)]);
    expect(outcomes(free, BOOK_BAGS)).toEqual(["broken"]);
    const paid = grade("head", "14", [bookBasic(1, 1)]);
    expect(outcomes(paid, BOOK_BAGS)).toEqual([]);
    // Economy ($143 on HAT014) has one free bag per passenger for a regular member.
    const economy = grade("head", "14", [bookBasic(1, 0, "economy", 143)]);
    expect(outcomes(economy, BOOK_BAGS)).toEqual([]);
  });
});

describe("airline passengers", () => {
  const ANYA = { first_name: "Anya", last_name: "Garcia", dob: "1992-11-12" };
  const MEI = { first_name: "Mei", last_name: "Garcia", dob: "1989-12-13" };
  const passengers = (list: PyDict[]) =>
    step("update_reservation_passengers", { reservation_id: "3RK2T9", passengers: list });

  it("same_count: a passenger renamed is silent; one removed is an attempted violation the tool refuses", () => {
    // Task 40 (head): 3RK2T9 has Anya Garcia and Mei Lee; the user wants Mei's name changed.
    const renamed = grade("head", "40", [passengers([ANYA, MEI])]);
    expect(outcomes(renamed, SAME_COUNT)).toEqual([]);
    // As the agent of simulation 5ab79f23 did (#5): drop a passenger from the list.
    const removed = gradeCalls("airline", "head", "40", [passengers([ANYA])]);
    expect(outcomes(removed, SAME_COUNT)).toEqual(["attempted"]);
    const found = removed.structured.causes.filter((c) => c.reference === SAME_COUNT);
    expect(found.map((c) => [c.kind, c.gates])).toEqual([["attempted_violation", false]]);
  });

  it("at_most_five_passengers: six passengers break it (the tool books them), five do not", () => {
    const people = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ first_name: `P${i}`, last_name: "Silva", dob: "1960-11-26" }));
    const book = (n: number) =>
      step("book_reservation", {
        user_id: "mohamed_silva_9265",
        origin: "JFK",
        destination: "MIA",
        flight_type: "one_way",
        cabin: "economy",
        flights: [{ flight_number: "HAT014", date: "2024-05-20" }],
        passengers: people(n),
        payment_methods: [{ payment_id: "credit_card_2198526", amount: 143 * n }],
        total_baggages: 0,
        nonfree_baggages: 0,
        insurance: "no",
      });
    expect(outcomes(grade("head", "14", [book(5)]), AT_MOST_FIVE)).toEqual([]);
    expect(outcomes(grade("head", "14", [book(6)]), AT_MOST_FIVE)).toEqual(["broken"]);
  });
});

describe("airline compensation", () => {
  it("regular_economy_uninsured: no certificate for a regular member with no insured or business reservation", () => {
    // mohamed_silva_9265: regular, only K1NW8N (basic economy, no insurance).
    const g = grade("head", "14", [certificate("mohamed_silva_9265", 100)]);
    expect(outcomes(g, REGULAR_UNINSURED)).toEqual(["broken"]);
    // sophia_silva_7557 is regular but has insured reservations; noah_muller_9847 is gold.
    const insured = grade("head", "4", [certificate("sophia_silva_7557", 100)]);
    expect(outcomes(insured, REGULAR_UNINSURED)).toEqual([]);
    const gold = grade(V0, "2", [certificate("noah_muller_9847", 50)]);
    expect(outcomes(gold, REGULAR_UNINSURED)).toEqual([]);
  });

  it("amount_per_passenger: $50 or $100 per passenger (at most five), nothing else", () => {
    // Task 2's (v0) gold sends $50 for one passenger's delayed flight.
    expect(outcomes(grade(V0, "2", [certificate("noah_muller_9847", 50)]), AMOUNT)).toEqual([]);
    expect(outcomes(grade(V0, "2", [certificate("noah_muller_9847", 400)]), AMOUNT)).toEqual([]);
    expect(outcomes(grade(V0, "2", [certificate("noah_muller_9847", 75)]), AMOUNT)).toEqual(["broken"]);
    expect(outcomes(grade(V0, "2", [certificate("noah_muller_9847", 600)]), AMOUNT)).toEqual(["broken"]);
  });
});
