/** Opening and closing bank accounts: `open_bank_account_4821`, `close_bank_account_7392`. */
import { pyStr, pyTruthy } from "../../../py/builtins.ts";
import { daysBetween, type PyDateTime, strptime } from "../../../py/datetime.ts";
import { pyListRepr } from "../../../py/repr.ts";
import { type PyDict, type PyValue, pyEquals } from "../../../py/value.ts";
import { addToDb } from "../db-query.ts";
import { field, getRecord, inStrs, lookup, money } from "../records.ts";
import { deterministicId, getAccountBalance, getNow, getTodayStr } from "../utils.ts";
import { agentTool } from "./agent-tool.ts";

const ACCOUNT_TYPES = ["checking", "savings", "business_checking", "business_savings"] as const;
const PERSONAL_CHECKING = ["checking", "personal_checking"] as const;
const OPEN_STATES = ["OPEN", "ACTIVE"] as const;
const INELIGIBLE = "Error: Account eligibility requirements not met.";

/** tau2's nested `get_account_age_days`: days since `date_opened`, 0 when it does not parse. */
function accountAgeDays(acc: PyDict, now: PyDateTime): number {
  const opened = strptime(field(acc, "date_opened", ""), "%m/%d/%Y");
  return opened === null ? 0 : daysBetween(now, opened);
}

/** `acc.get("account_type", acc.get("class", ""))`. */
const accountType = (acc: PyDict): PyValue => field(acc, "account_type", field(acc, "class", ""));
const isOpenish = (acc: PyDict): boolean => inStrs(field(acc, "status", ""), OPEN_STATES);

/** The eligibility rules per account type; a message when they are not met. */
function eligibilityError(accountTypeArg: string, userAccounts: readonly PyDict[]): string | null {
  const now = getNow();
  if (accountTypeArg === "savings") {
    const ok = userAccounts.some(
      (acc) =>
        inStrs(accountType(acc), PERSONAL_CHECKING) && isOpenish(acc) && accountAgeDays(acc, now) >= 14,
    );
    if (!ok) return INELIGIBLE;
  }
  if (accountTypeArg === "business_checking") {
    if (userAccounts.some((acc) => pyEquals(field(acc, "status"), "CLOSED"))) return INELIGIBLE;
    if (!userAccounts.some((acc) => inStrs(accountType(acc), PERSONAL_CHECKING) && isOpenish(acc))) {
      return INELIGIBLE;
    }
  }
  if (accountTypeArg === "business_savings") {
    for (const acc of userAccounts) if (getAccountBalance(acc).v < 0) return INELIGIBLE;
    const ok = userAccounts.some(
      (acc) =>
        pyEquals(accountType(acc), "business_checking") && isOpenish(acc) && accountAgeDays(acc, now) >= 30,
    );
    if (!ok) return INELIGIBLE;
  }
  return null;
}

export const openBankAccount = agentTool(
  "open_bank_account_4821",
  "write",
  ["user_id", "account_type", "account_class"],
  (db, { user_id, account_type, account_class }) => {
    if (!pyTruthy(user_id) || !pyTruthy(account_type) || !pyTruthy(account_class)) {
      return "Error: Missing required parameters.";
    }
    if (!inStrs(account_type, ACCOUNT_TYPES)) {
      return `Error: Invalid account_type. Must be one of: ${pyListRepr(ACCOUNT_TYPES)}`;
    }
    const type = account_type as string;
    const userAccounts = db
      .values("accounts")
      .filter((acc) => pyEquals(field(acc as PyDict, "user_id"), user_id));
    const ineligible = eligibilityError(type, userAccounts as PyDict[]);
    if (ineligible !== null) return ineligible;

    const accountId = deterministicId(`account:${pyStr(user_id)}:${type}:${pyStr(account_class)}`);
    const today = getTodayStr();
    const record: PyDict = {
      account_id: accountId,
      user_id: user_id as PyValue,
      account_type: type,
      account_class: account_class as PyValue,
      current_holdings: "0.00",
      status: "OPEN",
      date_opened: today,
    };
    if (!addToDb("accounts", accountId, record, db)) {
      return `Failed to open account: Account ID '${accountId}' may already exist.`;
    }
    return [
      "Bank account opened successfully!",
      `  - Account ID: ${accountId}`,
      `  - User ID: ${pyStr(user_id)}`,
      `  - Account Type: ${type}`,
      `  - Account Class: ${pyStr(account_class)}`,
      "  - Status: OPEN",
      "  - Initial Balance: $0.00",
      `  - Date Opened: ${today}`,
    ].join("\n");
  },
);

