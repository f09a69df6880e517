/**
 * The user discoverable tools of tau2's `KnowledgeUserTools`: real-world actions the agent gives the
 * user (`give_discoverable_user_tool`). Each checks it was given, logs the call, then acts. Arguments
 * arrive unchecked (through `call_discoverable_user_tool` with every JSON number a float).
 */
import { createHash } from "node:crypto";
import { pyStr, pyTruthy } from "../../py/builtins.ts";
import { PyTypeError } from "../../py/errors.ts";
import { PyValueError, pyDumpsIndent, pyFormatFixed, pyToFloat } from "../../py/format.ts";
import {
  isPyDict,
  type PyDict,
  type PyValue,
  pyEquals,
  pyFloat,
  pyTypeName,
  setKey,
} from "../../py/value.ts";
import type { DbState } from "../db-state.ts";
import type { Args } from "../toolkit.ts";
import { addToDb, queryDatabaseTool } from "./db-query.ts";
import type { DiscoverableTool } from "./discoverable.ts";
import {
  checkEncodable,
  generateDisputeId,
  generateReferralLinkId,
  generateUserDiscoverableToolCallId,
  getTodayStr,
  parseBalance,
} from "./utils.ts";

/** `_check_tool_given`: the refusal text, or null when the agent gave the tool. */
export function checkToolGiven(toolName: string, db: DbState): string | null {
  const result = queryDatabaseTool("user_discoverable_tools", `{"tool_name": "${toolName}"}`, db);
  if (!result.includes("No records found")) return null;
  return (
    `Error: Tool '${toolName}' has not been given to you by the agent. ` +
    "The agent must first use `give_discoverable_user_tool` to give this tool to you."
  );
}

/** `_log_user_tool_call`: one record per distinct (name, arguments); a repeat is silently not logged. */
export function logUserToolCall(toolName: string, args: PyDict, db: DbState): void {
  const record: PyDict = { tool_name: toolName, arguments: args, called_at: getTodayStr(), status: "CALLED" };
  addToDb("user_discoverable_tool_calls", generateUserDiscoverableToolCallId(toolName, args), record, db);
}

/** The `Executed: ...` block every discoverable tool result carries. */
const executed = (name: string, args: PyDict): string =>
  `Executed: ${name}\nArguments: ${pyDumpsIndent(args, 2)}\n`;

/** Python `key not in dict` for a str-keyed dict: an unhashable key raises TypeError. */
function hashableKey(key: PyValue | undefined): string | null {
  if (Array.isArray(key) || isPyDict(key)) throw new PyTypeError(`unhashable type: '${pyTypeName(key)}'`);
  return typeof key === "string" ? key : null;
}

const submitCashBackDispute: DiscoverableTool = {
  name: "submit_cash_back_dispute_0589",
  kind: "write",
  params: [{ name: "user_id" }, { name: "transaction_id" }],
  docstring:
    "Submit a cash back dispute for a specific transaction.\n\n        Args:\n            user_id (string): The user's unique identifier in the system\n            transaction_id (string): The unique identifier for the transaction with incorrect cash back\n\n        Returns:\n            Cash back dispute submitted successfully. Your case has been queued for review.\n        ",
  run(db, { user_id, transaction_id }) {
    const name = "submit_cash_back_dispute_0589";
    const refused = checkToolGiven(name, db);
    if (refused !== null) return refused;
    const args: PyDict = { user_id: user_id as PyValue, transaction_id: transaction_id as PyValue };
    logUserToolCall(name, args, db);
    const disputeId = generateDisputeId(user_id, transaction_id);
    let autoResolve: PyValue = false;
    if (db.keys("task_config").length > 0) {
      const config = db.get("task_config", "dispute_settings") ?? {};
      autoResolve = Object.hasOwn(config as PyDict, "auto_resolve_disputes")
        ? ((config as PyDict).auto_resolve_disputes as PyValue)
        : false;
    }
    const record: PyDict = {
      dispute_id: disputeId,
      user_id: user_id as PyValue,
      transaction_id: transaction_id as PyValue,
      submitted_at: getTodayStr(),
    };
    let statusMsg: string;
    if (pyTruthy(autoResolve)) {
      record.status = "RESOLVED";
      record.resolution = "APPROVED";
      statusMsg =
        "Status: RESOLVED - The dispute has been reviewed and approved. The transaction rewards need to be updated.";
    } else {
      record.status = "SUBMITTED";
      statusMsg = "Status: SUBMITTED - Your dispute has been queued for review.";
    }
    const added = addToDb("cash_back_disputes", disputeId, record, db);
    let result = `Cash back dispute submitted successfully. Your case has been queued for review.\n\n${executed(name, args)}`;
    result += added
      ? `Dispute ID: ${disputeId}\n${statusMsg}`
      : "Note: Dispute may have already been submitted for this transaction.";
    return result;
  },
};

const getReferralLink: DiscoverableTool = {
  name: "get_referral_link",
  kind: "write",
  params: [{ name: "user_id" }, { name: "card_name" }],
  docstring:
    "Generate a referral link for a specific credit card to share with friends or family.\n\n        Args:\n            user_id (string): The user's unique identifier in the system (the referrer)\n            card_name (string): The name of the credit card to create a referral for (e.g., 'Gold Rewards Card')\n\n        Returns:\n            Referral link generated successfully. Share this link with the person you want to refer.\n        ",
  run(db, { user_id, card_name }) {
    const name = "get_referral_link";
    const refused = checkToolGiven(name, db);
    if (refused !== null) return refused;
    const args: PyDict = { user_id: user_id as PyValue, card_name: card_name as PyValue };
    logUserToolCall(name, args, db);
    const referralId = generateReferralLinkId(user_id, card_name);
    const record: PyDict = {
      referral_id: referralId,
      referrer_id: user_id as PyValue,
      referred_account_type: card_name as PyValue,
      referral_status: "NO_PROGRESS",
      date: getTodayStr(),
    };
    const added = addToDb("referrals", referralId, record, db);
    let result = `Referral link generated successfully. Share this link with the person you want to refer.\n\n${executed(name, args)}`;
    result += added
      ? `Referral ID: ${referralId}\nReferral link: https://rhobank.com/refer/${referralId}`
      : "Note: A referral link for this card may have already been generated.";
    return result;
  },
};

