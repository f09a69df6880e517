/** Money on a credit card account: statement credits, account flags, and payments from checking. */
import { pyStr, pyTruthy } from "../../../py/builtins.ts";
import { pyCompare } from "../../../py/compare.ts";
import { exceptValueOrTypeError, pyFormatFixed, pyToFloat } from "../../../py/format.ts";
import { pyListRepr } from "../../../py/repr.ts";
import { type PyDict, type PyValue, pyEquals } from "../../../py/value.ts";
import { addToDb } from "../db-query.ts";
import { ccAccountMissing, field, getRecord, inStrs, money, titled } from "../records.ts";
import { generateAccountFlagId, generateTransactionId, getAccountBalance, getTodayStr } from "../utils.ts";
import { agentTool } from "./agent-tool.ts";

const STATEMENT_CREDIT_REASONS = [
  "goodwill_adjustment",
  "promotional_credit",
  "annual_fee_reversal",
  "late_fee_reversal",
  "interest_charge_reversal",
  "dispute_resolution",
  "price_match",
  "retention_offer",
  "error_correction",
  "other",
];

const applyStatementCredit = agentTool(
  "apply_statement_credit_8472",
  "write",
  ["user_id", "credit_card_account_id", "amount", "reason"],
  (db, a) => {
    if (
      !pyTruthy(a.user_id) ||
      !pyTruthy(a.credit_card_account_id) ||
      a.amount === null ||
      !pyTruthy(a.reason)
    )
      return "Error: Missing required parameters (user_id, credit_card_account_id, amount, reason).";
    if (pyCompare(a.amount, "<=", 0)) return "Error: Credit amount must be positive.";
    if (!inStrs(a.reason, STATEMENT_CREDIT_REASONS))
      return `Error: Invalid reason. Must be one of: ${pyListRepr(STATEMENT_CREDIT_REASONS)}`;
    const accountId = pyStr(a.credit_card_account_id);
    if (ccAccountMissing(db, a.credit_card_account_id))
      return `Error: Credit card account '${accountId}' not found.`;

    const transactionId = generateTransactionId(
      a.user_id,
      "STATEMENT_CREDIT",
      a.reason,
      a.amount,
      "Statement Credit",
    );
    const today = getTodayStr();
    const amount = pyFormatFixed(a.amount, 2);
    const record: PyDict = {
      transaction_id: transactionId,
      user_id: a.user_id,
      credit_card_account_id: a.credit_card_account_id,
      credit_card_type: "N/A",
      merchant_name: "Rho-Bank Statement Credit",
      transaction_amount: `-$${amount}`,
      transaction_date: today,
      category: "Statement Credit",
      status: "COMPLETED",
      rewards_earned: "0 points",
      credit_reason: a.reason,
    };
    if (!addToDb("credit_card_transaction_history", transactionId, record, db))
      return `Error: Failed to apply statement credit. Transaction ID '${transactionId}' may already exist.`;
    return (
      "Statement credit applied successfully.\n\n" +
      "Executed: apply_statement_credit_8472\n" +
      `  - Transaction ID: ${transactionId}\n` +
      `  - User ID: ${pyStr(a.user_id)}\n` +
      `  - Account: ${accountId}\n` +
      `  - Credit Amount: $${amount}\n` +
      `  - Reason: ${titled(a.reason)}\n` +
      `  - Date: ${today}`
    );
  },
);

const FLAG_TYPES = ["annual_fee_waived", "promotional_apr", "rewards_bonus", "other"];
const FLAG_REASONS = ["retention_offer", "loyalty_benefit", "promotional", "error_correction", "other"];

