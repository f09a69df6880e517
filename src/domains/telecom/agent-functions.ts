/**
 * Non-tool methods of `TelecomTools` that tasks call: initialization actions (scenario setup) and
 * the agent-side env assertions.
 */
import { checkedSub } from "../../py/arith.ts";
import { compareError, pyStr, pyTruthy } from "../../py/builtins.ts";
import { isNum, numOf, pyAdd } from "../../py/number.ts";
import { type PyDict, type PyValue, pyEquals } from "../../py/value.ts";
import { type FunctionDef, ToolError } from "../toolkit.ts";
import { newBill, newLineItem } from "./billing.ts";
import {
  billIndex,
  customerBillsWithStatus,
  customerIndex,
  lineIndex,
  planOf,
  pyIn,
  rec,
  TODAY,
  targetLineIndex,
} from "./records.ts";

/** Last month relative to tau2's "today" (2025-02-25): the overdue bill's period. */
const LAST_MONTH_START = "2025-01-01";
const LAST_MONTH_END = "2025-01-31";
const LAST_MONTH_DUE = "2025-01-15";

const getAvailablePlanIds: FunctionDef = {
  name: "get_available_plan_ids",
  params: [],
  run: (db) => db.items("plans").map((p) => (p as PyDict).plan_id as PyValue),
};

const setDataUsage: FunctionDef = {
  name: "set_data_usage",
  params: [{ name: "customer_id" }, { name: "line_id" }, { name: "data_used_gb" }],
  run: (db, a) => {
    const i = targetLineIndex(db, a.customer_id as PyValue, a.line_id as PyValue);
    // The raw argument is stored unvalidated (an int stays an int).
    db.mutAt("lines", i).data_used_gb = a.data_used_gb as PyValue;
    return `Data usage set to ${pyStr(a.data_used_gb)} GB for line ${pyStr(a.line_id)}`;
  },
};

const suspendLineForOverdueBill: FunctionDef = {
  name: "suspend_line_for_overdue_bill",
  params: [{ name: "customer_id" }, { name: "line_id" }, { name: "new_bill_id" }, { name: "contract_ended" }],
  run: (db, a) => {
    const li = lineIndex(db, a.line_id as PyValue);
    const line = rec(db, "lines", li);
    if (line.status !== "Active") throw new ToolError("Line must be active to suspend for unpaid bill");
    const amount = planOf(db, line.plan_id as PyValue).price_per_month as PyValue;
    if (!isNum(amount)) throw compareError("<=", amount, 0);
    if (numOf(amount) <= 0) throw new ToolError("Amount must be positive for overdue bill");
    const ci = customerIndex(db, a.customer_id as PyValue);
    if (customerBillsWithStatus(db, rec(db, "customers", ci), "Overdue").length > 0) {
      throw new ToolError("Customer already has an overdue bill");
    }
    const bill = newBill({
      bill_id: a.new_bill_id as PyValue,
      customer_id: a.customer_id as PyValue,
      period_start: LAST_MONTH_START,
      period_end: LAST_MONTH_END,
      issue_date: LAST_MONTH_START,
      total_due: 0,
      due_date: LAST_MONTH_DUE,
      status: "Overdue",
    });
    const item = newLineItem(
      `Charge for line ${pyStr(line.line_id)}`,
      amount,
      numOf(amount) > 0 ? "Charge" : "Credit",
    );
    (bill.line_items as PyValue[]).push(item);
    bill.total_due = pyAdd(bill.total_due as number, amount);
    db.push("bills", bill);
    (db.mutAt("customers", ci).bill_ids as PyValue[]).push(a.new_bill_id as PyValue);
    const l = db.mutAt("lines", li);
    l.status = "Suspended";
    l.suspension_start_date = TODAY;
    if (pyTruthy(a.contract_ended)) l.contract_end_date = LAST_MONTH_END;
    return `Line ${pyStr(a.line_id)} suspended for unpaid bill ${pyStr(a.new_bill_id)}. Contract ended: ${pyStr(a.contract_ended)}`;
  },
};

const assertDataRefuelingAmount: FunctionDef = {
  name: "assert_data_refueling_amount",
  params: [{ name: "customer_id" }, { name: "line_id" }, { name: "expected_amount" }],
  run: (db, a) => {
    const refuel = rec(db, "lines", targetLineIndex(db, a.customer_id as PyValue, a.line_id as PyValue))
      .data_refueling_gb as PyValue;
    const expected = a.expected_amount as PyValue;
    return Math.abs(numOf(checkedSub(refuel, expected))) < 1e-6;
  },
};

const assertLineStatus: FunctionDef = {
  name: "assert_line_status",
  params: [{ name: "customer_id" }, { name: "line_id" }, { name: "expected_status" }],
  run: (db, a) => {
    const line = rec(db, "lines", targetLineIndex(db, a.customer_id as PyValue, a.line_id as PyValue));
    // A str-Enum compares equal to its string value.
    return pyEquals(line.status as PyValue, a.expected_status as PyValue);
  },
};

const assertOverdueBillExists: FunctionDef = {
  name: "assert_overdue_bill_exists",
  params: [{ name: "customer_id" }, { name: "overdue_bill_id" }],
  run: (db, a) => {
    const customer = rec(db, "customers", customerIndex(db, a.customer_id as PyValue));
    const billId = a.overdue_bill_id as PyValue;
    if (!pyIn(billId, customer.bill_ids)) throw new ToolError(`Overdue bill ${pyStr(billId)} not found`);
    if (rec(db, "bills", billIndex(db, billId)).status !== "Overdue") {
      throw new ToolError(`Overdue bill ${pyStr(billId)} is not overdue`);
    }
    return true;
  },
};

const assertNoOverdueBill: FunctionDef = {
  name: "assert_no_overdue_bill",
  params: [{ name: "overdue_bill_id" }],
  run: (db, a) => {
    const i = db.findIndex("bills", (b) =>
      pyEquals((b as PyDict).bill_id as PyValue, a.overdue_bill_id as PyValue),
    );
    // A missing bill counts as "no overdue bill" (tau2 catches the lookup's ValueError).
    return i < 0 || rec(db, "bills", i).status === "Paid";
  },
};

export const TELECOM_FUNCTIONS: FunctionDef[] = [
  getAvailablePlanIds,
  setDataUsage,
  suspendLineForOverdueBill,
  assertDataRefuelingAmount,
  assertLineStatus,
  assertOverdueBillExists,
  assertNoOverdueBill,
];
