/**
 * Retail WRITE tools on orders. Checks run in tau2's order with its texts; mutations happen in
 * tau2's order too, and a later raise keeps the earlier ones (tau2 never rolls back).
 */
import { dictKey, pySortedStrings, pyStr, pyZip } from "../../py/builtins.ts";
import { numOf, pyAbs, pyAdd, pyRound, pySub } from "../../py/number.ts";
import { deepClone, type PyFloat, pyEquals } from "../../py/value.ts";
import type { DbState } from "../db-state.ts";
import { model, type ToolDef, ToolError } from "../toolkit.ts";
import { orderPayment, userAddress } from "./construct.ts";
import { checkItemMultiplicity, checkSameLength, firstItemWithId, pricePairs } from "./item-checks.ts";
import {
  arg,
  type FoundMethod,
  getOrder,
  getPaymentMethod,
  getUser,
  isGiftCard,
  mutGiftCard,
  type Order,
  type OrderPayment,
} from "./records.ts";
import { CANCEL_REASONS } from "./schema.ts";

type PyNum = number | PyFloat;

const mutOrder = (db: DbState, key: string): Order => db.mut<Order>("orders", key);

/** `balance = round(balance ± amount, 2)`: tau2 updates a gift card in these two steps. */
function updateGiftCard(db: DbState, found: FoundMethod, delta: (balance: PyNum) => PyNum): void {
  const card = mutGiftCard(db, found);
  card.balance = pyRound(delta(card.balance), 2);
}

export const cancelPendingOrder: ToolDef = {
  name: "cancel_pending_order",
  kind: "write",
  params: [{ name: "order_id" }, { name: "reason" }],
  run(db, args) {
    const { key, record: order } = getOrder(db, arg(args, "order_id"));
    // "pending check A": the exact status.
    if (order.status !== "pending") throw new ToolError("Non-pending order cannot be cancelled");
    const reason = dictKey(arg(args, "reason")); // `reason in {...}` hashes it first
    if (reason === null || !(CANCEL_REASONS as readonly string[]).includes(reason)) {
      throw new ToolError("Invalid reason");
    }
    const refunds: OrderPayment[] = [];
    for (const payment of order.payment_history) {
      refunds.push(orderPayment("refund", payment.amount, payment.payment_method_id));
      // tau2 behaviour: a missing user or method raises mid-loop, after earlier gift cards were credited.
      const user = getUser(db, order.user_id);
      const found = getPaymentMethod(db, user.record.user_id, payment.payment_method_id);
      if (isGiftCard(found.method)) updateGiftCard(db, found, (b) => pyAdd(b, payment.amount));
    }
    const o = mutOrder(db, key);
    o.status = "cancelled";
    o.cancel_reason = reason;
    o.payment_history.push(...refunds);
    return model(o);
  },
};

export const exchangeDeliveredOrderItems: ToolDef = {
  name: "exchange_delivered_order_items",
  kind: "write",
  params: [
    { name: "order_id" },
    { name: "item_ids" },
    { name: "new_item_ids" },
    { name: "payment_method_id" },
  ],
  run(db, args) {
    const itemIds = arg(args, "item_ids");
    const newItemIds = arg(args, "new_item_ids");
    const { key, record: order } = getOrder(db, arg(args, "order_id"));
    if (order.status !== "delivered") throw new ToolError("Non-delivered order cannot be exchanged");
    checkItemMultiplicity(order, itemIds, (id) => `Number of ${id} not found.`);
    checkSameLength(itemIds, newItemIds, "The number of items to be exchanged should match.");
    // Unlike modify-items, the difference is rounded; with no pairs it stays the int 0 (hashed as `0`).
    const diff = pyRound(pricePairs(db, order, itemIds, newItemIds).diff, 2);
    const found = getPaymentMethod(db, order.user_id, arg(args, "payment_method_id"));
    if (isGiftCard(found.method) && numOf(found.method.balance) < numOf(diff)) {
      throw new ToolError("Insufficient gift card balance to pay for the price difference");
    }
    // No payment is booked and no balance changes; only the request is recorded.
    const o = mutOrder(db, key);
    o.status = "exchange requested";
    o.exchange_items = pySortedStrings(itemIds);
    o.exchange_new_items = pySortedStrings(newItemIds);
    o.exchange_payment_method_id = found.methodKey;
    o.exchange_price_difference = diff;
    return model(o);
  },
};

