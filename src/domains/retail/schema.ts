/**
 * tau2's RetailDB pydantic models as zod schemas. Parsing yields the Python-typed value that
 * `model_dump()` would give: fields in declaration order, float fields as `PyFloat`, the seven
 * nullable order fields materialised, unknown keys of nested models dropped, unknown root keys rejected.
 */
import { pyBoolField, pyFloatField } from "../../py/pydantic-zod.ts";
import type { PyDict } from "../../py/value.ts";
import { z } from "../../util/zod.ts";

const variantSchema = z.object({
  item_id: z.string(),
  options: z.record(z.string(), z.string()),
  available: pyBoolField,
  price: pyFloatField,
});

const productSchema = z.object({
  name: z.string(),
  product_id: z.string(),
  variants: z.record(z.string(), variantSchema),
});

const userNameSchema = z.object({ first_name: z.string(), last_name: z.string() });

/** UserAddress, in pydantic declaration order (country before state). */
export const userAddressSchema = z.object({
  address1: z.string(),
  address2: z.string(),
  city: z.string(),
  country: z.string(),
  state: z.string(),
  zip: z.string(),
});
export const USER_ADDRESS_FIELDS = ["address1", "address2", "city", "country", "state", "zip"] as const;

// The union picks the member whose `source` literal matches; `source` and `id` come first (base class).
const paymentMethodSchema = z.discriminatedUnion("source", [
  z.object({ source: z.literal("credit_card"), id: z.string(), brand: z.string(), last_four: z.string() }),
  z.object({ source: z.literal("gift_card"), id: z.string(), balance: pyFloatField }),
  z.object({ source: z.literal("paypal"), id: z.string() }),
]);

const userSchema = z.object({
  user_id: z.string(),
  name: userNameSchema,
  address: userAddressSchema,
  email: z.string(),
  payment_methods: z.record(z.string(), paymentMethodSchema),
  orders: z.array(z.string()),
});

const orderItemSchema = z.object({
  name: z.string(),
  product_id: z.string(),
  item_id: z.string(),
  price: pyFloatField,
  options: z.record(z.string(), z.string()),
});

const orderPaymentSchema = z.object({
  transaction_type: z.enum(["payment", "refund"]),
  amount: pyFloatField,
  payment_method_id: z.string(),
});

export const ORDER_STATUSES = [
  "processed",
  "pending",
  "pending (item modified)",
  "delivered",
  "cancelled",
  "exchange requested",
  "return requested",
] as const;

export const CANCEL_REASONS = ["no longer needed", "ordered by mistake"] as const;

const orderSchema = z.object({
  order_id: z.string(),
  user_id: z.string(),
  address: userAddressSchema,
  items: z.array(orderItemSchema),
  status: z.enum(ORDER_STATUSES),
  fulfillments: z.array(z.object({ tracking_id: z.array(z.string()), item_ids: z.array(z.string()) })),
  payment_history: z.array(orderPaymentSchema),
  // Optional fields with a default: the dump always contains them (null when absent from the file).
  cancel_reason: z.enum(CANCEL_REASONS).nullable().default(null),
  exchange_items: z.array(z.string()).nullable().default(null),
  exchange_new_items: z.array(z.string()).nullable().default(null),
  exchange_payment_method_id: z.string().nullable().default(null),
  exchange_price_difference: pyFloatField.nullable().default(null),
  return_items: z.array(z.string()).nullable().default(null),
  return_payment_method_id: z.string().nullable().default(null),
});

/** The DB root forbids unknown keys (tau2's `DB` is a `BaseModelNoExtra`). */
export const retailDbSchema = z.strictObject({
  products: z.record(z.string(), productSchema),
  users: z.record(z.string(), userSchema),
  orders: z.record(z.string(), orderSchema),
});

/** Validates raw DB data (plain JSON, or a dump carrying `PyFloat`s) into the Python-typed root. */
export function parseRetailDb(raw: unknown): PyDict {
  return retailDbSchema.parse(raw) as unknown as PyDict;
}
