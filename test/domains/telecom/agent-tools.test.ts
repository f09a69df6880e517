/** TelecomTools: every tool's success and error paths, with texts from tau2's `tools.py`. */
import { beforeEach, describe, expect, it } from "vitest";
import type { DbState } from "../../../src/domains/db-state.ts";
import { telecomAgentTools } from "../../../src/domains/telecom/index.ts";
import { parsePyJson } from "../../../src/py/parse.ts";
import { type PyDict, PyFloat, type PyValue } from "../../../src/py/value.ts";
import { call, freshStates, newEnv } from "./data.ts";

let states: { agent: DbState; user: DbState };
const env = newEnv();
const run = (name: string, args: PyValue = {}) => call("assistant", states, name, args, env);
const ok = (name: string, args: PyValue = {}) => {
  const out = run(name, args);
  expect(out.error, out.content).toBe(false);
  return out.content;
};
const err = (name: string, args: PyValue = {}) => {
  const out = run(name, args);
  expect(out.error).toBe(true);
  return out.content;
};
const line = (id: string) => states.agent.items("lines").find((l) => (l as PyDict).line_id === id) as PyDict;
const bill = (id: string) => states.agent.items("bills").find((b) => (b as PyDict).bill_id === id) as PyDict;
const customer = (id: string) =>
  states.agent.items("customers").find((c) => (c as PyDict).customer_id === id) as PyDict;

beforeEach(() => {
  states = freshStates();
});

describe("tool declarations", () => {
  it("declares tau2's tool types (only WRITE tools are replayed)", () => {
    const kinds = Object.fromEntries([...telecomAgentTools.tools.values()].map((t) => [t.name, t.kind]));
    expect(kinds).toEqual({
      get_customer_by_phone: "read",
      get_customer_by_id: "read",
      get_customer_by_name: "read",
      get_details_by_id: "read",
      suspend_line: "write",
      resume_line: "write",
      get_bills_for_customer: "read",
      send_payment_request: "write",
      get_data_usage: "read",
      enable_roaming: "write",
      disable_roaming: "write",
      transfer_to_human_agents: "generic",
      refuel_data: "write",
    });
  });

  it("binds arguments like Python (TypeError texts)", () => {
    expect(err("suspend_line", { customer_id: "C1001" })).toBe(
      "Error: TelecomTools.suspend_line() missing 2 required positional arguments: 'line_id' and 'reason'",
    );
    expect(err("enable_roaming", { customer_id: "C1001", line_id: "L1001", extra: 1 })).toBe(
      "Error: TelecomTools.enable_roaming() got an unexpected keyword argument 'extra'",
    );
  });
});

describe("customer lookups", () => {
  it("get_customer_by_phone finds the primary number, then a line's number", () => {
    expect(JSON.parse(ok("get_customer_by_phone", { phone_number: "555-123-2002" })).customer_id).toBe(
      "C1001",
    );
    expect(JSON.parse(ok("get_customer_by_phone", { phone_number: "555-123-2005" })).customer_id).toBe(
      "C1002",
    );
    expect(err("get_customer_by_phone", { phone_number: "000" })).toBe(
      "Error: Customer with phone number 000 not found",
    );
  });

  it("get_customer_by_id dumps the model in declaration order, datetimes with a space", () => {
    const text = ok("get_customer_by_id", { customer_id: "C1003" });
    expect(
      text.startsWith('{"customer_id": "C1003", "full_name": "Michael Lee", "date_of_birth": "1978-04-30"'),
    ).toBe(true);
    expect(text).toContain(
      '"created_at": "2024-12-05 09:45:00", "last_extension_date": null, "goodwill_credit_used_this_year": 50.0}',
    );
    expect(err("get_customer_by_id", { customer_id: 5 })).toBe("Error: Customer with ID 5 not found");
  });

  it("get_customer_by_name is case-insensitive on the name and exact on the birth date", () => {
    expect(
      JSON.parse(ok("get_customer_by_name", { full_name: "john SMITH", dob: "1985-06-15" })),
    ).toHaveLength(1);
    expect(ok("get_customer_by_name", { full_name: "John Smith", dob: "1985-06-16" })).toBe("[]");
    expect(err("get_customer_by_name", { full_name: 3, dob: "x" })).toBe(
      "Error: 'int' object has no attribute 'lower'",
    );
  });

  it("get_details_by_id dispatches on the first letter", () => {
    expect(JSON.parse(ok("get_details_by_id", { id: "L1003" })).status).toBe("Suspended");
    expect(JSON.parse(ok("get_details_by_id", { id: "D1002" })).last_esim_transfer_date).toBe(
      "2025-01-20 09:30:00",
    );
    expect(JSON.parse(ok("get_details_by_id", { id: "B1003" })).status).toBe("Draft");
    expect(JSON.parse(ok("get_details_by_id", { id: "C1004" })).line_ids).toEqual([]);
    expect(ok("get_details_by_id", { id: "P1003" })).toBe(
      '{"plan_id": "P1003", "name": "Unlimited Plus", "data_limit_gb": 999.0, "price_per_month": 85.0, "data_refueling_price_per_gb": 0.1}',
    );
    expect(err("get_details_by_id", { id: "X1" })).toBe("Error: Unknown ID format or type: X1");
    expect(err("get_details_by_id", { id: "L9" })).toBe("Error: Line with ID L9 not found");
    expect(err("get_details_by_id", { id: "D9" })).toBe("Error: Device with ID D9 not found");
    expect(err("get_details_by_id", { id: "B9" })).toBe("Error: Bill with ID B9 not found");
    expect(err("get_details_by_id", { id: "P9" })).toBe("Error: Plan with ID P9 not found");
    expect(err("get_details_by_id", { id: 7 })).toBe("Error: 'int' object has no attribute 'startswith'");
  });
});