export const modifyPendingOrderItems: ToolDef = {
  name: "modify_pending_order_items",
  kind: "write",
  params: [
    { name: "order_id" },
    { name: "item_ids" },
    { name: "new_item_ids" },
    { name: "payment_method_id" },
  ],
  run(db, args, env) {
    const itemIds = arg(args, "item_ids");
    const newItemIds = arg(args, "new_item_ids");
    const { key, record: order } = getOrder(db, arg(args, "order_id"));
    if (order.status !== "pending") throw new ToolError("Non-pending order cannot be modified");
    checkItemMultiplicity(order, itemIds, (id) => `${id} not found`);
    checkSameLength(itemIds, newItemIds, "The number of items to be exchanged should match");
    const { variants, diff } = pricePairs(db, order, itemIds, newItemIds, (oldId, newId) => {
      if (pyEquals(oldId, newId))
        throw new ToolError("The new item id should be different from the old item id");
    });
    const found = getPaymentMethod(db, order.user_id, arg(args, "payment_method_id"));
    if (isGiftCard(found.method) && numOf(found.method.balance) < numOf(diff)) {
      throw new ToolError("Insufficient gift card balance to pay for the new item");
    }
    const o = mutOrder(db, key);
    // The amount is abs(diff) unrounded (e.g. 14.249999999999943); an empty change books a 0.0 refund.
    o.payment_history.push(
      orderPayment(numOf(diff) > 0 ? "payment" : "refund", pyAbs(diff), found.methodKey),
    );
    if (isGiftCard(found.method)) updateGiftCard(db, found, (b) => pySub(b, diff));
    const lastVariant = variants[variants.length - 1];
    pyZip(itemIds, newItemIds).forEach(([oldId, newId], i) => {
      // Items changed by earlier pairs already carry their new id.
      const item = firstItemWithId(o.items, oldId);
      if (item === undefined) throw new ToolError(`Item ${pyStr(oldId)} not found`);
      // tau2 bug (quirk retailMultiItemPricing): every item gets the price and options of the
      // variant looked up last in the validation loop, not its own.
      const source = env.quirks.retailMultiItemPricing ? lastVariant : variants[i];
      if (source === undefined) throw new Error("modify_pending_order_items: variant missing for a pair");
      item.item_id = newId as string;
      item.price = source.price;
      item.options = deepClone(source.options);
    });
    o.status = "pending (item modified)";
    return model(o);
  },
};

export const modifyPendingOrderPayment: ToolDef = {
  name: "modify_pending_order_payment",
  kind: "write",
  params: [{ name: "order_id" }, { name: "payment_method_id" }],
  run(db, args) {
    const { key, record: order } = getOrder(db, arg(args, "order_id"));
    // "pending check B": a substring test, so "pending (item modified)" passes.
    if (!order.status.includes("pending")) throw new ToolError("Non-pending order cannot be modified");
    const found = getPaymentMethod(db, order.user_id, arg(args, "payment_method_id"));
    const first = order.payment_history[0];
    if (order.payment_history.length !== 1 || first === undefined || first.transaction_type !== "payment") {
      throw new ToolError("There should be exactly one payment for a pending order");
    }
    if (first.payment_method_id === found.methodKey) {
      throw new ToolError("The new payment method should be different from the current one");
    }
    const amount = first.amount;
    if (isGiftCard(found.method) && numOf(found.method.balance) < numOf(amount)) {
      throw new ToolError("Insufficient gift card balance to pay for the order");
    }
    const o = mutOrder(db, key);
    o.payment_history.push(
      orderPayment("payment", amount, found.methodKey),
      orderPayment("refund", amount, first.payment_method_id),
    );
    if (isGiftCard(found.method)) updateGiftCard(db, found, (b) => pySub(b, amount));
    // The old method is looked up only now: if it is missing, the above stays and the call fails.
    const old = getPaymentMethod(db, order.user_id, first.payment_method_id);
    if (isGiftCard(old.method)) updateGiftCard(db, old, (b) => pyAdd(b, amount));
    return model(o);
  },
};

export const ADDRESS_PARAMS = [
  { name: "address1" },
  { name: "address2" },
  { name: "city" },
  { name: "state" },
  { name: "country" },
  { name: "zip" },
];

export const modifyPendingOrderAddress: ToolDef = {
  name: "modify_pending_order_address",
  kind: "write",
  params: [{ name: "order_id" }, ...ADDRESS_PARAMS],
  run(db, args) {
    const { key, record: order } = getOrder(db, arg(args, "order_id"));
    if (!order.status.includes("pending")) throw new ToolError("Non-pending order cannot be modified");
    const address = userAddress(args);
    const o = mutOrder(db, key);
    o.address = address;
    return model(o);
  },
};

export const returnDeliveredOrderItems: ToolDef = {
  name: "return_delivered_order_items",
  kind: "write",
  params: [{ name: "order_id" }, { name: "item_ids" }, { name: "payment_method_id" }],
  run(db, args) {
    const itemIds = arg(args, "item_ids");
    const { key, record: order } = getOrder(db, arg(args, "order_id"));
    if (order.status !== "delivered") throw new ToolError("Non-delivered order cannot be returned");
    const user = getUser(db, order.user_id);
    const found = getPaymentMethod(db, user.record.user_id, arg(args, "payment_method_id"));
    if (!isGiftCard(found.method)) {
      const first = order.payment_history[0];
      if (first === undefined) throw new ToolError("list index out of range"); // Python IndexError
      if (first.payment_method_id !== found.methodKey) {
        throw new ToolError("Payment method should be the original payment method");
      }
    }
    checkItemMultiplicity(order, itemIds, () => "Some item not found");
    // A return request only; no refund is booked.
    const o = mutOrder(db, key);
    o.status = "return requested";
    o.return_items = pySortedStrings(itemIds);
    o.return_payment_method_id = found.methodKey;
    return model(o);
  },
};
