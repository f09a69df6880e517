/** Credit card account lifecycle: replacement orders, closure reasons, closing, and their histories. */
import { dictKey, pyStr, pyTruthy } from "../../../py/builtins.ts";
import { pyDumpsIndent } from "../../../py/format.ts";
import { pyListRepr } from "../../../py/repr.ts";
import type { PyDict } from "../../../py/value.ts";
import { addToDb, updateRecordInDb } from "../db-query.ts";
import { ccAccountMissing, inStrs, titled } from "../records.ts";
import { generateClosureReasonId, generateCreditCardOrderId, getTodayStr } from "../utils.ts";
import { agentTool, historyTool } from "./agent-tool.ts";

const REPLACEMENT_REASONS = ["fraud_suspected", "lost", "stolen", "damaged", "expired", "other"];

const orderReplacementCard = agentTool(
  "order_replacement_credit_card_7291",
  "write",
  ["credit_card_account_id", "user_id", "shipping_address", "reason", ["expedited_shipping", false]],
  (db, a) => {
    if (![a.credit_card_account_id, a.user_id, a.shipping_address, a.reason].every(pyTruthy))
      return "Error: Missing required parameters (credit_card_account_id, user_id, shipping_address, reason).";
    if (!inStrs(a.reason, REPLACEMENT_REASONS))
      return `Error: Invalid reason. Must be one of: ${pyListRepr(REPLACEMENT_REASONS)}`;
    if (ccAccountMissing(db, a.credit_card_account_id))
      return `Error: Credit card account '${pyStr(a.credit_card_account_id)}' not found.`;

    const orderId = generateCreditCardOrderId(a.credit_card_account_id, a.user_id, a.reason);
    const today = getTodayStr();
    const record: PyDict = {
      order_id: orderId,
      credit_card_account_id: a.credit_card_account_id,
      user_id: a.user_id,
      shipping_address: a.shipping_address,
      reason: a.reason,
      expedited_shipping: a.expedited_shipping,
      order_date: today,
      status: "ORDERED",
      old_card_cancelled: true,
    };
    if (!addToDb("credit_card_orders", orderId, record, db))
      return "Error: Order may have already been placed for this card replacement.";

    const key = dictKey(a.credit_card_account_id);
    if (key !== null && db.has("credit_card_accounts", key)) {
      const account = db.mut("credit_card_accounts", key);
      account.status = "CLOSED";
      account.closed_date = getTodayStr();
    }
    const expedited = pyTruthy(a.expedited_shipping);
    return [
      `Order ID: ${orderId}`,
      `Card Account: ${pyStr(a.credit_card_account_id)}`,
      `Reason: ${titled(a.reason)}`,
      `Shipping Address: ${pyStr(a.shipping_address)}`,
      `Shipping Method: ${expedited ? "Expedited" : "Standard"}`,
      `Expected Delivery: ${expedited ? "2-3 business days" : "7-10 business days"}`,
      "",
      "The old card has been cancelled for security. The new card will have the same account number but a new card number and CVV.",
    ].join("\n");
  },
);

const userDisputeHistory = historyTool({
  name: "get_user_dispute_history_7291",
  param: "user_id",
  table: "transaction_disputes",
  title: "User transaction dispute history retrieved successfully.",
  label: "Transaction dispute history for user",
  empty: "No transaction disputes found for this user.",
});

// tau2 quirk: every order of the account is listed, whatever its status, despite the tool's name.
const pendingReplacementOrders = historyTool({
  name: "get_pending_replacement_orders_5765",
  param: "credit_card_account_id",
  table: "credit_card_orders",
  title: "Pending replacement orders check completed.",
  label: "Replacement orders for credit card account",
  empty: "No pending replacement orders found for this credit card account.",
});

const CLOSURE_REASONS = [
  "annual_fee",
  "not_using_card",
  "found_better_card",
  "unhappy_with_rewards",
  "simplifying_finances",
  "negative_experience",
  "other",
];

const logClosureReason = agentTool(
  "log_credit_card_closure_reason_4521",
  "write",
  ["credit_card_account_id", "user_id", "closure_reason"],
  (db, a) => {
    if (![a.credit_card_account_id, a.user_id, a.closure_reason].every(pyTruthy))
      return "Error: Missing required parameters.";
    if (!inStrs(a.closure_reason, CLOSURE_REASONS))
      return `Error: Invalid closure_reason. Must be one of: ${pyListRepr(CLOSURE_REASONS)}`;
    const recordId = generateClosureReasonId(a.credit_card_account_id, a.user_id);
    const record: PyDict = {
      record_id: recordId,
      credit_card_account_id: a.credit_card_account_id,
      user_id: a.user_id,
      closure_reason: a.closure_reason,
      logged_at: getTodayStr(),
      status: "LOGGED",
    };
    // tau2 quirk: add_to_db's result is ignored, so a second reason for the same account and user is
    // reported as logged but never stored (the first record stays).
    addToDb("credit_card_closure_reasons", recordId, record, db);
    const shown = {
      credit_card_account_id: a.credit_card_account_id,
      user_id: a.user_id,
      closure_reason: a.closure_reason,
    };
    return (
      "Closure reason logged successfully.\n\n" +
      "Executed: log_credit_card_closure_reason_4521\n" +
      `Arguments: ${pyDumpsIndent(shown)}\n` +
      `Closure reason '${a.closure_reason}' logged for account ${pyStr(a.credit_card_account_id)}.`
    );
  },
);

const closureReasonHistory = historyTool({
  name: "get_closure_reason_history_8293",
  param: "credit_card_account_id",
  table: "credit_card_closure_reasons",
  title: "Closure reason history retrieved successfully.",
  label: "Closure reason history for credit card account",
  empty: "No closure reason records found for this credit card account.",
});

const closeCreditCardAccount = agentTool(
  "close_credit_card_account_7834",
  "write",
  ["credit_card_account_id", "user_id"],
  (db, a) => {
    if (!pyTruthy(a.credit_card_account_id) || !pyTruthy(a.user_id))
      return "Error: Missing required parameters (credit_card_account_id, user_id).";
    const id = pyStr(a.credit_card_account_id);
    if (ccAccountMissing(db, a.credit_card_account_id))
      return `Error: Credit card account '${id}' not found.`;
    const key = dictKey(a.credit_card_account_id);
    const updates: PyDict = { status: "CLOSED", closed_date: getTodayStr(), closed_by: a.user_id };
    const updated = key === null ? null : updateRecordInDb("credit_card_accounts", key, updates, db);
    if (updated === null) return `Error: Failed to close credit card account '${id}'.`;
    const shown = { credit_card_account_id: a.credit_card_account_id, user_id: a.user_id };
    return (
      "Credit card account closed successfully.\n\n" +
      "Executed: close_credit_card_account_7834\n" +
      `Arguments: ${pyDumpsIndent(shown)}\n` +
      `Account ${id} has been closed.`
    );
  },
);

/** In tau2's source order, interleaved with the statement tools by the index. */
export const creditCardTools = {
  orderReplacementCard,
  userDisputeHistory,
  pendingReplacementOrders,
  logClosureReason,
  closureReasonHistory,
  closeCreditCardAccount,
};
