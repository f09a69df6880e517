/**
 * Retail's policy clauses, each licensing (or not breaking) and breaking or withholding its license.
 * Most retail preconditions are also enforced by tau2's tools: a call that breaks them fails and changes
 * nothing, so it is an `attempted` breach (an `attempted_violation` cause), and withholds its license.
 */
import { describe, expect, it } from "vitest";
import { gradeCalls, outcomes, rejectedClauses, step } from "./harness.ts";

const V0 = "v0.2.0_f8de30c";
const HEAD = "head";

// Task 74's user (lei_li_6575) has pending #W3189752 (paid with paypal_5914760) and delivered
// #W6289770 (paid with credit_card_4466831), plus gift card gift_card_8049813.
const LEI = "74";
const PENDING = "#W3189752";
const DELIVERED = "#W6289770";
// Task 97's user (yusuf_li_7255) has pending #W6750959 (paid with paypal_8080730); its reference changes
// the address, then the items, and its user asks for the items first.
const YUSUF = "97";
// Task 40's user (isabella_lopez_6490) has pending #W4923227 (paid with credit_card_8554680).
const ISABELLA = "40";
// Task 18's user (mei_davis_8935) has delivered #W2890441 with office chair 8069050545, and pending #W1267569.
const CHAIR = "18";

const CANCEL_STATUS = "retail.cancel_pending_order.status_pending";
const CANCEL_REASONS = "retail.cancel_pending_order.allowed_reasons";
const MODIFY_STATUS = "retail.modify_pending_order.status_pending";
const MODIFIED_ONCE = "retail.modify_pending_order.items_modified_once";
const PAYMENT_DIFFERENT = "retail.modify_pending_order_payment.different_method";
const RETURN_STATUS = "retail.return_delivered_order_items.status_delivered";
const REFUND_METHOD = "retail.return_delivered_order_items.refund_method";
const EXCHANGE_STATUS = "retail.exchange_delivered_order_items.status_delivered";
const SAME_ITEM = "retail.exchange_delivered_order_items.different_option";
const MODIFY_ONE_FOR_ONE = "retail.modify_pending_order_items.one_for_one";
const EXCHANGE_ONE_FOR_ONE = "retail.exchange_delivered_order_items.one_for_one";

const cancel = (order_id: string, reason: string) => step("cancel_pending_order", { order_id, reason });
const newAddress = {
  address1: "476 Maple Drive",
  address2: "Suite 432",
  city: "New York",
  country: "USA",
  state: "NY",
  zip: "10093",
};
const modifyAddress = step("modify_pending_order_address", { order_id: "#W6750959", ...newAddress });
const modifyItems = step("modify_pending_order_items", {
  order_id: "#W6750959",
  item_ids: ["3254583681"],
  new_item_ids: ["9440686670"],
  payment_method_id: "paypal_8080730",
});
const returnItem = (order_id: string, payment_method_id: string) =>
  step("return_delivered_order_items", { order_id, item_ids: ["8098621301"], payment_method_id });
const exchangeChair = (order_id: string, newItem: string) =>
  step("exchange_delivered_order_items", {
    order_id,
    item_ids: ["8069050545"],
    new_item_ids: [newItem],
    payment_method_id: "credit_card_1061405",
  });

describe("retail clause files", () => {
  it("verify against the retail data", () => {
    expect(rejectedClauses(gradeCalls("retail", HEAD, LEI, [cancel(PENDING, "no longer needed")]))).toEqual(
      [],
    );
  });
});

describe("retail cancellation clauses", () => {
  it("cancel_pending_order.status_pending: satisfied by a pending order; a delivered one is refused", () => {
    const ok = gradeCalls("retail", HEAD, LEI, [cancel(PENDING, "no longer needed")]);
    expect(outcomes(ok, CANCEL_STATUS)).toEqual(["satisfied"]);
    const delivered = gradeCalls("retail", HEAD, LEI, [cancel(DELIVERED, "no longer needed")]);
    expect(outcomes(delivered, CANCEL_STATUS)).toEqual(["attempted"]);
    // tau2 refuses it: an attempt, not a break. The reason alone still holds.
    expect(outcomes(delivered, CANCEL_REASONS)).toEqual(["satisfied"]);
  });

  it("cancel_pending_order.allowed_reasons: satisfied by the two reasons, by no other", () => {
    for (const reason of ["no longer needed", "ordered by mistake"]) {
      const ok = gradeCalls("retail", HEAD, LEI, [cancel(PENDING, reason)]);
      expect(outcomes(ok, CANCEL_REASONS)).toEqual(["satisfied"]);
    }
    const other = gradeCalls("retail", HEAD, LEI, [cancel(PENDING, "found a better price")]);
    expect(outcomes(other, CANCEL_REASONS)).toEqual(["attempted"]);
    expect(outcomes(other, CANCEL_STATUS)).toEqual(["satisfied"]);
  });
});

