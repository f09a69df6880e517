/**
 * Bill construction shared by `refuel_data` (one-time charges) and `suspend_line_for_overdue_bill`.
 * Objects tau2 constructs (`Bill(...)`, `LineItem(...)`) are validated, so they go through the schema.
 */
import { checkedAdd } from "../../py/arith.ts";
import { sha256Hex } from "../../py/json.ts";
import { isNum, numOf } from "../../py/number.ts";
import { constructWithSchema } from "../../py/pydantic-zod.ts";
import type { PyDict, PyFloat, PyValue } from "../../py/value.ts";
import type { DbState } from "../db-state.ts";
import { ToolError } from "../toolkit.ts";
import { billIndex, customerIndex, rec, TODAY } from "./records.ts";
import { billSchema, lineItemSchema } from "./schema.ts";

/** `Bill(**fields)`: validated and defaulted. */
export const newBill = (fields: Record<string, PyValue>): PyDict =>
  constructWithSchema(billSchema, "Bill", fields);

/** `LineItem(...)` dated today, validated. */
export const newLineItem = (description: PyValue, amount: PyValue, itemType: string): PyDict =>
  constructWithSchema(lineItemSchema, "LineItem", { description, amount, date: TODAY, item_type: itemType });

/** `x += amount` on a stored number (tool assignments keep Python's int/float result type). */
export const addTo = (current: PyValue | undefined, amount: number | PyFloat | boolean): number | PyFloat =>
  checkedAdd(current, amount, "+=");

/**
 * Port difference: tau2 names a new draft bill `B` + 8 hex digits of a random uuid4, so the gold and
 * the predicted DB can never agree on it. Here the id is derived from the customer and the number of
 * bills (8 hex digits of a sha256), so a replay is reproducible; it skips ids already present.
 */
function draftBillId(db: DbState, customerId: PyValue): string {
  for (let salt = 0; ; salt++) {
    const id = `B${sha256Hex(`${String(customerId)}:${db.length("bills")}:${salt}`).slice(0, 8)}`;
    if (db.findIndex("bills", (b) => (b as PyDict).bill_id === id) < 0) return id;
  }
}

/**
 * `_apply_one_time_charge`: adds a line item to the customer's first Draft bill (in `bill_ids`
 * order), creating next month's draft (March 2025) when there is none; `total_due += amount`.
 */
export function applyOneTimeCharge(
  db: DbState,
  customerId: PyValue,
  amount: PyValue,
  description: string,
): void {
  const ci = customerIndex(db, customerId);
  let draft = -1;
  for (const billId of rec(db, "customers", ci).bill_ids as PyValue[]) {
    const bi = billIndex(db, billId);
    if (rec(db, "bills", bi).status === "Draft") {
      draft = bi;
      break;
    }
  }
  if (draft < 0) {
    const billId = draftBillId(db, customerId);
    const bill = newBill({
      bill_id: billId,
      customer_id: customerId,
      period_start: "2025-03-01",
      period_end: "2025-03-31",
      issue_date: "2025-03-01",
      total_due: 0,
      due_date: "2025-03-15",
      status: "Draft",
    });
    db.push("bills", bill);
    (db.mutAt("customers", ci).bill_ids as PyValue[]).push(billId);
    draft = db.length("bills") - 1;
  }
  if (!isNum(amount)) throw new ToolError("one-time charge amount must be a number");
  const item = newLineItem(description, amount, numOf(amount) < 0 ? "Credit" : "Charge");
  const bill = db.mutAt("bills", draft);
  (bill.line_items as PyValue[]).push(item);
  bill.total_due = addTo(bill.total_due, amount);
}
