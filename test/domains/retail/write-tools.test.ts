/** Retail WRITE tools on the hand-made fixture: success paths, every error text, quirks, number types. */
import { describe, expect, it } from "vitest";
import type { DbState } from "../../../src/domains/db-state.ts";
import { canonicalJson } from "../../../src/py/json.ts";
import { type PyDict, PyFloat, type PyValue } from "../../../src/py/value.ts";
import { call, fixedEnv, fixtureState } from "./fixture.ts";

const order = (s: DbState, id: string) => s.get("orders", id) as PyDict;
const card = (s: DbState, user: string, id: string) =>
  ((s.get("users", user) as PyDict).payment_methods as PyDict)[id] as PyDict;
const f = (v: number) => new PyFloat(v);
const errorOf = (s: DbState, tool: string, args: string) => {
  const r = call(s, tool, args);
  expect(r.error).toBe(true);
  expect(r.internal).toBeUndefined();
  return r.content;
};
const ok = (s: DbState, tool: string, args: string) => {
  const r = call(s, tool, args);
  expect(r.content.startsWith("Error")).toBe(false);
  expect(r.error).toBe(false);
  return JSON.parse(r.content) as Record<string, unknown>;
};

describe("cancel_pending_order", () => {
  it("refunds a gift card immediately, with Python round(balance + amount, 2)", () => {
    const s = fixtureState();
    const out = ok(s, "cancel_pending_order", '{"order_id": "#W2", "reason": "ordered by mistake"}');
    expect(out.status).toBe("cancelled");
    // 0.1 + 0.2 = 0.30000000000000004, rounded to 0.3
    expect(card(s, "u1", "gift_card_small").balance).toEqual(f(0.3));
    const o = order(s, "#W2");
    expect(o.status).toBe("cancelled");
    expect(o.cancel_reason).toBe("ordered by mistake");
    expect(o.payment_history).toEqual([
      { transaction_type: "payment", amount: f(0.2), payment_method_id: "gift_card_small" },
      { transaction_type: "refund", amount: f(0.2), payment_method_id: "gift_card_small" },
    ]);
  });

  it("books a refund without a balance change for a credit card", () => {
    const s = fixtureState();
    ok(s, "cancel_pending_order", '{"order_id": "#W1", "reason": "no longer needed"}');
    expect((order(s, "#W1").payment_history as PyValue[])[1]).toEqual({
      transaction_type: "refund",
      amount: f(484.81),
      payment_method_id: "credit_card_1",
    });
  });

  it("errors in tau2's order with tau2's texts", () => {
    const s = fixtureState();
    const before = s.hash();
    expect(errorOf(s, "cancel_pending_order", '{"order_id": "#W0", "reason": "no longer needed"}')).toBe(
      "Error: Order not found",
    );
    expect(errorOf(s, "cancel_pending_order", '{"order_id": "#W4", "reason": "x"}')).toBe(
      "Error: Non-pending order cannot be cancelled",
    );
    // check A: the exact status "pending" only
    expect(errorOf(s, "cancel_pending_order", '{"order_id": "#W8", "reason": "no longer needed"}')).toBe(
      "Error: Non-pending order cannot be cancelled",
    );
    expect(errorOf(s, "cancel_pending_order", '{"order_id": "#W1", "reason": "changed my mind"}')).toBe(
      "Error: Invalid reason",
    );
    expect(errorOf(s, "cancel_pending_order", '{"order_id": "#W1", "reason": ["no longer needed"]}')).toBe(
      "Error: unhashable type: 'list'",
    );
    expect(errorOf(s, "cancel_pending_order", '{"order_id": "#W6", "reason": "no longer needed"}')).toBe(
      "Error: User not found",
    );
    expect(s.hash()).toBe(before);
  });

  it("keeps gift-card refunds made before a missing payment method raises", () => {
    const s = fixtureState();
    expect(errorOf(s, "cancel_pending_order", '{"order_id": "#W7", "reason": "no longer needed"}')).toBe(
      "Error: Payment method not found",
    );
    expect(card(s, "u1", "gift_card_1").balance).toEqual(f(110));
    expect(order(s, "#W7").status).toBe("pending");
  });

  it("reports Python's TypeError for a missing argument", () => {
    expect(errorOf(fixtureState(), "cancel_pending_order", '{"order_id": "#W1"}')).toBe(
      "Error: RetailTools.cancel_pending_order() missing 1 required positional argument: 'reason'",
    );
  });
});