describe("bills and usage", () => {
  const ids = (text: string) => (JSON.parse(text) as PyDict[]).map((b) => b.bill_id);

  it("get_bills_for_customer sorts by issue date, newest first, and slices like Python", () => {
    expect(ids(ok("get_bills_for_customer", { customer_id: "C1001" }))).toEqual(["B1003", "B1002", "B1001"]);
    expect(ids(ok("get_bills_for_customer", { customer_id: "C1001", limit: 1 }))).toEqual(["B1003"]);
    expect(ids(ok("get_bills_for_customer", { customer_id: "C1001", limit: -1 }))).toEqual([
      "B1003",
      "B1002",
    ]);
    expect(err("get_bills_for_customer", { customer_id: "C1001", limit: "2" })).toBe(
      "Error: slice indices must be integers or None or have an __index__ method",
    );
    expect(err("get_bills_for_customer", { customer_id: "C9" })).toBe("Error: Customer with ID C9 not found");
  });

  it("get_data_usage renders the numbers of its plain dict as strings", () => {
    expect(ok("get_data_usage", { customer_id: "C1001", line_id: "L1002" })).toBe(
      '{"line_id": "L1002", "data_used_gb": "8.7", "data_limit_gb": "15.0", "data_refueling_gb": "0.0", "cycle_end_date": "2025-02-28"}',
    );
    expect(err("get_data_usage", { customer_id: "C1001", line_id: "L1004" })).toBe(
      "Error: Line L1004 not found for customer C1001",
    );
  });

  it("send_payment_request marks the bill Awaiting Payment, once per customer", () => {
    expect(ok("send_payment_request", { customer_id: "C1001", bill_id: "B1002" })).toBe(
      "Payment request sent to the customer for bill B1002",
    );
    expect(bill("B1002").status).toBe("Awaiting Payment");
    expect(err("send_payment_request", { customer_id: "C1001", bill_id: "B1001" })).toBe(
      "Error: A bill is already awaiting payment for this customer",
    );
  });

  it("send_payment_request checks the bill belongs to the customer, and does not check Paid", () => {
    expect(err("send_payment_request", { customer_id: "C1001", bill_id: "B1004" })).toBe(
      "Error: Bill B1004 not found for customer C1001",
    );
    ok("send_payment_request", { customer_id: "C1002", bill_id: "B1004" });
    expect(bill("B1004").status).toBe("Awaiting Payment");
  });
});