const applyAccountFlag = agentTool(
  "apply_credit_card_account_flag_6147",
  "write",
  ["credit_card_account_id", "user_id", "flag_type", "expiration_date", "reason"],
  (db, a) => {
    if (![a.credit_card_account_id, a.user_id, a.flag_type, a.expiration_date, a.reason].every(pyTruthy))
      return "Error: Missing required parameters (credit_card_account_id, user_id, flag_type, expiration_date, reason).";
    if (!inStrs(a.flag_type, FLAG_TYPES))
      return `Error: Invalid flag_type. Must be one of: ${pyListRepr(FLAG_TYPES)}`;
    if (!inStrs(a.reason, FLAG_REASONS))
      return `Error: Invalid reason. Must be one of: ${pyListRepr(FLAG_REASONS)}`;
    const accountId = pyStr(a.credit_card_account_id);
    if (ccAccountMissing(db, a.credit_card_account_id))
      return `Error: Credit card account '${accountId}' not found.`;

    const flagId = generateAccountFlagId(a.credit_card_account_id, a.flag_type, a.expiration_date);
    const today = getTodayStr();
    const record: PyDict = {
      flag_id: flagId,
      credit_card_account_id: a.credit_card_account_id,
      user_id: a.user_id,
      flag_type: a.flag_type,
      effective_date: today,
      expiration_date: a.expiration_date,
      reason: a.reason,
      applied_at: today,
      status: "ACTIVE",
    };
    if (!addToDb("credit_card_account_flags", flagId, record, db))
      return `Error: Failed to apply account flag. Flag ID '${flagId}' may already exist.`;
    return (
      "Account flag applied successfully!\n" +
      `  - Flag ID: ${flagId}\n` +
      `  - Account: ${accountId}\n` +
      `  - User ID: ${pyStr(a.user_id)}\n` +
      `  - Flag Type: ${titled(a.flag_type)}\n` +
      `  - Effective Date: ${today}\n` +
      `  - Expiration Date: ${pyStr(a.expiration_date)}\n` +
      `  - Reason: ${titled(a.reason)}`
    );
  },
);

/**
 * `float(str(x).replace("$", "").replace(",", ""))`, 0.0 when that raises ValueError/TypeError (on
 * purpose unlike utils' `parseBalance`, tau2's `_parse_balance`, which lets the ValueError out).
 */
export const parseMoneyOrZero = (x: PyValue): number =>
  exceptValueOrTypeError(() => pyToFloat(pyStr(x).replaceAll("$", "").replaceAll(",", "")).v, 0);

const payFromChecking = agentTool(
  "pay_credit_card_from_checking_9182",
  "write",
  ["user_id", "checking_account_id", "credit_card_account_id", "amount"],
  (db, a) => {
    if (
      !pyTruthy(a.user_id) ||
      !pyTruthy(a.checking_account_id) ||
      !pyTruthy(a.credit_card_account_id) ||
      a.amount === null
    )
      return "Error: Missing required parameters (user_id, checking_account_id, credit_card_account_id, amount).";
    const amount = exceptValueOrTypeError(() => pyToFloat(a.amount).v, null);
    if (amount === null) return "Error: Invalid payment amount. Must be a positive number.";
    if (amount <= 0) return "Error: Payment amount must be a positive number.";

    const checkingId = pyStr(a.checking_account_id);
    const checking = getRecord(db, "accounts", a.checking_account_id);
    if (checking === undefined) return `Error: Checking account '${checkingId}' not found.`;
    if (!pyEquals(field(checking, "user_id"), a.user_id))
      return `Error: Checking account '${checkingId}' does not belong to user '${pyStr(a.user_id)}'.`;
    if (field(checking, "class") !== "checking")
      return `Error: Account '${checkingId}' is not a checking account.`;
    const balance = getAccountBalance(checking).v;
    if (amount > balance)
      return `Error: Insufficient funds in checking account. Available balance: $${money(balance)}, requested payment: $${money(amount)}.`;

    const ccId = pyStr(a.credit_card_account_id);
    const cc = getRecord(db, "credit_card_accounts", a.credit_card_account_id);
    if (cc === undefined) return `Error: Credit card account '${ccId}' not found.`;
    if (!pyEquals(field(cc, "user_id"), a.user_id))
      return `Error: Credit card account '${ccId}' does not belong to user '${pyStr(a.user_id)}'.`;
    const ccBalance = parseMoneyOrZero(field(cc, "current_balance", "$0.00"));
    if (amount > ccBalance)
      return `Error: Payment amount ($${money(amount)}) exceeds credit card balance ($${money(ccBalance)}). Please specify an amount up to the outstanding balance.`;

    const newChecking = balance - amount;
    const newCc = ccBalance - amount;
    // tau2 quirk: holdings are written without "$" (the card balance gets one), and always to
    // `current_holdings`, even for an account whose balance was read from `balance`.
    db.mut("accounts", a.checking_account_id as string).current_holdings = money(newChecking);
    db.mut("credit_card_accounts", a.credit_card_account_id as string).current_balance = `$${money(newCc)}`;
    return (
      "Payment processed successfully!\n" +
      `  - Payment Amount: $${money(amount)}\n` +
      `  - From Checking Account: ${checkingId}\n` +
      `  - To Credit Card Account: ${ccId}\n` +
      `  - New Checking Balance: $${money(newChecking)}\n` +
      `  - New Credit Card Balance: $${money(newCc)}\n` +
      "The payment has been applied immediately."
    );
  },
);

export const statementTools = {
  applyStatementCredit,
  applyAccountFlag,
  payFromChecking,
};
