/** Credit limit increases (request, history, approval, denial) and the payment history they rest on. */
import { pyFormatFixed, pyFormatGrouped } from "../../../py/format.ts";
import { compareCodePoints } from "../../../py/json.ts";
import { type PyDict, PyFloat, type PyValue, pyEquals } from "../../../py/value.ts";
import type { DbState } from "../../db-state.ts";
import { addToDb } from "../db-query.ts";
import { generateCreditLimitIncreaseRequestId, getTodayStr } from "../utils.ts";
import {
  compare,
  field,
  getOr,
  hashKey,
  inStrings,
  intFromIntegral,
  orOnValueOrTypeError,
  pyFloatOf,
  pyIntOf,
  pyStr,
  pyTruthy,
  pyUpper,
} from "./credit-py.ts";
import { discoverable, historyReport } from "./credit-report.ts";
import { parseMoneyOrZero } from "./credit-statement.ts";

const money = (x: number): string => pyFormatFixed(new PyFloat(x), 2);

/** The credit card account for a raw id, or undefined when `id not in credit_card_accounts.data`. */
function ccAccount(db: DbState, id: PyValue): PyDict | undefined {
  const key = hashKey(id);
  return key === null ? undefined : (db.get("credit_card_accounts", key) as PyDict | undefined);
}

const submitIncreaseRequest = discoverable(
  "submit_credit_limit_increase_request_7392",
  "write",
  ["credit_card_account_id", "user_id", "requested_increase_amount"],
  (db, a) => {
    if (!pyTruthy(a.credit_card_account_id) || !pyTruthy(a.user_id) || a.requested_increase_amount === null)
      return "Error: Missing required parameters.";
    const asFloat = orOnValueOrTypeError<number | null>(
      () => pyFloatOf(a.requested_increase_amount),
      () => null,
    );
    if (asFloat === null) return "Error: Invalid requested_increase_amount. Must be a whole number.";
    if (!Number.isInteger(asFloat))
      return "Error: Invalid requested_increase_amount. Must be a whole number of dollars.";
    const amount = intFromIntegral(asFloat);
    if (amount <= 0) return "Error: Requested increase amount must be positive.";

    const id = pyStr(a.credit_card_account_id);
    const cc = ccAccount(db, a.credit_card_account_id);
    if (cc === undefined) return `Error: Credit card account '${id}' not found.`;
    if (!pyEquals(field(cc, "user_id"), a.user_id))
      return `Error: Credit card account '${id}' does not belong to user '${pyStr(a.user_id)}'.`;

    const requestId = generateCreditLimitIncreaseRequestId(a.credit_card_account_id, a.user_id, amount);
    const today = getTodayStr();
    const record: PyDict = {
      request_id: requestId,
      credit_card_account_id: a.credit_card_account_id,
      user_id: a.user_id,
      requested_increase_amount: amount,
      submitted_at: today,
      status: "PENDING",
    };
    if (!addToDb("credit_limit_increase_requests", requestId, record, db))
      return "Error: A similar request may already exist.";
    return (
      "Credit limit increase request submitted successfully.\n\n" +
      "Executed: submit_credit_limit_increase_request_7392\n" +
      `  - Request ID: ${requestId}\n` +
      `  - Account: ${id}\n` +
      `  - Requested Increase: $${pyFormatGrouped(amount)}\n` +
      "  - Status: PENDING"
    );
  },
);

const increaseHistory = discoverable(
  "get_credit_limit_increase_history_4829",
  "read",
  ["credit_card_account_id"],
  (db, a) => {
    if (!pyTruthy(a.credit_card_account_id))
      return "Error: Missing required parameter: credit_card_account_id";
    return historyReport(db, {
      table: "credit_limit_increase_requests",
      field: "credit_card_account_id",
      value: a.credit_card_account_id,
      header: [
        "Credit limit increase history retrieved.",
        "",
        "Executed: get_credit_limit_increase_history_4829",
        `Credit limit increase history for account ${pyStr(a.credit_card_account_id)}:`,
      ],
      empty: "No credit limit increase requests found for this account.",
    });
  },
);

