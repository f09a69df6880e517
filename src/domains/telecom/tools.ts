/** The agent toolkit `TelecomTools` (tau2 `domains/telecom/tools.py`): its tools. */

import { attributeError, compareError, lowerMethod, pyStr, pyTruthy } from "../../py/builtins.ts";
import { isNum, numOf, pyMul, pyRoundFloat } from "../../py/number.ts";
import { type PyDict, type PyValue, pyEquals } from "../../py/value.ts";
import type { DbState } from "../db-state.ts";
import { transferToHumanAgents } from "../shared-tools.ts";
import { model, type ToolDef, ToolError, type ToolOutput } from "../toolkit.ts";
import { addTo, applyOneTimeCharge } from "./billing.ts";
import {
  billIndex,
  customerBillsWithStatus,
  customerIndex,
  customerIndexByPhone,
  deviceIndex,
  lineIndex,
  planOf,
  pyIn,
  rec,
  TODAY,
  targetLineIndex,
} from "./records.ts";

/** tau2 computes the cycle end as the last day of today's month. */
const CYCLE_END_DATE = "2025-02-28";

/** Python `f"{x:.2f}"` for a float (round-half-even on the exact binary value). */
export function fixed2(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  const s = pyRoundFloat(x, 2).toFixed(2);
  return Object.is(x, -0) || (x < 0 && s === "0.00") ? `-${s}` : s;
}

/** Python `list[:limit]`: a negative limit counts from the end; a non-int raises TypeError. */
function sliceTo<T>(items: T[], limit: PyValue): T[] {
  if (limit === null) return items;
  const n = typeof limit === "boolean" ? Number(limit) : limit;
  if (typeof n !== "number") {
    throw new ToolError("slice indices must be integers or None or have an __index__ method");
  }
  return items.slice(0, n < 0 ? Math.max(0, items.length + n) : n);
}

/** `id.startswith(prefix)`, raising AttributeError for a non-string like Python. */
function startsWith(id: PyValue, prefix: string): boolean {
  if (typeof id !== "string") throw attributeError(id, "startswith");
  return id.startsWith(prefix);
}

const line = (db: DbState, i: number): ToolOutput => model(rec(db, "lines", i));

const getCustomerByPhone: ToolDef = {
  name: "get_customer_by_phone",
  kind: "read",
  params: [{ name: "phone_number" }],
  run: (db, a) => model(rec(db, "customers", customerIndexByPhone(db, a.phone_number as PyValue))),
};

const getCustomerById: ToolDef = {
  name: "get_customer_by_id",
  kind: "read",
  params: [{ name: "customer_id" }],
  run: (db, a) => model(rec(db, "customers", customerIndex(db, a.customer_id as PyValue))),
};

const getCustomerByName: ToolDef = {
  name: "get_customer_by_name",
  kind: "read",
  params: [{ name: "full_name" }, { name: "dob" }],
  run: (db, a) =>
    db
      .items("customers")
      .filter((c) => {
        const customer = c as PyDict;
        return (
          lowerMethod(customer.full_name) === lowerMethod(a.full_name) &&
          pyEquals(customer.date_of_birth as PyValue, a.dob as PyValue)
        );
      })
      .map((c) => model(c)),
};

const getDetailsById: ToolDef = {
  name: "get_details_by_id",
  kind: "read",
  params: [{ name: "id" }],
  run: (db, a) => {
    const id = a.id as PyValue;
    if (startsWith(id, "L")) return model(rec(db, "lines", lineIndex(db, id)));
    if (startsWith(id, "D")) return model(rec(db, "devices", deviceIndex(db, id)));
    if (startsWith(id, "B")) return model(rec(db, "bills", billIndex(db, id)));
    if (startsWith(id, "C")) return model(rec(db, "customers", customerIndex(db, id)));
    if (startsWith(id, "P")) return model(planOf(db, id));
    throw new ToolError(`Unknown ID format or type: ${pyStr(id)}`);
  },
};

const suspendLine: ToolDef = {
  name: "suspend_line",
  kind: "write",
  params: [{ name: "customer_id" }, { name: "line_id" }, { name: "reason" }],
  run: (db, a) => {
    const i = targetLineIndex(db, a.customer_id as PyValue, a.line_id as PyValue);
    if (rec(db, "lines", i).status !== "Active") throw new ToolError("Line must be active to suspend");
    const l = db.mutAt("lines", i);
    l.status = "Suspended";
    l.suspension_start_date = TODAY;
    return { message: "Line suspended successfully. $5/month holding fee will apply.", line: line(db, i) };
  },
};

const resumeLine: ToolDef = {
  name: "resume_line",
  kind: "write",
  params: [{ name: "customer_id" }, { name: "line_id" }],
  run: (db, a) => {
    const i = targetLineIndex(db, a.customer_id as PyValue, a.line_id as PyValue);
    const status = rec(db, "lines", i).status;
    if (status !== "Suspended" && status !== "Pending Activation") {
      throw new ToolError("Line must be suspended to resume");
    }
    const l = db.mutAt("lines", i);
    l.status = "Active";
    l.suspension_start_date = null;
    return { message: "Line resumed successfully", line: line(db, i) };
  },
};

