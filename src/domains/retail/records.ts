/**
 * Record shapes of the retail DB (as the schema produces them) and tau2's `_get_*` lookups with
 * their error texts. Lookups return read-only views; writers call `db.mut` on the enclosing record.
 */
import { dictKey } from "../../py/builtins.ts";
import type { PyFloat, PyValue } from "../../py/value.ts";
import type { DbState } from "../db-state.ts";
import { type Args, ToolError } from "../toolkit.ts";

/** A bound argument (keyword binding guarantees every declared parameter is present). */
export const arg = (args: Args, name: string): PyValue => args[name] as PyValue;

export type Options = { [name: string]: string };
export type Variant = { item_id: string; options: Options; available: boolean; price: PyFloat };
export type Product = { name: string; product_id: string; variants: { [id: string]: Variant } };
export type Address = {
  address1: string;
  address2: string;
  city: string;
  country: string;
  state: string;
  zip: string;
};
export type GiftCard = { source: "gift_card"; id: string; balance: PyFloat | number };
export type PaymentMethod =
  | { source: "credit_card"; id: string; brand: string; last_four: string }
  | GiftCard
  | { source: "paypal"; id: string };
export type User = {
  user_id: string;
  name: { first_name: string; last_name: string };
  address: Address;
  email: string;
  payment_methods: { [id: string]: PaymentMethod };
  orders: string[];
};
export type OrderItem = {
  name: string;
  product_id: string;
  item_id: string;
  price: PyFloat;
  options: Options;
};
export type OrderPayment = {
  transaction_type: "payment" | "refund";
  amount: PyFloat;
  payment_method_id: string;
};
export type Order = {
  order_id: string;
  user_id: string;
  address: Address;
  items: OrderItem[];
  status: string;
  fulfillments: { tracking_id: string[]; item_ids: string[] }[];
  payment_history: OrderPayment[];
  cancel_reason: string | null;
  exchange_items: string[] | null;
  exchange_new_items: string[] | null;
  exchange_payment_method_id: string | null;
  /** A float, except the int 0 tau2 stores for an exchange of empty lists. */
  exchange_price_difference: PyFloat | number | null;
  return_items: string[] | null;
  return_payment_method_id: string | null;
};

/** A record found by key: the key to `mut` it with and a read-only view. */
export interface Found<T> {
  readonly key: string;
  readonly record: T;
}

function lookup<T>(db: DbState, field: string, id: PyValue, notFound: string): Found<T> {
  const key = dictKey(id);
  const record = key === null ? undefined : db.get(field, key);
  if (key === null || record === undefined) throw new ToolError(notFound);
  return { key, record: record as unknown as T };
}

export const getOrder = (db: DbState, orderId: PyValue): Found<Order> =>
  lookup<Order>(db, "orders", orderId, "Order not found");

export const getUser = (db: DbState, userId: PyValue): Found<User> =>
  lookup<User>(db, "users", userId, "User not found");

export const getProduct = (db: DbState, productId: PyValue): Found<Product> =>
  lookup<Product>(db, "products", productId, "Product not found");

/** `_get_variant`: product lookup first, then the variant within it. */
export function getVariant(db: DbState, productId: PyValue, variantId: PyValue): Variant {
  const product = getProduct(db, productId).record;
  const key = dictKey(variantId);
  const variant = key === null ? undefined : product.variants[key];
  if (key === null || variant === undefined || !Object.hasOwn(product.variants, key)) {
    throw new ToolError("Variant not found");
  }
  return variant;
}

/** `_get_item`: the first product (in dict order) that has a variant with this id. */
export function getItem(db: DbState, itemId: PyValue): Variant {
  for (const productId of db.keys("products")) {
    const product = db.get("products", productId) as unknown as Product;
    const key = dictKey(itemId);
    if (key !== null && Object.hasOwn(product.variants, key)) return product.variants[key] as Variant;
  }
  throw new ToolError("Item not found");
}

/** A user's payment method, with the keys needed to update a gift-card balance. */
export interface FoundMethod {
  readonly userKey: string;
  readonly methodKey: string;
  readonly method: PaymentMethod;
}

/** `_get_payment_method`: looks the user up first ("User not found"), then the method. */
export function getPaymentMethod(db: DbState, userId: PyValue, methodId: PyValue): FoundMethod {
  const user = getUser(db, userId);
  const methodKey = dictKey(methodId);
  if (methodKey === null || !Object.hasOwn(user.record.payment_methods, methodKey)) {
    throw new ToolError("Payment method not found");
  }
  return { userKey: user.key, methodKey, method: user.record.payment_methods[methodKey] as PaymentMethod };
}

export const isGiftCard = (m: PaymentMethod): m is GiftCard => m.source === "gift_card";

/** The writable gift card inside the (cloned) user record. */
export function mutGiftCard(db: DbState, found: FoundMethod): GiftCard {
  const user = db.mut<User>("users", found.userKey);
  return user.payment_methods[found.methodKey] as GiftCard;
}
