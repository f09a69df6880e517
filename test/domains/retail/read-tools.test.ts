/** Retail READ and GENERIC tools: results as tau2 renders them, and their error texts. */
import { describe, expect, it } from "vitest";
import { DbState } from "../../../src/domains/db-state.ts";
import { retailDomain } from "../../../src/domains/retail/index.ts";
import { mutatesState } from "../../../src/domains/toolkit.ts";
import { dataDir } from "./data.ts";
import { call, fixtureState } from "./fixture.ts";

const run = (tool: string, args: string) => call(fixtureState(), tool, args).content;

describe("lookup tools", () => {
  it("find_user_id_by_email matches case-insensitively", () => {
    expect(run("find_user_id_by_email", '{"email": "ann.lee@EXAMPLE.com"}')).toBe("u1");
    expect(run("find_user_id_by_email", '{"email": "nobody@example.com"}')).toBe("Error: User not found");
    expect(run("find_user_id_by_email", '{"email": 5}')).toBe("Error: 'int' object has no attribute 'lower'");
  });

  it("find_user_id_by_name_zip: names case-insensitive, zip exact", () => {
    expect(run("find_user_id_by_name_zip", '{"first_name": "ANN", "last_name": "lee", "zip": "12345"}')).toBe(
      "u1",
    );
    expect(run("find_user_id_by_name_zip", '{"first_name": "Bob", "last_name": "Lee", "zip": "54321"}')).toBe(
      "u2",
    );
    expect(run("find_user_id_by_name_zip", '{"first_name": "Ann", "last_name": "Lee", "zip": 12345}')).toBe(
      "Error: User not found",
    );
    expect(run("find_user_id_by_name_zip", '{"first_name": "Ann", "last_name": "Lee", "zip": "54321"}')).toBe(
      "Error: User not found",
    );
  });

  it("get_item_details returns the variant model (float price stays a number)", () => {
    expect(run("get_item_details", '{"item_id": "m2"}')).toBe(
      '{"item_id": "m2", "options": {"size": "l"}, "available": true, "price": 180.1}',
    );
    expect(run("get_item_details", '{"item_id": "zz"}')).toBe("Error: Item not found");
  });

  it("get_product_details renders an int price from the file as a float", () => {
    expect(run("get_product_details", '{"product_id": "p1"}')).toContain(
      '"v3": {"item_id": "v3", "options": {"color": "green"}, "available": false, "price": 10.0}',
    );
    expect(run("get_product_details", '{"product_id": "p9"}')).toBe("Error: Product not found");
  });

  it("get_order_details / get_user_details return the models with defaults in declaration order", () => {
    const text = run("get_order_details", '{"order_id": "#W4"}');
    expect(text).toContain(
      '"payment_history": [{"transaction_type": "payment", "amount": 195.15, "payment_method_id": "credit_card_1"}], ' +
        '"cancel_reason": null, "exchange_items": null, "exchange_new_items": null, "exchange_payment_method_id": null, ' +
        '"exchange_price_difference": null, "return_items": null, "return_payment_method_id": null}',
    );
    expect(run("get_order_details", '{"order_id": "W4"}')).toBe("Error: Order not found");
    expect(run("get_order_details", '{"order_id": ["#W4"]}')).toBe("Error: unhashable type: 'list'");
    expect(run("get_user_details", '{"user_id": "u2"}')).toContain(
      '"payment_methods": {"gift_card_2": {"source": "gift_card", "id": "gift_card_2", "balance": 5.0}}',
    );
    expect(run("get_user_details", '{"user_id": "u3"}')).toBe("Error: User not found");
  });

  it("list_all_product_types is tau2's own sorted json.dumps text", () => {
    expect(run("list_all_product_types", "{}")).toBe('{"Mug": "p2", "Shirt": "p1"}');
  });

  it("reads the real DB", () => {
    const s = DbState.of(retailDomain.loadAgentDb(dataDir));
    const text = call(s, "get_order_details", '{"order_id": "#W2611340"}').content;
    expect(
      text.startsWith(
        '{"order_id": "#W2611340", "user_id": "james_li_5688", "address": {"address1": "215 River Road"',
      ),
    ).toBe(true);
    expect(JSON.parse(call(s, "list_all_product_types", "{}").content)).toHaveProperty(
      "Water Bottle",
      "8310926033",
    );
  });
});

describe("generic tools", () => {
  it("calculate: Python arithmetic, str(round(float(x), 2))", () => {
    expect(run("calculate", '{"expression": "2 + 2"}')).toBe("4.0");
    expect(run("calculate", '{"expression": "1 / 3"}')).toBe("0.33");
    expect(run("calculate", '{"expression": "2.675 * 1"}')).toBe("2.67");
    expect(run("calculate", '{"expression": "7 // 2"}')).toBe("3.0");
    expect(run("calculate", '{"expression": "-2 ** 2"}')).toBe("-4.0");
    expect(run("calculate", '{"expression": "(318.96 - 289.66) + (180.10 - 195.15)"}')).toBe("14.25");
    expect(run("calculate", '{"expression": "1 / 0"}')).toBe("Error: division by zero");
    expect(run("calculate", '{"expression": "2 + x"}')).toBe("Error: Invalid characters in expression");
  });

  it("transfer_to_human_agents", () => {
    expect(run("transfer_to_human_agents", '{"summary": "help"}')).toBe("Transfer successful");
  });
});

describe("toolkit", () => {
  it("has tau2's 16 tools (no think) and replays exactly the seven WRITE tools", () => {
    const tools = [...retailDomain.agentTools.tools.values()];
    expect(tools.map((t) => t.name).sort()).toEqual([
      "calculate",
      "cancel_pending_order",
      "exchange_delivered_order_items",
      "find_user_id_by_email",
      "find_user_id_by_name_zip",
      "get_item_details",
      "get_order_details",
      "get_product_details",
      "get_user_details",
      "list_all_product_types",
      "modify_pending_order_address",
      "modify_pending_order_items",
      "modify_pending_order_payment",
      "modify_user_address",
      "return_delivered_order_items",
      "transfer_to_human_agents",
    ]);
    expect(
      tools
        .filter(mutatesState)
        .map((t) => t.name)
        .sort(),
    ).toEqual([
      "cancel_pending_order",
      "exchange_delivered_order_items",
      "modify_pending_order_address",
      "modify_pending_order_items",
      "modify_pending_order_payment",
      "modify_user_address",
      "return_delivered_order_items",
    ]);
    expect(retailDomain.supportsSolo).toBe(false);
  });
});