/** Python's `sorted(..., key=k, reverse=True)`: stable, so equal keys keep their order. */
function sortDescending(items: readonly PyDict[], key: (x: PyDict) => PyValue): PyDict[] {
  const keyed = items.map((item) => ({ item, k: key(item) }));
  keyed.sort((x, y) => (sortKeyLess(y.k, x.k) ? -1 : sortKeyLess(x.k, y.k) ? 1 : 0));
  return keyed.map((e) => e.item);
}

/** Python `a < b` for sort keys: strings by code point, numbers by value, else TypeError. */
function sortKeyLess(a: PyValue, b: PyValue): boolean {
  return typeof a === "string" && typeof b === "string" ? compareCodePoints(a, b) < 0 : compare(a, "<", b);
}

const paymentHistory = discoverable(
  "get_payment_history_6183",
  "read",
  ["credit_card_account_id", "months"],
  (db, a) => {
    if (!pyTruthy(a.credit_card_account_id) || a.months === null)
      return "Error: Missing required parameters (credit_card_account_id, months).";
    const months = orOnValueOrTypeError<number | bigint | null>(
      () => pyIntOf(a.months),
      () => null,
    );
    if (months === null) return "Error: Invalid months value. Must be a positive integer.";
    if (months <= 0) return "Error: months must be a positive integer.";

    const id = pyStr(a.credit_card_account_id);
    const matching = db
      .values("payment_history")
      .filter((p) => pyEquals(field(p, "credit_card_account_id"), a.credit_card_account_id)) as PyDict[];
    if (matching.length === 0) return `No payment history found for account '${id}'.`;
    const dateKey = (p: PyDict): PyValue => {
      const d = field(p, "payment_date");
      return pyTruthy(d) ? d : "";
    };
    const limit = typeof months === "bigint" ? matching.length : months;
    const payments = sortDescending(matching, dateKey).slice(0, limit);
    let onTime = 0;
    for (const p of payments) {
      if (field(p, "status") !== "ON_TIME") break;
      onTime++;
    }
    const parts = [
      `Payment history for account '${id}' (last ${months} months):`,
      `Consecutive on-time payments: ${onTime}`,
    ];
    for (const p of payments) {
      parts.push(
        `\n  - Payment Date: ${pyStr(field(p, "payment_date"))}\n` +
          `    Amount: ${pyStr(field(p, "amount"))}\n` +
          `    Status: ${pyStr(field(p, "status"))}`,
      );
    }
    return parts.join("\n");
  },
);

const OPEN_DISPUTE = ["SUBMITTED", "UNDER_REVIEW", "PENDING"];
const OPEN_ORDER = ["PENDING", "PROCESSING", "SHIPPED"];
const BAD_STANDING = ["PAST_DUE", "DELINQUENT", "COLLECTIONS", "CLOSED"];

/** tau2's three eligibility checks, in order, each skipped once one has failed. */
function ineligible(db: DbState, cc: PyDict, ccId: PyValue, userId: PyValue): boolean {
  for (const d of db.values("transaction_disputes")) {
    if (pyEquals(field(d, "user_id"), userId) && inStrings(field(d, "status"), OPEN_DISPUTE)) return true;
  }
  // tau2 quirk: a replacement ordered by order_replacement_credit_card_7291 has status ORDERED, which
  // is not among the blocking statuses, so it never blocks an approval.
  for (const o of db.values("credit_card_orders")) {
    if (pyEquals(field(o, "credit_card_account_id"), ccId) && inStrings(field(o, "status"), OPEN_ORDER))
      return true;
  }
  // tau2 quirk: standing is read from `account_status`, which most accounts lack (they carry
  // `status`), so a CLOSED account passes unless its record has `account_status`.
  return BAD_STANDING.includes(pyUpper(getOr(cc, "account_status", "")));
}

