/**
 * Moving money on bank accounts: transfers, checking and savings credits, and the interest
 * discrepancy report.
 */
import { lowerMethod, pyStr, pyTruthy } from "../../../py/builtins.ts";
import { pyFloatOrNull } from "../../../py/format.ts";
import { floatRepr, pyRoundFloat } from "../../../py/number.ts";
import { pyListRepr } from "../../../py/repr.ts";
import { type PyDict, PyFloat, type PyValue, pyEquals } from "../../../py/value.ts";
import { addToDb } from "../db-query.ts";
import type { DiscoverableTool } from "../discoverable.ts";
import { field, getRecord, inStrs, money } from "../records.ts";
import { deterministicId, getAccountBalance, getTodayStr } from "../utils.ts";
import { agentTool } from "./agent-tool.ts";

const ACTIVE_OR_OPEN = ["ACTIVE", "OPEN"] as const;
const isActive = (acc: PyDict): boolean => inStrs(field(acc, "status"), ACTIVE_OR_OPEN);

export const transferFundsBetweenBankAccounts = agentTool(
  "transfer_funds_between_bank_accounts_7291",
  "write",
  ["source_account_id", "destination_account_id", "amount"],
  (db, { source_account_id: srcId, destination_account_id: dstId, amount: rawAmount }) => {
    if (!pyTruthy(srcId) || !pyTruthy(dstId) || rawAmount === null) {
      return "Error: Missing required parameters (source_account_id, destination_account_id, amount).";
    }
    const amount = pyFloatOrNull(rawAmount);
    if (amount === null) return `Error: Invalid amount '${pyStr(rawAmount)}'. Must be a number.`;
    if (amount <= 0) return "Error: Transfer amount must be positive.";
    if (pyEquals(srcId, dstId)) return "Error: Source and destination accounts cannot be the same.";
    const source = getRecord(db, "accounts", srcId);
    if (source === undefined) return `Error: Source account '${pyStr(srcId)}' not found.`;
    const dest = getRecord(db, "accounts", dstId);
    if (dest === undefined) return `Error: Destination account '${pyStr(dstId)}' not found.`;
    const src = srcId as string;
    const dst = dstId as string;
    if (!isActive(source)) return `Error: Source account '${src}' is not active.`;
    if (!isActive(dest)) return `Error: Destination account '${dst}' is not active.`;

    const sourceBalance = getAccountBalance(source).v;
    if (sourceBalance < amount) {
      return (
        `Error: Insufficient funds. Source account balance is $${money(sourceBalance)}, ` +
        `but transfer amount is $${money(amount)}.`
      );
    }
    const destBalance = getAccountBalance(dest).v;
    const newSource = sourceBalance - amount;
    const newDest = destBalance + amount;
    db.mut("accounts", src).current_holdings = `$${money(newSource)}`;
    db.mut("accounts", dst).current_holdings = `$${money(newDest)}`;
    return [
      "Transfer completed successfully!",
      `  - Amount: $${money(amount)}`,
      `  - From: ${src} (new balance: $${money(newSource)})`,
      `  - To: ${dst} (new balance: $${money(newDest)})`,
    ].join("\n");
  },
);

interface CreditSpec {
  readonly name: "apply_checking_account_credit_5829" | "apply_savings_account_credit_6831";
  readonly creditTypes: readonly string[];
  readonly classes: readonly string[];
  readonly wrongClass: (accountId: string) => string;
  /** Seed prefix of the transaction id. */
  readonly seedTag: string;
  /** How the new balance is stored. */
  readonly holdings: (balance: number) => string;
  readonly description: (creditType: string) => string;
}

/** The shared body of `apply_checking_account_credit_5829` and `apply_savings_account_credit_6831`. */
function creditTool(spec: CreditSpec): DiscoverableTool {
  return agentTool(
    spec.name,
    "write",
    ["account_id", "amount", "credit_type"],
    (db, { account_id, amount: rawAmount, credit_type }) => {
      if (!pyTruthy(account_id) || rawAmount === null || !pyTruthy(credit_type)) {
        return "Error: Missing required parameters.";
      }
      const amount = pyFloatOrNull(rawAmount);
      if (amount === null) return "Error: Invalid credit amount. Must be a number.";
      if (amount <= 0) return "Error: Credit amount must be positive.";
      if (!inStrs(credit_type, spec.creditTypes)) {
        return `Error: Invalid credit_type. Must be one of: ${pyListRepr(spec.creditTypes)}`;
      }
      const creditType = credit_type as string;
      const account = getRecord(db, "accounts", account_id);
      if (account === undefined) return `Error: Account '${pyStr(account_id)}' not found.`;
      const id = account_id as string;
      if (!spec.classes.includes(lowerMethod(field(account, "class", "")))) return spec.wrongClass(id);
      if (!isActive(account)) return `Error: Account '${id}' is not active.`;

      const current = getAccountBalance(account).v;
      const next = current + amount;
      db.mut("accounts", id).current_holdings = spec.holdings(next);
      const today = getTodayStr();
      const txnId = `txn_${deterministicId(`${spec.seedTag}:${id}:${creditType}:${floatRepr(amount)}:${today}`)}`;
      // A plain dict assignment: an existing record with this id is replaced.
      db.put("bank_account_transaction_history", txnId, {
        transaction_id: txnId,
        account_id: id,
        date: today,
        description: spec.description(creditType),
        amount: new PyFloat(amount),
        type: creditType,
        status: "posted",
      });
      return [
        "",
        "Credit applied successfully!",
        `  - Transaction ID: ${txnId}`,
        `  - Account: ${id}`,
        `  - Credit Type: ${creditType}`,
        `  - Amount: $${money(amount)}`,
        `  - Previous Balance: $${money(current)}`,
        `  - New Balance: $${money(next)}`,
      ].join("\n");
    },
  );
}

