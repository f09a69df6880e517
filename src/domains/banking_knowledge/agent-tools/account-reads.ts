/** Read-only account tools: all of a user's accounts, a bank account's transactions. */
import { pyStr, pyTruthy } from "../../../py/builtins.ts";
import { secondsSinceMin, strptime } from "../../../py/datetime.ts";
import type { PyDict, PyValue } from "../../../py/value.ts";
import { formatRecords, queryDb } from "../db-query.ts";
import { field, hasRecord, noMatch, queryByField } from "../records.ts";
import { agentTool } from "./agent-tool.ts";

export const getAllUserAccountsByUserId = agentTool(
  "get_all_user_accounts_by_user_id_3847",
  "read",
  ["user_id"],
  (db, { user_id }) => {
    if (!pyTruthy(user_id)) return "Error: Missing required parameter: user_id";
    const accounts = queryByField(db, "accounts", "user_id", user_id);
    const cards = queryByField(db, "credit_card_accounts", "user_id", user_id);
    return [
      "User accounts retrieved successfully.",
      "",
      "Executed: get_all_user_accounts_by_user_id_3847",
      `Accounts for user ${pyStr(user_id)}:`,
      "",
      "Bank Accounts:",
      noMatch(accounts) ? "  No bank accounts found." : accounts,
      "\nCredit Card Accounts:",
      noMatch(cards) ? "  No credit card accounts found." : cards,
    ].join("\n");
  },
);

const DATETIME_MIN = 0;

/** tau2's `txn_sort_key`: the record's date with or without a time; datetime.min when neither parses. */
function transactionTime(record: PyDict): number {
  const text = pyStr(field(record, "date", ""));
  const t = strptime(text, "%m/%d/%Y %H:%M:%S") ?? strptime(text, "%m/%d/%Y");
  return t === null ? DATETIME_MIN : secondsSinceMin(t);
}

export const getBankAccountTransactions = agentTool(
  "get_bank_account_transactions_9173",
  "read",
  ["account_id"],
  (db, { account_id }) => {
    if (!pyTruthy(account_id)) return "Error: Missing required parameter: account_id";
    if (!hasRecord(db, "accounts", account_id)) return `Error: Account '${pyStr(account_id)}' not found.`;
    const found = queryDb("bank_account_transaction_history", { account_id: account_id as PyValue }, db, {
      returnIds: true,
    });
    // Most recent first; Array.prototype.sort is stable, so equal dates keep their stored order
    // exactly as Python's sorted(..., reverse=True) does.
    const keyed = found.map((pair) => ({ pair, key: transactionTime(pair[1]) }));
    keyed.sort((a, b) => b.key - a.key);
    const parts = [
      "Bank account transactions retrieved successfully.",
      "",
      "Executed: get_bank_account_transactions_9173",
      `Transactions for account ${account_id}:`,
    ];
    if (keyed.length === 0) parts.push("\nNo transactions found for this account.");
    else
      parts.push(
        formatRecords(
          "bank_account_transaction_history",
          keyed.map((k) => k.pair),
        ),
      );
    return parts.join("\n");
  },
);
