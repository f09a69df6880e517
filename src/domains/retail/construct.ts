/**
 * Models that retail tools construct go through pydantic validation (unlike attribute assignments):
 * `UserAddress(...)` requires six strings, `OrderPayment(...)` stores its amount as a float.
 */
import { PyFloat, type PyValue, pyTypeName } from "../../formats/py/value.ts";
import { type Args, ToolError } from "../toolkit.ts";
import { pyRepr } from "./py-ops.ts";
import type { Address, OrderPayment } from "./records.ts";
import { USER_ADDRESS_FIELDS } from "./schema.ts";

/** The pydantic version of the oracle, embedded in ValidationError texts (only cosmetic). */
const PYDANTIC_DOCS_VERSION = "2.13";

/** `UserAddress(address1=..., ...)`: fields in declaration order; any non-string raises a ValidationError. */
export function userAddress(args: Args): Address {
  const errors: string[] = [];
  for (const field of USER_ADDRESS_FIELDS) {
    const v = args[field] as PyValue;
    if (typeof v !== "string") {
      errors.push(
        `${field}\n  Input should be a valid string [type=string_type, input_value=${pyRepr(v)}, input_type=${pyTypeName(v)}]\n` +
          `    For further information visit https://errors.pydantic.dev/${PYDANTIC_DOCS_VERSION}/v/string_type`,
      );
    }
  }
  if (errors.length > 0) {
    const s = errors.length === 1 ? "" : "s";
    throw new ToolError(`${errors.length} validation error${s} for UserAddress\n${errors.join("\n")}`);
  }
  const a = args as Readonly<Record<string, string>>;
  return {
    address1: a.address1 as string,
    address2: a.address2 as string,
    city: a.city as string,
    country: a.country as string,
    state: a.state as string,
    zip: a.zip as string,
  };
}

/** `OrderPayment(...)`: the amount field is a float, so an int amount (e.g. `abs(0)`) becomes `0.0`. */
export function orderPayment(
  transactionType: "payment" | "refund",
  amount: number | PyFloat,
  paymentMethodId: string,
): OrderPayment {
  const asFloat = amount instanceof PyFloat ? amount : new PyFloat(amount);
  return { transaction_type: transactionType, amount: asFloat, payment_method_id: paymentMethodId };
}
