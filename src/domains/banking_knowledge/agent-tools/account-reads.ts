/** Read-only account tools: all of a user's accounts, a bank account's transactions. */
import { pyStr, pyTruthy } from "../../../py/builtins.ts";
import type { PyDict, PyValue } from "../../../py/value.ts";
import { queryDatabaseTool, queryDb } from "../db-query.ts";
import type { DiscoverableTool } from "../discoverable.ts";
import { ACCOUNT_DOCS } from "./account-docs.ts";
import { field, hasRecord, type Moment, momentKey, strptime } from "./account-python.ts";

const noRecords = (text: string): boolean =>
  text.includes("No records found") || text.includes("No results found");

export const getAllUserAccountsByUserId: DiscoverableTool = {
  name: "get_all_user_accounts_by_user_id_3847",
  kind: "read",
  mutates: false,
  docstring: ACCOUNT_DOCS.get_all_user_accounts_by_user_id_3847,
  params: [{ name: "user_id" }],
  run(db, { user_id }) {
    if (!pyTruthy(user_id)) return "Error: Missing required parameter: user_id";
    // tau2 splices the id into JSON text unescaped: a quote in it makes the query's JSON invalid.
    const constraints = `{"user_id": "${pyStr(user_id)}"}`;
    const accounts = queryDatabaseTool("accounts", constraints, db);
    const cards = queryDatabaseTool("credit_card_accounts", constraints, db);
    return [
      "User accounts retrieved successfully.",
      "",
      "Executed: get_all_user_accounts_by_user_id_3847",
      `Accounts for user ${pyStr(user_id)}:`,
      "",
      "Bank Accounts:",
      noRecords(accounts) ? "  No bank accounts found." : accounts,
      "\nCredit Card Accounts:",
      noRecords(cards) ? "  No credit card accounts found." : cards,
    ].join("\n");
  },
};

const DATETIME_MIN = 0;

/** tau2's `txn_sort_key`: the record's date with or without a time; datetime.min when neither parses. */
function transactionTime(record: PyDict): number {
  const text = pyStr(field(record, "date", ""));
  const t: Moment | null = strptime(text, "%m/%d/%Y %H:%M:%S") ?? strptime(text, "%m/%d/%Y");
  return t === null ? DATETIME_MIN : momentKey(t);
}

export const getBankAccountTransactions: DiscoverableTool = {
  name: "get_bank_account_transactions_9173",
  kind: "read",
  mutates: false,
  docstring: ACCOUNT_DOCS.get_bank_account_transactions_9173,
  params: [{ name: "account_id" }],
  run(db, { account_id }) {
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
      `Transactions for account ${account_id as string}:`,
    ];
    if (keyed.length === 0) {
      parts.push("\nNo transactions found for this account.");
    } else {
      const lines = [`Found ${keyed.length} record(s) in 'bank_account_transaction_history':\n`];
      keyed.forEach(({ pair: [id, record] }, i) => {
        lines.push(`${i + 1}. Record ID: ${id}`);
        for (const k of Object.keys(record)) lines.push(`   ${k}: ${pyStr(record[k])}`);
        lines.push("");
      });
      parts.push(lines.join("\n"));
    }
    return parts.join("\n");
  },
};