interface EarlyClosure {
  readonly fee: number;
  readonly windowDays: number;
}
const tier = (fee: number, windowDays: number): EarlyClosure => ({ fee, windowDays });

const PERSONAL_CHECKING_EARLY_CLOSURE: Readonly<Record<string, EarlyClosure>> = {
  "Light Blue Account": tier(15, 30),
  "Light Green Account": tier(15, 30),
  "Green Fee-Free Account": tier(15, 30),
  "Blue Account": tier(25, 60),
  "Green Account": tier(25, 60),
  "Evergreen Account": tier(50, 90),
  "Bluest Account": tier(100, 180),
};
const PERSONAL_SAVINGS_EARLY_CLOSURE: Readonly<Record<string, EarlyClosure>> = {
  "Bronze Account": tier(20, 60),
  "Silver Account": tier(35, 90),
  "Silver Plus Account": tier(35, 90),
  "Gold Account": tier(75, 180),
  "Gold Plus Account": tier(75, 180),
  "Gold Years Account": tier(75, 180),
  "Platinum Account": tier(150, 270),
  "Platinum Plus Account": tier(150, 270),
  "Diamond Elite Account": tier(150, 270),
};

/** The early-closure fee due, or null when the balance cannot cover it. */
function earlyClosureFee(account: PyDict, balance: number): number | null {
  const level = field(account, "level", "");
  const cls = field(account, "class", "");
  const opened = field(account, "date_opened", "");
  // tau2 quirk: DB accounts are class "saving", so the savings fee table never applies to them.
  const config = pyEquals(cls, "checking")
    ? lookup(PERSONAL_CHECKING_EARLY_CLOSURE, level)
    : pyEquals(cls, "savings")
      ? lookup(PERSONAL_SAVINGS_EARLY_CLOSURE, level)
      : undefined;
  if (config === undefined || !pyTruthy(opened)) return 0;
  const date = strptime(opened, "%m/%d/%Y");
  if (date === null) return 0;
  if (daysBetween(getNow(), date) >= config.windowDays) return 0;
  return balance < config.fee ? null : config.fee;
}

export const closeBankAccount = agentTool(
  "close_bank_account_7392",
  "write",
  ["account_id", ["reason", "Customer requested closure"], ["waive_early_closure_fee", false]],
  (db, { account_id, reason, waive_early_closure_fee }) => {
    if (!pyTruthy(account_id)) return "Error: Missing required parameter (account_id).";
    const account = getRecord(db, "accounts", account_id);
    if (account === undefined) return `Error: Account '${pyStr(account_id)}' not found.`;
    const id = account_id as string;
    if (pyEquals(field(account, "status"), "CLOSED")) return `Error: Account '${id}' is already closed.`;

    const balance = getAccountBalance(account).v;
    const waive = pyTruthy(waive_early_closure_fee);
    let fee = 0;
    if (!waive) {
      const due = earlyClosureFee(account, balance);
      if (due === null) return "Error: Account unable to be closed.";
      fee = due;
    }
    // tau2 quirk: the early-closure fee only gates the closure; it is never deducted from the balance.
    if (balance - fee !== 0) {
      return `Error: Account balance must be $0.00 before closing. Current balance: $${money(balance)}`;
    }
    const today = getTodayStr();
    const rec = db.mut("accounts", id);
    rec.status = "CLOSED";
    rec.date_closed = today;
    rec.closure_reason = reason as PyValue;
    rec.early_closure_fee_waived = waive_early_closure_fee as PyValue;
    return [
      "Bank account closed successfully!",
      `  - Account ID: ${id}`,
      `  - Account Type: ${pyStr(field(rec, "account_type", "N/A"))}`,
      `  - Account Class: ${pyStr(field(rec, "account_class", "N/A"))}`,
      "  - Status: CLOSED",
      `  - Date Closed: ${today}`,
      `  - Reason: ${pyStr(reason)}`,
      `  - Early Closure Fee Waived: ${waive ? "Yes" : "No"}`,
    ].join("\n");
  },
);