describe("line state", () => {
  it("suspend_line suspends an active line from today", () => {
    const text = ok("suspend_line", { customer_id: "C1001", line_id: "L1001", reason: "travel" });
    expect(text).toMatch(
      /^\{"message": "Line suspended successfully\. \$5\/month holding fee will apply\.", "line": \{"line_id": "L1001"/,
    );
    expect(text).toContain('"status": "Suspended"');
    expect(line("L1001").suspension_start_date).toBe("2025-02-25");
    expect(err("suspend_line", { customer_id: "C1001", line_id: "L1001", reason: "x" })).toBe(
      "Error: Line must be active to suspend",
    );
  });

  it("resume_line resumes a suspended line and clears the suspension date", () => {
    expect(err("resume_line", { customer_id: "C1001", line_id: "L1001" })).toBe(
      "Error: Line must be suspended to resume",
    );
    expect(JSON.parse(ok("resume_line", { customer_id: "C1001", line_id: "L1003" })).message).toBe(
      "Line resumed successfully",
    );
    expect(line("L1003").status).toBe("Active");
    expect(line("L1003").suspension_start_date).toBeNull();
    expect(err("resume_line", { customer_id: "C9", line_id: "L1003" })).toBe(
      "Error: Customer with ID C9 not found",
    );
  });

  it("enable_roaming / disable_roaming are idempotent with distinct messages", () => {
    expect(ok("enable_roaming", { customer_id: "C1001", line_id: "L1002" })).toBe(
      "Roaming was already enabled",
    );
    expect(ok("enable_roaming", { customer_id: "C1001", line_id: "L1001" })).toBe(
      "Roaming enabled successfully",
    );
    expect(line("L1001").roaming_enabled).toBe(true);
    expect(ok("disable_roaming", { customer_id: "C1001", line_id: "L1001" })).toBe(
      "Roaming disabled successfully",
    );
    expect(ok("disable_roaming", { customer_id: "C1001", line_id: "L1001" })).toBe(
      "Roaming was already disabled",
    );
    expect(err("disable_roaming", { customer_id: "C1001", line_id: "L9" })).toBe(
      "Error: Line L9 not found for customer C1001",
    );
  });

  it("transfer_to_human_agents answers and changes nothing", () => {
    const before = states.agent.hash();
    expect(ok("transfer_to_human_agents", { summary: "x" })).toBe("Transfer successful");
    expect(states.agent.hash()).toBe(before);
  });
});

describe("refuel_data", () => {
  const args = (gb: PyValue, customer_id = "C1001", line_id = "L1002") => ({
    customer_id,
    line_id,
    gb_amount: gb,
  });

  it("adds data and a charge line item on the first Draft bill", () => {
    const out = ok(
      "refuel_data",
      parsePyJson('{"customer_id": "C1001", "line_id": "L1002", "gb_amount": 2.0}'),
    );
    expect(out).toBe(
      '{"message": "Successfully added 2.0 GB of data for line L1002 for $4.00", "new_data_refueling_gb": "2.0", "charge": "4.0"}',
    );
    expect(line("L1002").data_refueling_gb).toEqual(new PyFloat(2));
    const draft = bill("B1003");
    expect(draft.total_due).toEqual(new PyFloat(4));
    expect(draft.line_items).toEqual([
      {
        description: "Data refueling: 2.0 GB at $2.0/GB",
        amount: new PyFloat(4),
        date: "2025-02-25",
        item_type: "Charge",
      },
    ]);
  });

  it("embeds Python str() of an int amount in the stored description", () => {
    ok("refuel_data", args(2));
    expect((bill("B1003").line_items as PyDict[])[0]?.description).toBe("Data refueling: 2 GB at $2.0/GB");
  });

  it("rounds the message charge like Python's format", () => {
    expect(JSON.parse(ok("refuel_data", args(new PyFloat(0.3), "C1002", "L1004"))).message).toBe(
      "Successfully added 0.3 GB of data for line L1004 for $0.03",
    );
  });

  it("creates a deterministic March draft bill when the customer has none (port difference)", () => {
    ok("refuel_data", args(1, "C1002", "L1004"));
    const ids = customer("C1002").bill_ids as string[];
    expect(ids).toHaveLength(3);
    const created = bill(ids[2] as string);
    expect(created.bill_id).toMatch(/^B[0-9a-f]{8}$/);
    expect(created).toMatchObject({
      customer_id: "C1002",
      period_start: "2025-03-01",
      period_end: "2025-03-31",
      issue_date: "2025-03-01",
      due_date: "2025-03-15",
      status: "Draft",
      total_due: new PyFloat(0.1),
    });
    const again = freshStates();
    call("assistant", again, "refuel_data", args(1, "C1002", "L1004"), env);
    expect(again.agent.hash()).toBe(states.agent.hash());
  });

  it("rejects non-positive and non-numeric amounts", () => {
    expect(err("refuel_data", args(0))).toBe("Error: Refuel amount must be positive");
    expect(err("refuel_data", args("2"))).toBe(
      "Error: '<=' not supported between instances of 'str' and 'int'",
    );
    expect(err("refuel_data", args(2, "C1001", "L1004"))).toBe(
      "Error: Line L1004 not found for customer C1001",
    );
  });
});
