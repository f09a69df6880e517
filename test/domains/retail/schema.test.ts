/** RetailDB validation: pydantic's lax typing, defaults, and extra-key handling. */
import { describe, expect, it } from "vitest";
import { parseRetailDb } from "../../../src/domains/retail/schema.ts";
import { type PyDict, PyFloat } from "../../../src/py/value.ts";
import { FIXTURE } from "./fixture.ts";

const clone = (): Record<string, unknown> => JSON.parse(JSON.stringify(FIXTURE)) as Record<string, unknown>;
const at = (v: unknown, ...path: string[]): unknown =>
  path.reduce((o, k) => (o as Record<string, unknown>)[k], v);

describe("retail schema", () => {
  it("makes every float field a Python float, even when the file has an int", () => {
    const db = parseRetailDb(FIXTURE);
    expect(at(db, "products", "p1", "variants", "v3", "price")).toEqual(new PyFloat(10));
    expect(at(db, "users", "u2", "payment_methods", "gift_card_2", "balance")).toEqual(new PyFloat(5));
    const w5 = at(db, "orders", "#W5") as PyDict;
    expect((w5.payment_history as PyDict[])[1]?.amount).toEqual(new PyFloat(10));
  });

  it("adds the seven nullable order fields, in declaration order", () => {
    const w1 = at(parseRetailDb(FIXTURE), "orders", "#W1") as PyDict;
    expect(Object.keys(w1)).toEqual([
      "order_id",
      "user_id",
      "address",
      "items",
      "status",
      "fulfillments",
      "payment_history",
      "cancel_reason",
      "exchange_items",
      "exchange_new_items",
      "exchange_payment_method_id",
      "exchange_price_difference",
      "return_items",
      "return_payment_method_id",
    ]);
    expect(w1.exchange_price_difference).toBeNull();
  });

  it("coerces a given exchange_price_difference to float", () => {
    const raw = clone();
    (at(raw, "orders", "#W3") as Record<string, unknown>).exchange_price_difference = 3;
    expect(at(parseRetailDb(raw), "orders", "#W3", "exchange_price_difference")).toEqual(new PyFloat(3));
  });

  it("drops unknown nested keys but rejects unknown root keys", () => {
    const raw = clone();
    (at(raw, "users", "u2") as Record<string, unknown>).nickname = "bobby";
    (at(raw, "users", "u2", "payment_methods", "gift_card_2") as Record<string, unknown>).pin = "0000";
    const db = parseRetailDb(raw);
    expect(at(db, "users", "u2")).not.toHaveProperty("nickname");
    expect(Object.keys(at(db, "users", "u2", "payment_methods", "gift_card_2") as PyDict)).toEqual([
      "source",
      "id",
      "balance",
    ]);
    expect(() => parseRetailDb({ ...clone(), extra: {} })).toThrow();
  });

  it("rejects what pydantic rejects", () => {
    const badZip = clone();
    (at(badZip, "users", "u2", "address") as Record<string, unknown>).zip = 54321;
    expect(() => parseRetailDb(badZip)).toThrow();
    const badStatus = clone();
    (at(badStatus, "orders", "#W1") as Record<string, unknown>).status = "shipped";
    expect(() => parseRetailDb(badStatus)).toThrow();
    const badSource = clone();
    (at(badSource, "users", "u2", "payment_methods", "gift_card_2") as Record<string, unknown>).source =
      "bitcoin";
    expect(() => parseRetailDb(badSource)).toThrow();
  });
});