describe("exchange_delivered_order_items", () => {
  it("records the request with a rounded difference and sorted ids, no payment", () => {
    const s = fixtureState();
    ok(
      s,
      "exchange_delivered_order_items",
      '{"order_id": "#W3", "item_ids": ["v1", "m1"], "new_item_ids": ["v2", "m2"], "payment_method_id": "gift_card_1"}',
    );
    const o = order(s, "#W3");
    expect(o.status).toBe("exchange requested");
    expect(o.exchange_items).toEqual(["m1", "v1"]);
    expect(o.exchange_new_items).toEqual(["m2", "v2"]);
    expect(o.exchange_payment_method_id).toBe("gift_card_1");
    // round(14.249999999999943, 2)
    expect(o.exchange_price_difference).toEqual(f(14.25));
    expect(o.payment_history as PyValue[]).toHaveLength(1);
    expect(card(s, "u1", "gift_card_1").balance).toEqual(f(100));
  });

  it("stores the int 0 as difference when both lists are empty", () => {
    const s = fixtureState();
    ok(
      s,
      "exchange_delivered_order_items",
      '{"order_id": "#W3", "item_ids": [], "new_item_ids": [], "payment_method_id": "paypal_1"}',
    );
    expect(order(s, "#W3").exchange_price_difference).toBe(0);
    expect(canonicalJson(order(s, "#W3"))).toContain('"exchange_price_difference": 0,');
  });

  it("errors with tau2's texts", () => {
    const s = fixtureState();
    const before = s.hash();
    const ex = (items: string, news: string, pm = "paypal_1", id = "#W3") =>
      errorOf(
        s,
        "exchange_delivered_order_items",
        `{"order_id": "${id}", "item_ids": ${items}, "new_item_ids": ${news}, "payment_method_id": "${pm}"}`,
      );
    expect(ex('["m1"]', '["m2"]', "paypal_1", "#W1")).toBe("Error: Non-delivered order cannot be exchanged");
    expect(ex('["v1", "v1", "v1"]', '["v2", "v2", "v2"]')).toBe("Error: Number of v1 not found.");
    expect(ex('["v1"]', "[]")).toBe("Error: The number of items to be exchanged should match.");
    expect(ex('["v1"]', '["m2"]')).toBe("Error: Variant not found");
    expect(ex('["v1"]', '["v3"]')).toBe("Error: New item v3 not found or available");
    expect(ex('["v1"]', '["v2"]', "nope")).toBe("Error: Payment method not found");
    expect(ex('["v1", "m1"]', '["v2", "m2"]', "gift_card_small")).toBe(
      "Error: Insufficient gift card balance to pay for the price difference",
    );
    expect(s.hash()).toBe(before);
  });
});

