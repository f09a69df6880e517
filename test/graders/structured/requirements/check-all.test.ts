import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { verifyRequirementSet } from "../../../../src/graders/structured/requirements/check-all.ts";
import { DATA_DIR } from "../../../helpers/data.ts";
import { fixture, MODEL_RULE, tempRequirements } from "./helpers.ts";

const verify = (files: Record<string, unknown>) =>
  verifyRequirementSet({ dir: tempRequirements(files), dataDir: DATA_DIR });

describe("verifyRequirementSet", () => {
  it("accepts the model fixture", () => {
    const r = verify({ "airline/head/47.json": fixture("47", [{}]) });
    expect(r.problems).toEqual([]);
    expect(r).toMatchObject({ fixtures: 1, rules: 1 });
  });

  it("rejects a quote changed by one character and reports the closest text", () => {
    const r = verify({
      "airline/head/47.json": fixture("47", [
        { source_quote: "you don't want to be transferrad to another agent" },
      ]),
    });
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]?.ruleId).toBe("airline.47.no_transfer");
    expect(r.problems[0]?.message).toContain("not found verbatim in task_instructions of task 47");
    expect(r.problems[0]?.message).toContain(`closest text: ${JSON.stringify(MODEL_RULE.source_quote)}`);
  });

  it("rejects an action the domain toolkit does not have", () => {
    const r = verify({ "airline/head/47.json": fixture("47", [{ action: "transfer_to_manager" }]) });
    expect(r.problems.map((p) => p.message)).toEqual([
      "action transfer_to_manager is not a tool of the airline toolkit",
    ]);
  });

  it("rejects a rule id used twice within a task version, across fixtures", () => {
    const r = verify({
      "airline/head/47.json": fixture("47", [{}]),
      "airline/head/6.json": fixture("6", [
        { source_quote: "Under no circumstances do you want to be transferred to another agent" },
      ]),
    });
    expect(r.problems).toEqual([
      {
        fixture: expect.stringMatching(/airline\/head\/6\.json$/),
        ruleId: "airline.47.no_transfer",
        message: expect.stringMatching(/^rule id already used in .*airline\/head\/47\.json$/),
      },
    ]);
  });

  it("rejects a rule id used twice within one fixture", () => {
    const r = verify({ "airline/head/47.json": fixture("47", [{}, {}]) });
    expect(r.problems.map((p) => p.message)).toEqual(["duplicate rule id airline.47.no_transfer"]);
  });

  it("lets one rule id carry into another task version only with the same action and scope", () => {
    const same = verify({
      "airline/head/47.json": fixture("47", [{}]),
      "airline/v0.2.0_f8de30c/47.json": fixture("47", [{}], "v0.2.0_f8de30c"),
    });
    expect(same.problems).toEqual([]);
    const changed = verify({
      "airline/head/47.json": fixture("47", [{}]),
      "airline/v0.2.0_f8de30c/47.json": fixture("47", [{ action: "cancel_reservation" }], "v0.2.0_f8de30c"),
    });
    expect(changed.problems.map((p) => p.message)).toEqual([
      expect.stringContaining("rule id means another action or scope in"),
    ]);
  });

  it("rejects a scope naming a reservation that is not in the DB", () => {
    const r = verify({
      "airline/head/47.json": fixture("47", [
        { action: "cancel_reservation", arguments: { reservation_id: "ZZZ999" } },
      ]),
    });
    expect(r.problems.map((p) => p.message)).toEqual([
      'arguments.reservation_id = "ZZZ999" names nothing in the airline DB',
    ]);
  });

  it("accepts a scope naming a real reservation, and rejects a key the tool does not take", () => {
    const real = verify({
      "airline/head/47.json": fixture("47", [
        { action: "cancel_reservation", arguments: { reservation_id: "H8Q05L" } },
      ]),
    });
    expect(real.problems).toEqual([]);
    const badKey = verify({
      "airline/head/47.json": fixture("47", [
        { action: "cancel_reservation", arguments: { reservation: "H8Q05L" } },
      ]),
    });
    expect(badKey.problems.map((p) => p.message)).toEqual([
      "arguments.reservation is not a parameter of cancel_reservation, so the rule could never match",
    ]);
  });

  it("rejects a fixture stored under another domain/task_version/task_id", () => {
    const r = verify({ "airline/v0.2.0_f8de30c/47.json": fixture("47", [{}], "head") });
    expect(r.problems.map((p) => p.message)).toEqual([
      "file is at airline/v0.2.0_f8de30c/47.json but its domain/task_version/task_id say airline/head/47.json",
    ]);
  });

  it("rejects an unknown task version and a task the version does not have", () => {
    const r = verify({
      "airline/v9/47.json": fixture("47", [{}], "v9"),
      "airline/head/999.json": fixture("999", [{ id: "airline.999.x" }]),
    });
    expect(r.problems.map((p) => p.message)).toEqual([
      "task 999 is not in airline head",
      "no task version v9 of airline in the data dir (have: head, v0.2.0_f8de30c)",
    ]);
  });

  it("rejects a rule that forbids one of the task's own gold actions", () => {
    // Airline 14's gold cancels K1NW8N, then books anew; a no-cancel rule misreads the user.
    const r = verify({
      "airline/head/14.json": fixture("14", [
        {
          id: "airline.14.no_cancel",
          action: "cancel_reservation",
          source_quote: "you want the agent to cancel the current one and book a new one",
        },
      ]),
    });
    expect(r.problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/^forbids the task's own gold action .*: cancel_reservation\(.*K1NW8N/),
    ]);
  });

  it("reports unreadable files and can restrict the report to given fixtures", () => {
    const dir = tempRequirements({
      "airline/head/47.json": fixture("47", [{ action: "nope" }]),
      "airline/head/6.json": "{ not json",
    });
    const all = verifyRequirementSet({ dir, dataDir: DATA_DIR });
    expect(all.problems).toHaveLength(2);
    const only = verifyRequirementSet({ dir, dataDir: DATA_DIR, only: [join(dir, "airline/head/47.json")] });
    expect(only.problems.map((p) => p.message)).toEqual(["action nope is not a tool of the airline toolkit"]);
  });
});