const approveIncrease = discoverable(
  "approve_credit_limit_increase_5847",
  "write",
  ["credit_card_account_id", "user_id", "new_credit_limit"],
  (db, a) => {
    if (!pyTruthy(a.credit_card_account_id) || !pyTruthy(a.user_id) || a.new_credit_limit === null)
      return "Error: Missing required parameters.";
    const id = pyStr(a.credit_card_account_id);
    const cc = ccAccount(db, a.credit_card_account_id);
    if (cc === undefined) return `Error: Credit card account '${id}' not found.`;
    if (!pyEquals(field(cc, "user_id"), a.user_id))
      return `Error: Credit card account '${id}' does not belong to user '${pyStr(a.user_id)}'.`;
    if (ineligible(db, cc, a.credit_card_account_id, a.user_id))
      return "Error: Credit limit increase request cannot be approved at this time.";

    const current = parseMoneyOrZero(getOr(cc, "credit_limit", "$0.00"));
    const newLimit = pyFloatOf(a.new_credit_limit);
    db.mut("credit_card_accounts", hashKey(a.credit_card_account_id) as string).credit_limit =
      `$${money(newLimit)}`;
    const today = getTodayStr();
    const increase = newLimit - current;
    const requestId = generateCreditLimitIncreaseRequestId(
      a.credit_card_account_id,
      a.user_id,
      new PyFloat(increase),
    );
    const record: PyDict = {
      request_id: requestId,
      credit_card_account_id: a.credit_card_account_id,
      user_id: a.user_id,
      previous_limit: `$${money(current)}`,
      new_limit: `$${money(newLimit)}`,
      increase_amount: `$${money(increase)}`,
      decision_date: today,
      status: "APPROVED",
    };
    // tau2 quirk: add_to_db's result is ignored and the id seed is the one submit uses, so after a
    // request of the same increase (gold task_051) the approval record is dropped: the limit changes,
    // the PENDING request stays.
    addToDb("credit_limit_increase_requests", requestId, record, db);
    return (
      "Credit limit increase approved!\n" +
      `  - Account: ${id}\n` +
      `  - Previous Limit: $${money(current)}\n` +
      `  - New Limit: $${money(newLimit)}\n` +
      `  - Increase: $${money(increase)}\n` +
      `  - Effective Date: ${today}\n` +
      "The customer will receive a confirmation email."
    );
  },
);

const DENIAL_REASONS = [
  "insufficient_account_age",
  "cooldown_period_active",
  "pending_disputes",
  "pending_replacement_card",
  "past_due_balance",
  "high_utilization",
  "insufficient_payment_history",
  "requested_amount_exceeds_limit",
  "other",
];

const denyIncrease = discoverable(
  "deny_credit_limit_increase_5848",
  "write",
  ["credit_card_account_id", "user_id", "denial_reason"],
  (db, a) => {
    if (![a.credit_card_account_id, a.user_id, a.denial_reason].every(pyTruthy))
      return "Error: Missing required parameters.";
    if (!inStrings(a.denial_reason, DENIAL_REASONS))
      return `Error: Invalid denial_reason. Must be one of: ${DENIAL_REASONS.join(", ")}`;
    const id = pyStr(a.credit_card_account_id);
    if (ccAccount(db, a.credit_card_account_id) === undefined)
      return `Error: Credit card account '${id}' not found.`;
    const today = getTodayStr();
    const requestId = generateCreditLimitIncreaseRequestId(
      a.credit_card_account_id,
      a.user_id,
      new PyFloat(0),
    );
    const record: PyDict = {
      request_id: requestId,
      credit_card_account_id: a.credit_card_account_id,
      user_id: a.user_id,
      denial_reason: a.denial_reason,
      decision_date: today,
      status: "DENIED",
    };
    // tau2 quirk: every denial of an account/user pair has the same id, so only the first is stored.
    addToDb("credit_limit_increase_requests", requestId, record, db);
    return (
      "Credit limit increase request denied.\n" +
      `  - Account: ${id}\n` +
      `  - Denial Reason: ${a.denial_reason}\n` +
      `  - Date: ${today}\n` +
      "The customer will receive a notification explaining the denial."
    );
  },
);

export const creditLimitTools = {
  submitIncreaseRequest,
  increaseHistory,
  paymentHistory,
  approveIncrease,
  denyIncrease,
};
