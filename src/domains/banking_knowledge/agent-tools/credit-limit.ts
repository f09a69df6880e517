/** Credit limit increases (request, history, approval, denial) and the payment history they rest on. */
import { pyStr, pyTruthy } from "../../../py/builtins.ts";
import { pySortedDesc } from "../../../py/compare.ts";
import {
  exceptValueOrTypeError,
  pyFormatGrouped,
  pyIntOfFloat,
  pyToFloat,
  pyToInt,
} from "../../../py/format.ts";
import { upperMethod } from "../../../py/str-methods.ts";
import { type PyDict, PyFloat, type PyValue, pyEquals } from "../../../py/value.ts";
import type { DbState } from "../../db-state.ts";
import { addToDb } from "../db-query.ts";
import { field, getRecord, inStrs, money } from "../records.ts";
import { generateCreditLimitIncreaseRequestId, getTodayStr } from "../utils.ts";
import { agentTool, historyTool } from "./agent-tool.ts";
import { parseMoneyOrZero } from "./credit-statement.ts";

const submitIncreaseRequest = agentTool(
  "submit_credit_limit_increase_request_7392",
  "write",
  ["credit_card_account_id", "user_id", "requested_increase_amount"],
  (db, a) => {
    if (!pyTruthy(a.credit_card_account_id) || !pyTruthy(a.user_id) || a.requested_increase_amount === null)
      return "Error: Missing required parameters.";
    const asFloat = exceptValueOrTypeError(() => pyToFloat(a.requested_increase_amount).v, null);
    if (asFloat === null) return "Error: Invalid requested_increase_amount. Must be a whole number.";
    if (!Number.isInteger(asFloat))
      return "Error: Invalid requested_increase_amount. Must be a whole number of dollars.";
    const amount = pyIntOfFloat(asFloat);
    if (amount <= 0) return "Error: Requested increase amount must be positive.";

    const id = pyStr(a.credit_card_account_id);
    const cc = getRecord(db, "credit_card_accounts", a.credit_card_account_id);
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

const increaseHistory = historyTool({
  name: "get_credit_limit_increase_history_4829",
  param: "credit_card_account_id",
  table: "credit_limit_increase_requests",
  title: "Credit limit increase history retrieved.",
  label: "Credit limit increase history for account",
  empty: "No credit limit increase requests found for this account.",
});

const paymentHistory = agentTool(
  "get_payment_history_6183",
  "read",
  ["credit_card_account_id", "months"],
  (db, a) => {
    if (!pyTruthy(a.credit_card_account_id) || a.months === null)
      return "Error: Missing required parameters (credit_card_account_id, months).";
    const months = exceptValueOrTypeError(() => pyToInt(a.months), null);
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
    const payments = pySortedDesc(matching, dateKey).slice(0, limit);
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
    if (pyEquals(field(d, "user_id"), userId) && inStrs(field(d, "status"), OPEN_DISPUTE)) return true;
  }
  // tau2 quirk: a replacement ordered by order_replacement_credit_card_7291 has status ORDERED, which
  // is not among the blocking statuses, so it never blocks an approval.
  for (const o of db.values("credit_card_orders")) {
    if (pyEquals(field(o, "credit_card_account_id"), ccId) && inStrs(field(o, "status"), OPEN_ORDER))
      return true;
  }
  // tau2 quirk: standing is read from `account_status`, which most accounts lack (they carry
  // `status`), so a CLOSED account passes unless its record has `account_status`.
  return BAD_STANDING.includes(upperMethod(field(cc, "account_status", "")));
}

const approveIncrease = agentTool(
  "approve_credit_limit_increase_5847",
  "write",
  ["credit_card_account_id", "user_id", "new_credit_limit"],
  (db, a) => {
    if (!pyTruthy(a.credit_card_account_id) || !pyTruthy(a.user_id) || a.new_credit_limit === null)
      return "Error: Missing required parameters.";
    const id = pyStr(a.credit_card_account_id);
    const cc = getRecord(db, "credit_card_accounts", a.credit_card_account_id);
    if (cc === undefined) return `Error: Credit card account '${id}' not found.`;
    if (!pyEquals(field(cc, "user_id"), a.user_id))
      return `Error: Credit card account '${id}' does not belong to user '${pyStr(a.user_id)}'.`;
    if (ineligible(db, cc, a.credit_card_account_id, a.user_id))
      return "Error: Credit limit increase request cannot be approved at this time.";

    const current = parseMoneyOrZero(field(cc, "credit_limit", "$0.00"));
    const newLimit = pyToFloat(a.new_credit_limit).v;
    db.mut("credit_card_accounts", a.credit_card_account_id as string).credit_limit = `$${money(newLimit)}`;
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

const denyIncrease = agentTool(
  "deny_credit_limit_increase_5848",
  "write",
  ["credit_card_account_id", "user_id", "denial_reason"],
  (db, a) => {
    if (![a.credit_card_account_id, a.user_id, a.denial_reason].every(pyTruthy))
      return "Error: Missing required parameters.";
    if (!inStrs(a.denial_reason, DENIAL_REASONS))
      return `Error: Invalid denial_reason. Must be one of: ${DENIAL_REASONS.join(", ")}`;
    const id = pyStr(a.credit_card_account_id);
    if (getRecord(db, "credit_card_accounts", a.credit_card_account_id) === undefined)
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