describe("modify_pending_order_items", () => {
  const args = (pm: string, items = '["v1", "m1"]', news = '["v2", "m2"]', id = "#W1") =>
    `{"order_id": "${id}", "item_ids": ${items}, "new_item_ids": ${news}, "payment_method_id": "${pm}"}`;

  it("books the unrounded difference and (tau2 bug) gives every item the last variant's price/options", () => {
    const s = fixtureState();
    ok(s, "modify_pending_order_items", args("credit_card_1"));
    const o = order(s, "#W1");
    expect(o.status).toBe("pending (item modified)");
    expect((o.payment_history as PyValue[])[1]).toEqual({
      transaction_type: "payment",
      amount: f(14.249999999999943),
      payment_method_id: "credit_card_1",
    });
    expect(o.items).toEqual([
      { name: "Shirt", product_id: "p1", item_id: "v2", price: f(180.1), options: { size: "l" } },
      { name: "Mug", product_id: "p2", item_id: "m2", price: f(180.1), options: { size: "l" } },
    ]);
  });

  it("gives each item its own variant when the quirk is off", () => {
    const s = fixtureState();
    const r = call(s, "modify_pending_order_items", args("credit_card_1"), fixedEnv);
    expect(r.error).toBe(false);
    expect((order(s, "#W1").items as PyDict[]).map((i) => [i.item_id, i.price, i.options])).toEqual([
      ["v2", f(318.96), { color: "blue" }],
      ["m2", f(180.1), { size: "l" }],
    ]);
  });

  it("debits a gift card with round(balance - diff, 2)", () => {
    const s = fixtureState();
    ok(s, "modify_pending_order_items", args("gift_card_1"));
    expect(card(s, "u1", "gift_card_1").balance).toEqual(f(85.75));
  });

  it("books a cheaper item as a refund and credits a gift card", () => {
    const s = fixtureState();
    ok(s, "modify_pending_order_items", args("gift_card_1", '["m1"]', '["m2"]'));
    expect((order(s, "#W1").payment_history as PyValue[])[1]).toEqual({
      transaction_type: "refund",
      amount: f(15.050000000000011),
      payment_method_id: "gift_card_1",
    });
    expect(card(s, "u1", "gift_card_1").balance).toEqual(f(115.05));
  });

  it("books a 0.0 refund for empty lists", () => {
    const s = fixtureState();
    ok(s, "modify_pending_order_items", args("paypal_1", "[]", "[]"));
    const o = order(s, "#W1");
    expect((o.payment_history as PyValue[])[1]).toEqual({
      transaction_type: "refund",
      amount: f(0),
      payment_method_id: "paypal_1",
    });
    expect(o.status).toBe("pending (item modified)");
  });

  it("errors with tau2's texts", () => {
    const s = fixtureState();
    const before = s.hash();
    const m = (a: string) => errorOf(s, "modify_pending_order_items", a);
    expect(m(args("paypal_1", '["m2"]', '["m1"]', "#W8"))).toBe(
      "Error: Non-pending order cannot be modified",
    );
    expect(m(args("paypal_1", '["v9"]', '["v2"]'))).toBe("Error: v9 not found");
    expect(m(args("paypal_1", '["v1"]', '["v2", "m2"]'))).toBe(
      "Error: The number of items to be exchanged should match",
    );
    expect(m(args("paypal_1", '["v1"]', '["v1"]'))).toBe(
      "Error: The new item id should be different from the old item id",
    );
    expect(m(args("paypal_1", '["v1"]', '["v3"]'))).toBe("Error: New item v3 not found or available");
    expect(m(args("paypal_1", '["v1"]', '["zz"]'))).toBe("Error: Variant not found");
    expect(m(args("nope"))).toBe("Error: Payment method not found");
    expect(m(args("gift_card_small"))).toBe("Error: Insufficient gift card balance to pay for the new item");
    expect(s.hash()).toBe(before);
  });
});

describe("modify_pending_order_payment", () => {
  it("moves a gift-card payment to a card: payment then refund, old gift card credited", () => {
    const s = fixtureState();
    ok(s, "modify_pending_order_payment", '{"order_id": "#W2", "payment_method_id": "credit_card_1"}');
    expect(order(s, "#W2").payment_history).toEqual([
      { transaction_type: "payment", amount: f(0.2), payment_method_id: "gift_card_small" },
      { transaction_type: "payment", amount: f(0.2), payment_method_id: "credit_card_1" },
      { transaction_type: "refund", amount: f(0.2), payment_method_id: "gift_card_small" },
    ]);
    expect(card(s, "u1", "gift_card_small").balance).toEqual(f(0.3));
  });

  it("debits a new gift card and accepts 'pending (item modified)' (substring check)", () => {
    const s = fixtureState();
    ok(s, "modify_pending_order_payment", '{"order_id": "#W2", "payment_method_id": "gift_card_1"}');
    expect(card(s, "u1", "gift_card_1").balance).toEqual(f(99.8));
    const t = fixtureState();
    ok(t, "modify_pending_order_payment", '{"order_id": "#W8", "payment_method_id": "paypal_1"}');
    expect(card(t, "u1", "gift_card_1").balance).toEqual(f(280.1));
  });

  it("errors with tau2's texts", () => {
    const s = fixtureState();
    const before = s.hash();
    const m = (id: string, pm: string) =>
      errorOf(s, "modify_pending_order_payment", `{"order_id": "${id}", "payment_method_id": "${pm}"}`);
    expect(m("#W4", "paypal_1")).toBe("Error: Non-pending order cannot be modified");
    expect(m("#W1", "nope")).toBe("Error: Payment method not found");
    expect(m("#W5", "paypal_1")).toBe("Error: There should be exactly one payment for a pending order");
    expect(m("#W1", "credit_card_1")).toBe(
      "Error: The new payment method should be different from the current one",
    );
    expect(m("#W1", "gift_card_1")).toBe("Error: Insufficient gift card balance to pay for the order");
    expect(s.hash()).toBe(before);
  });
});