/** The first four decimal digits of sha256(`card_last4:<id>`) as hex, right-padded with "0". */
function lastFourDigits(accountId: PyValue | undefined): string {
  const seed = `card_last4:${pyStr(accountId)}`;
  checkEncodable(seed);
  const hex = createHash("sha256").update(seed, "utf8").digest("hex");
  return (hex.match(/[0-9]/g) ?? []).slice(0, 4).join("").padEnd(4, "0");
}

const getCardLast4Digits: DiscoverableTool = {
  name: "get_card_last_4_digits",
  kind: "read",
  params: [{ name: "credit_card_account_id" }],
  docstring:
    "Look up the last 4 digits of a credit card number.\n\n        Args:\n            credit_card_account_id (string): The credit card account ID to look up (e.g., 'cc_76ad9cc60e_gold')\n\n        Returns:\n            Card information retrieved successfully.\n        ",
  run(db, { credit_card_account_id: id }) {
    const name = "get_card_last_4_digits";
    const refused = checkToolGiven(name, db);
    if (refused !== null) return refused;
    const args: PyDict = { credit_card_account_id: id as PyValue };
    logUserToolCall(name, args, db);
    // tau2 quirk: the id is pasted into JSON text unescaped; an id that breaks the JSON gives an
    // "Error: Invalid JSON" result, which is not "No records found", so the lookup "succeeds".
    const result = queryDatabaseTool("credit_card_accounts", `{"account_id": "${pyStr(id)}"}`, db);
    if (result.includes("No results found") || result.includes("No records found")) {
      return `Error: Credit card account '${pyStr(id)}' not found.`;
    }
    return `Card information retrieved successfully.\n\n${executed(name, args)}Last 4 digits of card: ${lastFourDigits(id)}`;
  },
};

const depositCheck: DiscoverableTool = {
  name: "deposit_check_3847",
  kind: "write",
  params: [{ name: "account_id" }, { name: "check_amount" }],
  docstring:
    "Deposit a check into a checking or savings account. The user takes a photo of the check and submits it through their mobile banking app.\n\n        Args:\n            account_id (string): The bank account ID to deposit the check into\n            check_amount (number): The amount of the check in USD\n\n        Returns:\n            Check deposited successfully. Funds will be available according to your account's deposit policy.\n        ",
  run(db, { account_id, check_amount }) {
    const name = "deposit_check_3847";
    const refused = checkToolGiven(name, db);
    if (refused !== null) return refused;
    const args: PyDict = { account_id: account_id as PyValue, check_amount: check_amount as PyValue };
    logUserToolCall(name, args, db);
    let amount: number;
    try {
      amount = pyToFloat(check_amount).v;
    } catch (e) {
      if (e instanceof PyTypeError || e instanceof PyValueError) {
        return `Error: Invalid check amount '${pyStr(check_amount)}'. Must be a number.`;
      }
      throw e;
    }
    // NaN passes this check (every comparison with NaN is false), as in Python.
    if (amount <= 0) return "Error: Check amount must be positive.";
    const id = hashableKey(account_id);
    if (id === null || !db.has("accounts", id)) return `Error: Account '${pyStr(account_id)}' not found.`;
    const account = db.get("accounts", id) as PyDict;
    const status = Object.hasOwn(account, "status") ? account.status : null;
    if (!pyEquals(status, "ACTIVE") && !pyEquals(status, "OPEN")) {
      return `Error: Account '${id}' is not active.`;
    }
    const raw = Object.hasOwn(account, "current_holdings")
      ? account.current_holdings
      : Object.hasOwn(account, "balance")
        ? account.balance
        : 0;
    const current = parseBalance(raw).v;
    const next = current + amount;
    setKey(db.mut("accounts", id), "current_holdings", `$${pyFormatFixed(pyFloat(next), 2)}`);
    return (
      "Check deposited successfully. Funds will be available according to your account's deposit policy.\n\n" +
      executed(name, args) +
      "Check deposit processed!\n" +
      `  - Account: ${id}\n` +
      `  - Check Amount: $${pyFormatFixed(pyFloat(amount), 2)}\n` +
      `  - Previous Balance: $${pyFormatFixed(pyFloat(current), 2)}\n` +
      `  - New Balance: $${pyFormatFixed(pyFloat(next), 2)}`
    );
  },
};

/** `userDiscoverableTools` in class source order (the order `get_discoverable_tools` lists them). */
export const userDiscoverableTools: DiscoverableTool[] = [
  submitCashBackDispute,
  getReferralLink,
  getCardLast4Digits,
  depositCheck,
];

/** Fills the defaults of a discoverable tool's parameters (the dispatcher has checked the names). */
export function discoverableArgs(tool: DiscoverableTool, given: PyDict): Args {
  const out: PyDict = {};
  for (const p of tool.params) {
    const v = Object.hasOwn(given, p.name) ? given[p.name] : p.default;
    setKey(out, p.name, v as PyValue);
  }
  return out;
}
