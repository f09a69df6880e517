/**
 * Models that retail tools construct go through pydantic validation (unlike attribute assignments):
 * `UserAddress(...)` requires six strings, `OrderPayment(...)` stores its amount as a float.
 */
import { coerceStr } from "../../py/lax.ts";
import { construct, modelOf, scalar } from "../../py/pydantic-models.ts";
import { type PyDict, PyFloat } from "../../py/value.ts";
import type { Args } from "../toolkit.ts";
import type { Address, OrderPayment } from "./records.ts";
import { USER_ADDRESS_FIELDS } from "./schema.ts";

const UserAddress = modelOf(
  "UserAddress",
  USER_ADDRESS_FIELDS.map((name) => ({ name, check: scalar(coerceStr) })),
);

/** `UserAddress(address1=..., ...)`: fields in declaration order; any non-string raises a ValidationError. */
export const userAddress = (args: Args): Address =>
  construct("UserAddress", UserAddress, args as PyDict) as unknown as Address;

/** `OrderPayment(...)`: the amount field is a float, so an int amount (e.g. `abs(0)`) becomes `0.0`. */
export function orderPayment(
  transactionType: "payment" | "refund",
  amount: number | PyFloat,
  paymentMethodId: string,
): OrderPayment {
  const asFloat = amount instanceof PyFloat ? amount : new PyFloat(amount);
  return { transaction_type: transactionType, amount: asFloat, payment_method_id: paymentMethodId };
}