describe("address tools", () => {
  const addr =
    '"address1": "9 Elm", "address2": "", "city": "Austin", "state": "TX", "country": "USA", "zip": "73301"';

  it("modify_pending_order_address replaces the address (declaration order) on a check-B pending order", () => {
    const s = fixtureState();
    const r = call(s, "modify_pending_order_address", `{"order_id": "#W8", ${addr}}`);
    expect(r.error).toBe(false);
    expect(r.content).toContain(
      '"address": {"address1": "9 Elm", "address2": "", "city": "Austin", "country": "USA", "state": "TX", "zip": "73301"}',
    );
    expect((order(s, "#W8").address as PyDict).city).toBe("Austin");
  });

  it("modify_pending_order_address errors", () => {
    const s = fixtureState();
    expect(errorOf(s, "modify_pending_order_address", `{"order_id": "#W4", ${addr}}`)).toBe(
      "Error: Non-pending order cannot be modified",
    );
    expect(errorOf(s, "modify_pending_order_address", `{"order_id": "#W0", ${addr}}`)).toBe(
      "Error: Order not found",
    );
    // pydantic rejects an int for a str field
    expect(
      errorOf(s, "modify_pending_order_address", `{"order_id": "#W1", ${addr.replace('"73301"', "73301")}}`),
    ).toBe(
      "Error: 1 validation error for UserAddress\nzip\n" +
        "  Input should be a valid string [type=string_type, input_value=73301, input_type=int]\n" +
        "    For further information visit https://errors.pydantic.dev/2.11/v/string_type",
    );
    expect((order(s, "#W1").address as PyDict).zip).toBe("12345");
  });

  it("modify_user_address replaces the user's address", () => {
    const s = fixtureState();
    const out = ok(s, "modify_user_address", `{"user_id": "u2", ${addr}}`);
    expect(out.user_id).toBe("u2");
    expect(((s.get("users", "u2") as PyDict).address as PyDict).state).toBe("TX");
    expect(errorOf(s, "modify_user_address", `{"user_id": "nobody", ${addr}}`)).toBe("Error: User not found");
  });
});

describe("return_delivered_order_items", () => {
  const ret = (s: DbState, items: string, pm: string, id = "#W3") =>
    call(
      s,
      "return_delivered_order_items",
      `{"order_id": "${id}", "item_ids": ${items}, "payment_method_id": "${pm}"}`,
    );

  it("records the request to the original method, sorted, without a refund", () => {
    const s = fixtureState();
    expect(ret(s, '["v1", "m1", "v1"]', "paypal_1").error).toBe(false);
    const o = order(s, "#W3");
    expect(o.status).toBe("return requested");
    expect(o.return_items).toEqual(["m1", "v1", "v1"]);
    expect(o.return_payment_method_id).toBe("paypal_1");
    expect(o.payment_history as PyValue[]).toHaveLength(1);
  });

  it("accepts any gift card", () => {
    const s = fixtureState();
    expect(ret(s, '["m1"]', "gift_card_1").error).toBe(false);
    expect(card(s, "u1", "gift_card_1").balance).toEqual(f(100));
  });

  it("errors with tau2's texts", () => {
    const s = fixtureState();
    expect(ret(s, '["m1"]', "paypal_1", "#W1").content).toBe("Error: Non-delivered order cannot be returned");
    expect(ret(s, '["m1"]', "nope").content).toBe("Error: Payment method not found");
    expect(ret(s, '["m1"]', "credit_card_1").content).toBe(
      "Error: Payment method should be the original payment method",
    );
    expect(ret(s, '["m1", "m1"]', "paypal_1").content).toBe("Error: Some item not found");
    expect(order(s, "#W3").status).toBe("delivered");
  });
});