const getBillsForCustomer: ToolDef = {
  name: "get_bills_for_customer",
  kind: "read",
  params: [{ name: "customer_id" }, { name: "limit", default: 12 }],
  run: (db, a) => {
    const customer = rec(db, "customers", customerIndex(db, a.customer_id as PyValue));
    const bills = (customer.bill_ids as PyValue[]).map((id) => rec(db, "bills", billIndex(db, id)));
    // Python's sorted(reverse=True) is stable: equal issue dates keep their bill_ids order.
    const sorted = [...bills].sort((x, y) => {
      const dx = x.issue_date as string;
      const dy = y.issue_date as string;
      return dx < dy ? 1 : dx > dy ? -1 : 0;
    });
    return sliceTo(sorted, a.limit as PyValue).map((b) => model(b));
  },
};

const sendPaymentRequest: ToolDef = {
  name: "send_payment_request",
  kind: "write",
  params: [{ name: "customer_id" }, { name: "bill_id" }],
  run: (db, a) => {
    const customer = rec(db, "customers", customerIndex(db, a.customer_id as PyValue));
    if (customerBillsWithStatus(db, customer, "Awaiting Payment").length !== 0) {
      throw new ToolError("A bill is already awaiting payment for this customer");
    }
    if (!pyIn(a.bill_id, customer.bill_ids)) {
      throw new ToolError(`Bill ${pyStr(a.bill_id)} not found for customer ${pyStr(a.customer_id)}`);
    }
    const bill = db.mutAt("bills", billIndex(db, a.bill_id as PyValue));
    bill.status = "Awaiting Payment";
    return `Payment request sent to the customer for bill ${pyStr(bill.bill_id)}`;
  },
};

const getDataUsage: ToolDef = {
  name: "get_data_usage",
  kind: "read",
  params: [{ name: "customer_id" }, { name: "line_id" }],
  run: (db, a) => {
    const l = rec(db, "lines", targetLineIndex(db, a.customer_id as PyValue, a.line_id as PyValue));
    const plan = planOf(db, l.plan_id as PyValue);
    // A plain dict: tau2's to_json_str turns its bare numbers into their str() text.
    const out: { [k: string]: ToolOutput } = {
      line_id: a.line_id as PyValue,
      data_used_gb: l.data_used_gb as PyValue,
      data_limit_gb: plan.data_limit_gb as PyValue,
      data_refueling_gb: l.data_refueling_gb as PyValue,
      cycle_end_date: CYCLE_END_DATE,
    };
    return out;
  },
};

/** `enable_roaming` / `disable_roaming`: idempotent flag writes with distinct messages. */
function roamingTool(name: string, enable: boolean, word: string): ToolDef {
  return {
    name,
    kind: "write",
    params: [{ name: "customer_id" }, { name: "line_id" }],
    run: (db, a) => {
      const i = targetLineIndex(db, a.customer_id as PyValue, a.line_id as PyValue);
      if (pyTruthy(rec(db, "lines", i).roaming_enabled) === enable) return `Roaming was already ${word}`;
      db.mutAt("lines", i).roaming_enabled = enable;
      return `Roaming ${word} successfully`;
    },
  };
}

const refuelData: ToolDef = {
  name: "refuel_data",
  kind: "write",
  params: [{ name: "customer_id" }, { name: "line_id" }, { name: "gb_amount" }],
  run: (db, a) => {
    const i = targetLineIndex(db, a.customer_id as PyValue, a.line_id as PyValue);
    const gb = a.gb_amount as PyValue;
    if (!isNum(gb)) throw compareError("<=", gb, 0);
    if (numOf(gb) <= 0) throw new ToolError("Refuel amount must be positive");
    const plan = planOf(db, rec(db, "lines", i).plan_id as PyValue);
    const price = plan.data_refueling_price_per_gb as number;
    const charge = pyMul(gb, price);
    const l = db.mutAt("lines", i);
    l.data_refueling_gb = addTo(l.data_refueling_gb, gb);
    const newRefuel = l.data_refueling_gb;
    // The description embeds Python str() texts: `2` and `2.0` give different stored data.
    applyOneTimeCharge(
      db,
      a.customer_id as PyValue,
      charge,
      `Data refueling: ${pyStr(gb)} GB at $${pyStr(price)}/GB`,
    );
    return {
      message: `Successfully added ${pyStr(gb)} GB of data for line ${pyStr(a.line_id)} for $${fixed2(numOf(charge))}`,
      new_data_refueling_gb: newRefuel,
      charge,
    };
  },
};

export const TELECOM_TOOLS: ToolDef[] = [
  getCustomerByPhone,
  getCustomerById,
  getCustomerByName,
  getDetailsById,
  suspendLine,
  resumeLine,
  getBillsForCustomer,
  sendPaymentRequest,
  getDataUsage,
  roamingTool("enable_roaming", true, "enabled"),
  roamingTool("disable_roaming", false, "disabled"),
  transferToHumanAgents,
  refuelData,
];
