/** TelecomTools' non-tool methods: scenario setup and env assertions. */
import { beforeEach, describe, expect, it } from "vitest";
import type { DbState } from "../../../src/domains/db-state.ts";
import { type PyDict, PyFloat, type PyValue } from "../../../src/py/value.ts";
import { call, freshStates, newEnv } from "./data.ts";

let states: { agent: DbState; user: DbState };
const env = newEnv();
const run = (name: string, args: PyValue = {}) => call("assistant", states, name, args, env);
const value = (name: string, args: PyValue = {}) => {
  const out = run(name, args);
  expect(out.error, out.content).toBe(false);
  return out.value;
};
const line = (id: string) => states.agent.items("lines").find((l) => (l as PyDict).line_id === id) as PyDict;
const bill = (id: string) => states.agent.items("bills").find((b) => (b as PyDict).bill_id === id) as PyDict;

beforeEach(() => {
  states = freshStates();
});

describe("set_data_usage", () => {
  it("stores the raw argument: an int stays an int (and hashes differently from a float)", () => {
    expect(value("set_data_usage", { customer_id: "C1001", line_id: "L1002", data_used_gb: 15 })).toBe(
      "Data usage set to 15 GB for line L1002",
    );
    expect(line("L1002").data_used_gb).toBe(15);
    const asInt = states.agent.hash();
    run("set_data_usage", { customer_id: "C1001", line_id: "L1002", data_used_gb: new PyFloat(15) });
    expect(line("L1002").data_used_gb).toEqual(new PyFloat(15));
    expect(states.agent.hash()).not.toBe(asInt);
  });

  it("checks the line belongs to the customer", () => {
    expect(run("set_data_usage", { customer_id: "C1002", line_id: "L1002", data_used_gb: 1 }).content).toBe(
      "Error: Line L1002 not found for customer C1002",
    );
  });
});

describe("suspend_line_for_overdue_bill", () => {
  const args = (contract_ended: boolean, line_id = "L1002", customer_id = "C1001") => ({
    customer_id,
    line_id,
    new_bill_id: "B1234321",
    contract_ended,
  });

  it("creates a January overdue bill for the plan price and suspends the line", () => {
    expect(value("suspend_line_for_overdue_bill", args(true))).toBe(
      "Line L1002 suspended for unpaid bill B1234321. Contract ended: True",
    );
    expect(bill("B1234321")).toEqual({
      bill_id: "B1234321",
      customer_id: "C1001",
      period_start: "2025-01-01",
      period_end: "2025-01-31",
      issue_date: "2025-01-01",
      total_due: new PyFloat(65),
      due_date: "2025-01-15",
      line_items: [
        {
          description: "Charge for line L1002",
          amount: new PyFloat(65),
          date: "2025-02-25",
          item_type: "Charge",
        },
      ],
      status: "Overdue",
    });
    expect(line("L1002")).toMatchObject({
      status: "Suspended",
      suspension_start_date: "2025-02-25",
      contract_end_date: "2025-01-31",
    });
    const c = states.agent.items("customers")[0] as PyDict;
    expect(c.bill_ids).toEqual(["B1001", "B1002", "B1003", "B1234321"]);
  });

  it("keeps the contract end date when the contract has not ended", () => {
    value("suspend_line_for_overdue_bill", args(false));
    expect(line("L1002").contract_end_date).toBe("2026-12-31");
  });

  it("requires an active line and no existing overdue bill", () => {
    expect(run("suspend_line_for_overdue_bill", args(false, "L1003")).content).toBe(
      "Error: Line must be active to suspend for unpaid bill",
    );
    expect(run("suspend_line_for_overdue_bill", args(false, "L1004", "C1002")).content).toBe(
      "Error: Customer already has an overdue bill",
    );
  });
});

describe("agent assertions", () => {
  it("assert_data_refueling_amount compares within 1e-6", () => {
    expect(
      value("assert_data_refueling_amount", { customer_id: "C1001", line_id: "L1002", expected_amount: 0 }),
    ).toBe(true);
    run("refuel_data", { customer_id: "C1001", line_id: "L1002", gb_amount: new PyFloat(2) });
    expect(
      value("assert_data_refueling_amount", { customer_id: "C1001", line_id: "L1002", expected_amount: 2 }),
    ).toBe(true);
    expect(
      value("assert_data_refueling_amount", {
        customer_id: "C1001",
        line_id: "L1002",
        expected_amount: new PyFloat(2.1),
      }),
    ).toBe(false);
  });

  it("assert_line_status compares the status text", () => {
    expect(
      value("assert_line_status", { customer_id: "C1001", line_id: "L1003", expected_status: "Suspended" }),
    ).toBe(true);
    expect(
      value("assert_line_status", { customer_id: "C1001", line_id: "L1003", expected_status: "Active" }),
    ).toBe(false);
  });

  it("assert_overdue_bill_exists is true or raises", () => {
    expect(value("assert_overdue_bill_exists", { customer_id: "C1002", overdue_bill_id: "B1005" })).toBe(
      true,
    );
    expect(
      run("assert_overdue_bill_exists", { customer_id: "C1002", overdue_bill_id: "B1004" }).content,
    ).toBe("Error: Overdue bill B1004 is not overdue");
    expect(
      run("assert_overdue_bill_exists", { customer_id: "C1001", overdue_bill_id: "B1005" }).content,
    ).toBe("Error: Overdue bill B1005 not found");
  });

  it("assert_no_overdue_bill: a missing or Paid bill counts as no overdue bill", () => {
    expect(value("assert_no_overdue_bill", { overdue_bill_id: "B404" })).toBe(true);
    expect(value("assert_no_overdue_bill", { overdue_bill_id: "B1001" })).toBe(true);
    expect(value("assert_no_overdue_bill", { overdue_bill_id: "B1005" })).toBe(false);
  });
});
