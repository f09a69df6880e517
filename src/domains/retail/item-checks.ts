/**
 * The item validation shared by exchange and modify-items: multiplicity of the requested ids,
 * matching lengths, and the per-pair variant lookup with the running price difference.
 */
import { pyCount, pyIter, pyLen, pyStr, pyZip } from "../../py/builtins.ts";
import { pyAdd, pySub } from "../../py/number.ts";
import { type PyFloat, type PyValue, pyEquals } from "../../py/value.ts";
import type { DbState } from "../db-state.ts";
import { ToolError } from "../toolkit.ts";
import { getVariant, type Order, type OrderItem, type Variant } from "./records.ts";

/** Raises `message(id)` when an id occurs more often in `itemIds` than among the order's items. */
export function checkItemMultiplicity(order: Order, itemIds: PyValue, message: (id: string) => string): void {
  const orderItemIds = order.items.map((i) => i.item_id);
  for (const id of pyIter(itemIds)) {
    if (pyCount(itemIds, id) > pyCount(orderItemIds, id)) throw new ToolError(message(pyStr(id)));
  }
}

export function checkSameLength(itemIds: PyValue, newItemIds: PyValue, message: string): void {
  if (pyLen(itemIds) !== pyLen(newItemIds)) throw new ToolError(message);
}

/** The first order item whose current id equals `id` (Python `next(...)` over `order.items`). */
export const firstItemWithId = (items: readonly OrderItem[], id: PyValue): OrderItem | undefined =>
  items.find((i) => pyEquals(i.item_id, id));

export interface PricedPairs {
  /** The looked-up variant of each (old, new) pair, in order. */
  readonly variants: Variant[];
  /** Σ (new price − old price) in pair order; starts as the int 0, so it stays 0 for no pairs. */
  readonly diff: number | PyFloat;
}

/**
 * The validation loop over (old id, new id) pairs: old item, new variant of the same product,
 * availability, and the price difference accumulated in Python's order of float operations.
 */
export function pricePairs(
  db: DbState,
  order: Order,
  itemIds: PyValue,
  newItemIds: PyValue,
  beforeEach?: (oldId: PyValue, newId: PyValue) => void,
): PricedPairs {
  const variants: Variant[] = [];
  let diff: number | PyFloat = 0;
  for (const [oldId, newId] of pyZip(itemIds, newItemIds)) {
    beforeEach?.(oldId, newId);
    const item = firstItemWithId(order.items, oldId);
    if (item === undefined) throw new ToolError(`Item ${pyStr(oldId)} not found`);
    const variant = getVariant(db, item.product_id, newId);
    if (!variant.available) throw new ToolError(`New item ${pyStr(newId)} not found or available`);
    diff = pyAdd(diff, pySub(variant.price, item.price));
    variants.push(variant);
  }
  return { variants, diff };
}
