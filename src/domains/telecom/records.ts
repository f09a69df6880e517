/**
 * Agent-DB lookups, as tau2's `TelecomTools` helpers do them: linear scans of the lists comparing with
 * Python `==`, raising `ValueError` texts. They return list indices so callers can read (`at`) or
 * write (`mutAt`) the record.
 */
import { pyStr } from "../../py/builtins.ts";
import type { PyDict, PyValue } from "../../py/value.ts";
import { pyEquals } from "../../py/value.ts";
import type { DbState } from "../db-state.ts";
import { ToolError } from "../toolkit.ts";

/** tau2's telecom "today" (`get_today()`), as a date text. */
export const TODAY = "2025-02-25";

/** A read-only view of list item `i` of `field`. */
export const rec = (db: DbState, field: string, i: number): PyDict => db.at(field, i) as PyDict;

const indexWhere = (db: DbState, field: string, key: string, value: PyValue | undefined): number =>
  db.findIndex(field, (item) => pyEquals((item as PyDict)[key], value as PyValue));

/** Python `x in list` (membership by `==`). */
export const pyIn = (value: PyValue | undefined, list: PyValue | undefined): boolean =>
  Array.isArray(list) && list.some((x) => pyEquals(x, value as PyValue));

export function customerIndex(db: DbState, customerId: PyValue): number {
  const i = indexWhere(db, "customers", "customer_id", customerId);
  if (i < 0) throw new ToolError(`Customer with ID ${pyStr(customerId)} not found`);
  return i;
}

export function lineIndex(db: DbState, lineId: PyValue): number {
  const i = indexWhere(db, "lines", "line_id", lineId);
  if (i < 0) throw new ToolError(`Line with ID ${pyStr(lineId)} not found`);
  return i;
}

export function lineIndexByPhone(db: DbState, phone: PyValue): number {
  const i = indexWhere(db, "lines", "phone_number", phone);
  if (i < 0) throw new ToolError(`Line with phone number ${pyStr(phone)} not found`);
  return i;
}

export function planOf(db: DbState, planId: PyValue): PyDict {
  const i = indexWhere(db, "plans", "plan_id", planId);
  if (i < 0) throw new ToolError(`Plan with ID ${pyStr(planId)} not found`);
  return rec(db, "plans", i);
}

export function deviceIndex(db: DbState, deviceId: PyValue): number {
  const i = indexWhere(db, "devices", "device_id", deviceId);
  if (i < 0) throw new ToolError(`Device with ID ${pyStr(deviceId)} not found`);
  return i;
}

export function billIndex(db: DbState, billId: PyValue): number {
  const i = indexWhere(db, "bills", "bill_id", billId);
  if (i < 0) throw new ToolError(`Bill with ID ${pyStr(billId)} not found`);
  return i;
}

/** `_get_target_line`: the customer must own the line (by `line_ids`), then the line must exist. */
export function targetLineIndex(db: DbState, customerId: PyValue, lineId: PyValue): number {
  const customer = rec(db, "customers", customerIndex(db, customerId));
  if (!pyIn(lineId, customer.line_ids)) {
    throw new ToolError(`Line ${pyStr(lineId)} not found for customer ${pyStr(customerId)}`);
  }
  return lineIndex(db, lineId);
}

/** `get_customer_by_phone`: primary number first, then each owned line (a dangling line id raises). */
export function customerIndexByPhone(db: DbState, phone: PyValue): number {
  const n = db.length("customers");
  for (let i = 0; i < n; i++) {
    const customer = rec(db, "customers", i);
    if (pyEquals(customer.phone_number as PyValue, phone)) return i;
    for (const lineId of customer.line_ids as PyValue[]) {
      if (pyEquals(rec(db, "lines", lineIndex(db, lineId)).phone_number as PyValue, phone)) return i;
    }
  }
  throw new ToolError(`Customer with phone number ${pyStr(phone)} not found`);
}

/** Indices of the customer's bills (in `bill_ids` order) with the given status; dangling ids raise. */
export function customerBillsWithStatus(db: DbState, customer: PyDict, status: string): number[] {
  const out: number[] = [];
  for (const billId of customer.bill_ids as PyValue[]) {
    const i = billIndex(db, billId);
    if (rec(db, "bills", i).status === status) out.push(i);
  }
  return out;
}
