/**
 * A small hand-made RetailDB whose numbers make every expected value checkable by hand
 * (prices whose exchange difference is the float 14.249999999999943; int-valued prices to check float coercion).
 */
import { DbState } from "../../../src/domains/db-state.ts";
import { FIXED_QUIRKS, TAU2_QUIRKS } from "../../../src/domains/quirks.ts";
import { retailDomain } from "../../../src/domains/retail/index.ts";
import { type CallOutcome, invoke, type ToolEnv } from "../../../src/domains/toolkit.ts";
import { parsePyJson } from "../../../src/py/parse.ts";
import type { PyValue } from "../../../src/py/value.ts";

const address = (zip: string) => ({
  address1: "1 Main St",
  address2: "Apt 2",
  city: "Springfield",
  country: "USA",
  state: "IL",
  zip,
});

const item = (
  productId: string,
  name: string,
  itemId: string,
  price: number,
  options: Record<string, string>,
) => ({
  name,
  product_id: productId,
  item_id: itemId,
  price,
  options,
});
const shirt = (itemId: string, price: number, color: string) => item("p1", "Shirt", itemId, price, { color });
const mug = (itemId: string, price: number, size: string) => item("p2", "Mug", itemId, price, { size });
const pay = (amount: number, method: string, type = "payment") => ({
  transaction_type: type,
  amount,
  payment_method_id: method,
});

const order = (id: string, userId: string, status: string, items: unknown[], payments: unknown[]) => ({
  order_id: id,
  user_id: userId,
  address: address("12345"),
  items,
  status,
  fulfillments: [],
  payment_history: payments,
});

export const FIXTURE = {
  products: {
    p1: {
      name: "Shirt",
      product_id: "p1",
      variants: {
        v1: { item_id: "v1", options: { color: "red" }, available: true, price: 289.66 },
        v2: { item_id: "v2", options: { color: "blue" }, available: true, price: 318.96 },
        v3: { item_id: "v3", options: { color: "green" }, available: false, price: 10 },
      },
    },
    p2: {
      name: "Mug",
      product_id: "p2",
      variants: {
        m1: { item_id: "m1", options: { size: "s" }, available: true, price: 195.15 },
        m2: { item_id: "m2", options: { size: "l" }, available: true, price: 180.1 },
        m3: { item_id: "m3", options: { size: "xl" }, available: true, price: 200 },
      },
    },
  },
  users: {
    u1: {
      user_id: "u1",
      name: { first_name: "Ann", last_name: "Lee" },
      address: address("12345"),
      email: "Ann.Lee@Example.com",
      payment_methods: {
        gift_card_1: { source: "gift_card", id: "gift_card_1", balance: 100 },
        credit_card_1: { source: "credit_card", id: "credit_card_1", brand: "visa", last_four: "1234" },
        paypal_1: { source: "paypal", id: "paypal_1" },
        gift_card_small: { source: "gift_card", id: "gift_card_small", balance: 0.1 },
      },
      orders: ["#W1", "#W2", "#W3", "#W4", "#W5", "#W7", "#W8"],
    },
    u2: {
      user_id: "u2",
      name: { first_name: "Bob", last_name: "Lee" },
      address: address("54321"),
      email: "bob@example.com",
      payment_methods: { gift_card_2: { source: "gift_card", id: "gift_card_2", balance: 5 } },
      orders: [],
    },
  },
  orders: {
    "#W1": order(
      "#W1",
      "u1",
      "pending",
      [shirt("v1", 289.66, "red"), mug("m1", 195.15, "s")],
      [pay(484.81, "credit_card_1")],
    ),
    "#W2": order("#W2", "u1", "pending", [mug("m1", 195.15, "s")], [pay(0.2, "gift_card_small")]),
    "#W3": order(
      "#W3",
      "u1",
      "delivered",
      [shirt("v1", 289.66, "red"), shirt("v1", 289.66, "red"), mug("m1", 195.15, "s")],
      [pay(774.47, "paypal_1")],
    ),
    "#W4": order("#W4", "u1", "processed", [mug("m1", 195.15, "s")], [pay(195.15, "credit_card_1")]),
    "#W5": order(
      "#W5",
      "u1",
      "pending",
      [mug("m1", 195.15, "s")],
      [pay(195.15, "gift_card_1"), pay(10, "gift_card_1", "refund")],
    ),
    "#W6": order("#W6", "ghost", "pending", [mug("m1", 195.15, "s")], [pay(195.15, "gift_card_1")]),
    "#W7": order(
      "#W7",
      "u1",
      "pending",
      [mug("m1", 195.15, "s")],
      [pay(10, "gift_card_1"), pay(5, "missing_card")],
    ),
    "#W8": order(
      "#W8",
      "u1",
      "pending (item modified)",
      [mug("m2", 180.1, "l")],
      [pay(180.1, "gift_card_1")],
    ),
  },
};

/** A fresh state over the fixture. */
export const fixtureState = (): DbState => DbState.of(retailDomain.agentDbFromPlain(FIXTURE));

export const reproduceEnv: ToolEnv = { shared: new Map(), quirks: TAU2_QUIRKS };
export const fixedEnv: ToolEnv = { shared: new Map(), quirks: FIXED_QUIRKS };

/** Calls a retail tool with arguments given as JSON text (so `1.0` stays a float). */
export function call(
  state: DbState,
  name: string,
  argsJson: string,
  env: ToolEnv = reproduceEnv,
): CallOutcome {
  const tool = retailDomain.agentTools.tools.get(name);
  if (tool === undefined) throw new Error(`no tool ${name}`);
  return invoke("RetailTools", tool, state, parsePyJson(argsJson) as PyValue, env);
}
