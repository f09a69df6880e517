/**
 * The strict gate, derived from the structured verdict: every off-reference field fails it, licensed or
 * the user's own; where τ³ fails, it stores τ³'s cause alone while its component still reads the fields.
 */
import { describe, expect, it } from "vitest";
import { causeLabel } from "../../../src/graders/causes.ts";
import { strictVerdict } from "../../../src/graders/structured/strict.ts";
import { gradeCalls, step } from "./clauses/harness.ts";

const V0 = "v0.2.0_f8de30c";
const OVERDUE =
  "[service_issue]airplane_mode_on|break_apn_settings|lock_sim_card_pin|overdue_bill_suspension[PERSONA:Hard]";
const transfer = step("transfer_to_human_agents", { summary: "The SIM card is PIN-locked." });
const payAndResume = [
  step("send_payment_request", { customer_id: "C1001", bill_id: "B1234321" }),
  step("check_payment_request", {}, "user"),
  step("make_payment", {}, "user"),
  step("resume_line", { customer_id: "C1001", line_id: "L1002" }),
];

describe("structured_strict", () => {
  it("fails the licensed writes the default gate lets pass, naming each field", () => {
    const g = gradeCalls("telecom", V0, OVERDUE, [
      step("toggle_airplane_mode", {}, "user"),
      ...payAndResume,
      transfer,
    ]);
    expect(g.structured.pass).toBe(true);
    const strict = strictVerdict(g.structured);
    expect(strict.pass).toBe(false);
    expect(strict.ownFail).toBe(true);
    expect(strict.causes.every((c) => c.gates)).toBe(true);
    expect(strict.causes.map(causeLabel)).toEqual(
      expect.arrayContaining([
        "licensed_write:lines[1].status",
        "licensed_write:bills[6].status",
        "user_state:user:device.airplane_mode",
      ]),
    );
  });

  it("passes what the default gate passes when nothing differs off the reference", () => {
    const g = gradeCalls("telecom", V0, OVERDUE, [transfer]);
    expect(g.structured.pass).toBe(true);
    expect(strictVerdict(g.structured)).toMatchObject({ pass: true, causes: [], ownFail: false });
  });

  it("where τ³ fails, stores τ³'s cause alone, yet its component still sees the off-reference fields", () => {
    // Task 48 (head): the gold only looks 3RK2T9 up (it is not eligible); cancelling it fails τ³'s DB check.
    const g = gradeCalls("airline", "head", "48", [step("cancel_reservation", { reservation_id: "3RK2T9" })]);
    expect(g.tau3.reward).toBe(0);
    const strict = strictVerdict(g.structured);
    expect(strict.pass).toBe(false);
    expect(strict.causes.map((c) => c.kind)).toEqual(["tau3"]);
    expect(strict.ownFail).toBe(true);
    expect(g.structured.causes.some((c) => c.kind === "unlicensed_write")).toBe(true);
  });
});