describe("retail modification clauses", () => {
  it("modify_pending_order.status_pending: address then items satisfies it twice; items then address breaks on the address", () => {
    const gold = gradeCalls("retail", HEAD, YUSUF, [modifyAddress, modifyItems]);
    expect(gold.tau3.reward).toBe(1);
    expect(outcomes(gold, MODIFY_STATUS)).toEqual(["satisfied", "satisfied"]);
    const reversed = gradeCalls("retail", HEAD, YUSUF, [modifyItems, modifyAddress]);
    // τ³ sees the same end state; the address change hit an order whose items were already modified.
    expect(reversed.tau3.reward).toBe(1);
    expect(outcomes(reversed, MODIFY_STATUS)).toEqual(["satisfied", "broken"]);
    expect(reversed.structured.pass).toBe(false);
    const cause = reversed.structured.causes.find((c) => c.reference === MODIFY_STATUS);
    expect(cause?.toolName).toBe("modify_pending_order_address");
    expect(cause?.message).toContain('order.status = "pending (item modified)"');
  });

  it("modify_pending_order.status_pending: a delivered order's address change is refused and not licensed", () => {
    const g = gradeCalls("retail", HEAD, LEI, [
      step("modify_pending_order_address", { order_id: DELIVERED, ...newAddress }),
    ]);
    expect(outcomes(g, MODIFY_STATUS)).toEqual(["attempted"]);
  });

  it("modify_pending_order.items_modified_once: silent before the items change, broken by an address change after it", () => {
    expect(outcomes(gradeCalls("retail", HEAD, YUSUF, [modifyAddress, modifyItems]), MODIFIED_ONCE)).toEqual(
      [],
    );
    const after = gradeCalls("retail", HEAD, YUSUF, [
      modifyItems,
      modifyAddress,
      // tau2 refuses this itself (the status is not "pending"): it changes nothing, an attempt.
      cancel("#W6750959", "no longer needed"),
    ]);
    expect(outcomes(after, MODIFIED_ONCE)).toEqual(["broken", "attempted"]);
    expect(after.structured.causes.find((c) => c.reference === MODIFIED_ONCE)?.toolName).toBe(
      "modify_pending_order_address",
    );
  });

  it("modify_pending_order_payment.different_method: satisfied by another method, not by the original", () => {
    const other = gradeCalls("retail", HEAD, ISABELLA, [
      step("modify_pending_order_payment", {
        order_id: "#W4923227",
        payment_method_id: "credit_card_8897086",
      }),
    ]);
    expect(outcomes(other, PAYMENT_DIFFERENT)).toEqual(["satisfied"]);
    expect(outcomes(other, MODIFY_STATUS)).toEqual(["satisfied"]);
    const same = gradeCalls("retail", HEAD, ISABELLA, [
      step("modify_pending_order_payment", {
        order_id: "#W4923227",
        payment_method_id: "credit_card_8554680",
      }),
    ]);
    expect(outcomes(same, PAYMENT_DIFFERENT)).toEqual(["attempted"]);
  });
});