export const applyCheckingAccountCredit = creditTool({
  name: "apply_checking_account_credit_5829",
  creditTypes: ["rebate_credit", "fee_refund"],
  classes: ["checking"],
  wrongClass: (id) =>
    `Error: Account '${id}' is not a checking account. Credits can only be applied to checking accounts.`,
  seedTag: "checking_credit",
  holdings: (b) => `$${money(b)}`,
  description: (t) =>
    t === "rebate_credit" ? "REBATE CREDIT - CUSTOMER SERVICE" : "FEE REFUND - CUSTOMER SERVICE",
});

export const applySavingsAccountCredit = creditTool({
  name: "apply_savings_account_credit_6831",
  creditTypes: ["interest_correction", "fee_refund", "goodwill_credit"],
  classes: ["saving", "savings"],
  wrongClass: (id) =>
    `Error: Account '${id}' is not a savings account. This tool only applies to savings accounts.`,
  seedTag: "savings_credit",
  // tau2 quirk: the savings credit stores the new balance without the "$" the checking credit writes.
  holdings: (b) => money(b),
  description: (t) =>
    t === "interest_correction"
      ? "INTEREST CORRECTION - CUSTOMER SERVICE"
      : t === "fee_refund"
        ? "FEE REFUND - CUSTOMER SERVICE"
        : "GOODWILL CREDIT - CUSTOMER SERVICE",
});

export const submitInterestDiscrepancyReport = agentTool(
  "submit_interest_discrepancy_report_7294",
  "write",
  ["account_id", "user_id", "expected_apy", "actual_apy", "amount_difference"],
  (db, args) => {
    const { account_id, user_id } = args;
    const raw = [args.expected_apy, args.actual_apy, args.amount_difference];
    if (!pyTruthy(account_id) || !pyTruthy(user_id) || raw.some((v) => v === null)) {
      return "Error: Missing required parameters.";
    }
    const nums = raw.map(pyFloatOrNull);
    if (nums.some((v) => v === null)) {
      return "Error: expected_apy, actual_apy, and amount_difference must be numbers.";
    }
    const [expected, actual, difference] = nums as [number, number, number];
    const account = getRecord(db, "accounts", account_id);
    if (account === undefined) return `Error: Account '${pyStr(account_id)}' not found.`;
    const user = getRecord(db, "users", user_id);
    if (user === undefined) return `Error: User '${pyStr(user_id)}' not found.`;

    const today = getTodayStr();
    const seed = `interest_report:${account_id as string}:${user_id as string}:${floatRepr(expected)}:${floatRepr(actual)}:${today}`;
    const reportId = `IDR_${deterministicId(seed)}`;
    const apyDifference = pyRoundFloat(expected - actual, 4);
    const level = pyStr(field(account, "level", "Unknown"));
    const record: PyDict = {
      report_id: reportId,
      account_id: account_id as PyValue,
      user_id: user_id as PyValue,
      account_level: field(account, "level", "Unknown"),
      expected_apy: new PyFloat(expected),
      actual_apy: new PyFloat(actual),
      apy_difference: new PyFloat(apyDifference),
      amount_difference: new PyFloat(difference),
      submitted_date: today,
      status: "PENDING_REVIEW",
    };
    // tau2 quirk: TransactionalDB has no `interest_discrepancy_reports` table, so add_to_db returns
    // False and the report is silently dropped (the tool still reports success).
    addToDb("interest_discrepancy_reports", reportId, record, db);
    return [
      "",
      "Interest Discrepancy Report Submitted Successfully!",
      `  - Report ID: ${reportId}`,
      `  - Account: ${account_id as string} (${level})`,
      `  - Customer: ${pyStr(field(user, "name", "Unknown"))}`,
      `  - Expected APY: ${floatRepr(expected)}%`,
      `  - Actual APY: ${floatRepr(actual)}%`,
      `  - APY Difference: ${floatRepr(apyDifference)}%`,
      `  - Amount Difference: $${money(difference)}`,
      "  - Status: PENDING_REVIEW",
      "",
      "The backend team will investigate this discrepancy and ensure correct APY calculations are applied going forward.",
    ].join("\n");
  },
);
