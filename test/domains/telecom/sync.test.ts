/** tau2's telecom sync_tools: agent-DB facts copied into the user's surroundings. */
import { beforeEach, describe, expect, it } from "vitest";
import type { DbState } from "../../../src/domains/db-state.ts";
import { telecomDomain } from "../../../src/domains/telecom/index.ts";
import { type PyDict, PyFloat, type PyValue } from "../../../src/py/value.ts";
import { call, freshStates, newEnv } from "./data.ts";

let states: { agent: DbState; user: DbState };
const env = newEnv();
const agent = (name: string, args: PyValue) => call("assistant", states, name, args, env);
const user = (name: string, args: PyValue = {}) => call("user", states, name, args, env);
const sync = () => telecomDomain.sync!(states.agent, states.user);
const surroundings = () => states.user.read("surroundings") as PyDict;

beforeEach(() => {
  states = freshStates();
});

describe("sync", () => {
  it("does nothing before the user's phone number is known", () => {
    const before = states.user.hash();
    sync();
    expect(states.user.hash()).toBe(before);
  });

  it("copies line status, roaming and data-exceeded for the user's line", () => {
    user("set_user_info", { name: "John Smith", phone_number: "555-123-2003" });
    sync();
    expect(surroundings()).toMatchObject({
      line_active: false,
      roaming_allowed: false,
      mobile_data_usage_exceeded: false,
    });
    user("set_user_info", { name: "John Smith", phone_number: "555-123-2002" });
    agent("set_data_usage", { customer_id: "C1001", line_id: "L1002", data_used_gb: new PyFloat(15.1) });
    sync();
    expect(surroundings()).toMatchObject({
      line_active: true,
      roaming_allowed: true,
      mobile_data_usage_exceeded: true,
    });
    agent("refuel_data", { customer_id: "C1001", line_id: "L1002", gb_amount: new PyFloat(2) });
    sync();
    expect(surroundings().mobile_data_usage_exceeded).toBe(false);
  });

  it("runs the payment-request lifecycle", () => {
    user("set_user_info", { name: "John Smith", phone_number: "555-123-2002" });
    agent("send_payment_request", { customer_id: "C1001", bill_id: "B1002" });
    sync();
    expect(surroundings().payment_request).toEqual({
      bill_id: "B1002",
      amount_due: new PyFloat(150),
      paid: false,
    });
    expect(user("check_payment_request").content).toBe(
      "You have a payment request for bill B1002 of 150.0 USD.",
    );
    expect(user("make_payment").content).toBe("Payment of 150.0 USD has been made for bill B1002.");
    const bill = () => states.agent.items("bills").find((b) => (b as PyDict).bill_id === "B1002") as PyDict;
    expect(bill().status).toBe("Awaiting Payment");
    sync();
    expect(bill().status).toBe("Paid");
    expect(surroundings().payment_request).toBeNull();
  });

  it("raises when the user's number has no line", () => {
    user("set_user_info", { name: "X", phone_number: "555-000" });
    expect(() => sync()).toThrow("Line with phone number 555-000 not found");
  });
});