describe("retail return and exchange clauses", () => {
  it("return_delivered_order_items.status_delivered: satisfied by a delivered order; a pending one is refused", () => {
    const ok = gradeCalls("retail", HEAD, LEI, [returnItem(DELIVERED, "credit_card_4466831")]);
    expect(outcomes(ok, RETURN_STATUS)).toEqual(["satisfied"]);
    const pending = gradeCalls("retail", HEAD, LEI, [
      step("return_delivered_order_items", {
        order_id: PENDING,
        item_ids: ["5268233322"],
        payment_method_id: "paypal_5914760",
      }),
    ]);
    expect(outcomes(pending, RETURN_STATUS)).toEqual(["attempted"]);
  });

  it("return_delivered_order_items.refund_method: the original method or a gift card; another method is not licensed", () => {
    const original = gradeCalls("retail", HEAD, LEI, [returnItem(DELIVERED, "credit_card_4466831")]);
    expect(outcomes(original, REFUND_METHOD)).toEqual(["satisfied"]);
    const giftCard = gradeCalls("retail", HEAD, LEI, [returnItem(DELIVERED, "gift_card_8049813")]);
    expect(outcomes(giftCard, REFUND_METHOD)).toEqual(["satisfied"]);
    const paypal = gradeCalls("retail", HEAD, LEI, [returnItem(DELIVERED, "paypal_5914760")]);
    expect(outcomes(paypal, REFUND_METHOD)).toEqual(["attempted"]);
    expect(outcomes(paypal, RETURN_STATUS)).toEqual(["satisfied"]);
  });

  it("exchange_delivered_order_items.status_delivered: satisfied by a delivered order; a pending one is refused", () => {
    const ok = gradeCalls("retail", HEAD, CHAIR, [exchangeChair("#W2890441", "1071497737")]);
    expect(outcomes(ok, EXCHANGE_STATUS)).toEqual(["satisfied"]);
    const pending = gradeCalls("retail", HEAD, CHAIR, [
      step("exchange_delivered_order_items", {
        order_id: "#W1267569",
        item_ids: ["7420906769"],
        new_item_ids: ["8896479688"],
        payment_method_id: "credit_card_1061405",
      }),
    ]);
    expect(outcomes(pending, EXCHANGE_STATUS)).toEqual(["attempted"]);
  });

  it("exchange_delivered_order_items.different_option: another option passes; the very same item breaks", () => {
    const other = gradeCalls("retail", HEAD, CHAIR, [exchangeChair("#W2890441", "1071497737")]);
    expect(outcomes(other, SAME_ITEM)).toEqual([]);
    // v0.2.0's reference for task 18 exchanged the chair for itself (τ³-bench 1.0 fixed the task).
    const same = gradeCalls("retail", V0, CHAIR, [exchangeChair("#W2890441", "8069050545")]);
    expect(same.tau3.reward).toBe(1);
    expect(outcomes(same, SAME_ITEM)).toEqual(["broken"]);
    expect(same.structured.pass).toBe(false);
    // A prohibition never licenses, and the status requirement being met does not outweigh the break.
    expect(outcomes(same, EXCHANGE_STATUS)).toEqual(["satisfied"]);
  });

  it("exchange_delivered_order_items.different_option: an exchange of no items is not read as a same-item exchange", () => {
    const empty = gradeCalls("retail", HEAD, CHAIR, [
      step("exchange_delivered_order_items", {
        order_id: "#W2890441",
        item_ids: [],
        new_item_ids: [],
        payment_method_id: "credit_card_1061405",
      }),
    ]);
    expect(outcomes(empty, SAME_ITEM)).toEqual([]);
  });
});

describe("retail item lists: one new item for each item", () => {
  const modify = (item_ids: string[], new_item_ids: string[]) =>
    step("modify_pending_order_items", {
      order_id: "#W6750959",
      item_ids,
      new_item_ids,
      payment_method_id: "paypal_8080730",
    });

  it("modify_pending_order_items.one_for_one: silent for an item modified to one new item", () => {
    const g = gradeCalls("retail", HEAD, YUSUF, [modify(["3254583681"], ["9440686670"])]);
    expect(outcomes(g, MODIFY_ONE_FOR_ONE)).toEqual([]);
  });

  it("modify_pending_order_items.one_for_one: an item removed (no new item) is an attempted violation the tool refuses", () => {
    // As the agent of simulation 9063871b did (#18): remove items from a pending order.
    const g = gradeCalls("retail", HEAD, YUSUF, [modify(["3254583681"], [])]);
    expect(outcomes(g, MODIFY_ONE_FOR_ONE)).toEqual(["attempted"]);
    const found = g.structured.causes.filter((c) => c.reference === MODIFY_ONE_FOR_ONE);
    expect(found.map((c) => [c.kind, c.gates])).toEqual([["attempted_violation", false]]);
  });

  it("exchange_delivered_order_items.one_for_one: two items for one is an attempted violation; one for one is silent", () => {
    const exchange = (item_ids: string[], new_item_ids: string[]) =>
      step("exchange_delivered_order_items", {
        order_id: "#W2890441",
        item_ids,
        new_item_ids,
        payment_method_id: "credit_card_1061405",
      });
    const twoForOne = gradeCalls("retail", HEAD, CHAIR, [
      exchange(["8069050545", "8069050545"], ["1071497737"]),
    ]);
    expect(outcomes(twoForOne, EXCHANGE_ONE_FOR_ONE)).toEqual(["attempted"]);
    const oneForOne = gradeCalls("retail", HEAD, CHAIR, [exchange(["8069050545"], ["1071497737"])]);
    expect(outcomes(oneForOne, EXCHANGE_ONE_FOR_ONE)).toEqual([]);
  });
});
