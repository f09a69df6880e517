/**
 * The user discoverable tools of tau2's `KnowledgeUserTools`: real-world actions the agent gives the
 * user (`give_discoverable_user_tool`). Each checks it was given, logs the call, then acts. Arguments
 * arrive unchecked (through `call_discoverable_user_tool` with every JSON number a float).
 */
import { pyStr, pyTruthy } from "../../py/builtins.ts";
import { exceptValueOrTypeError, pyDumpsIndent, pyToFloat } from "../../py/format.ts";
import { type PyDict, type PyValue, pyEquals, setKey } from "../../py/value.ts";
import type { DbState } from "../db-state.ts";
import type { Args } from "../toolkit.ts";
import { addToDb } from "./db-query.ts";
import { type DiscoverableKind, type DiscoverableTool, discoverable } from "./discoverable.ts";
import { ccAccountMissing, field, getRecord, money, queryByField } from "./records.ts";
import {
  deterministicId,
  generateDisputeId,
  generateReferralLinkId,
  generateUserDiscoverableToolCallId,
  getAccountBalance,
  getTodayStr,
} from "./utils.ts";

/** `_check_tool_given`: the refusal text, or null when the agent gave the tool (only "No records found" counts). */
export function checkToolGiven(toolName: string, db: DbState): string | null {
  const result = queryByField(db, "user_discoverable_tools", "tool_name", toolName);
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

/**
 * A user discoverable tool, which tau2 writes to one pattern: refuse unless given, log the call with
 * its arguments (`{param: value}` in parameter order), then act. `executed` is the
 * `Executed: <name>\nArguments: <json.dumps(args, indent=2)>\n` block its results quote.
 */
function userTool<const K extends string>(
  name: string,
  kind: DiscoverableKind,
  docstring: string,
  params: readonly K[],
  act: (db: DbState, a: Readonly<Record<K, PyValue>>, executed: string) => string,
): DiscoverableTool {
  return discoverable(name, kind, docstring, params, (db, a) => {
    const refused = checkToolGiven(name, db);
    if (refused !== null) return refused;
    const args: PyDict = {};
    for (const p of params) args[p] = a[p];
    logUserToolCall(name, args, db);
    return act(db, a, `Executed: ${name}\nArguments: ${pyDumpsIndent(args, 2)}\n`);
  });
}

const submitCashBackDispute = userTool(
  "submit_cash_back_dispute_0589",
  "write",
  "Submit a cash back dispute for a specific transaction.\n\n        Args:\n            user_id (string): The user's unique identifier in the system\n            transaction_id (string): The unique identifier for the transaction with incorrect cash back\n\n        Returns:\n            Cash back dispute submitted successfully. Your case has been queued for review.\n        ",
  ["user_id", "transaction_id"],
  (db, { user_id, transaction_id }, executed) => {
    const disputeId = generateDisputeId(user_id, transaction_id);
    let autoResolve: PyValue = false;
    if (db.keys("task_config").length > 0) {
      const config = db.get("task_config", "dispute_settings") ?? {};
      autoResolve = field(config, "auto_resolve_disputes", false);
    }
    const record: PyDict = { dispute_id: disputeId, user_id, transaction_id, submitted_at: getTodayStr() };
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
    return (
      `Cash back dispute submitted successfully. Your case has been queued for review.\n\n${executed}` +
      (added
        ? `Dispute ID: ${disputeId}\n${statusMsg}`
        : "Note: Dispute may have already been submitted for this transaction.")
    );
  },
);

const getReferralLink = userTool(
  "get_referral_link",
  "write",
  "Generate a referral link for a specific credit card to share with friends or family.\n\n        Args:\n            user_id (string): The user's unique identifier in the system (the referrer)\n            card_name (string): The name of the credit card to create a referral for (e.g., 'Gold Rewards Card')\n\n        Returns:\n            Referral link generated successfully. Share this link with the person you want to refer.\n        ",
  ["user_id", "card_name"],
  (db, { user_id, card_name }, executed) => {
    const referralId = generateReferralLinkId(user_id, card_name);
    const record: PyDict = {
      referral_id: referralId,
      referrer_id: user_id,
      referred_account_type: card_name,
      referral_status: "NO_PROGRESS",
      date: getTodayStr(),
    };
    const added = addToDb("referrals", referralId, record, db);
    return (
      `Referral link generated successfully. Share this link with the person you want to refer.\n\n${executed}` +
      (added
        ? `Referral ID: ${referralId}\nReferral link: https://rhobank.com/refer/${referralId}`
        : "Note: A referral link for this card may have already been generated.")
    );
  },
);

/** The first four decimal digits of sha256(`card_last4:<id>`) as hex, right-padded with "0" (`ljust`). */
function lastFourDigits(accountId: PyValue): string {
  const hex = deterministicId(`card_last4:${pyStr(accountId)}`, 64);
  return (hex.match(/[0-9]/g) ?? []).slice(0, 4).join("").padEnd(4, "0");
}

const getCardLast4Digits = userTool(
  "get_card_last_4_digits",
  "read",
  "Look up the last 4 digits of a credit card number.\n\n        Args:\n            credit_card_account_id (string): The credit card account ID to look up (e.g., 'cc_76ad9cc60e_gold')\n\n        Returns:\n            Card information retrieved successfully.\n        ",
  ["credit_card_account_id"],
  (db, { credit_card_account_id: id }, executed) => {
    // tau2 quirk: the id is pasted into JSON text unescaped; an id that breaks the JSON gives an
    // "Error: Invalid JSON" result, which is not "No records found", so the lookup "succeeds".
    if (ccAccountMissing(db, id)) return `Error: Credit card account '${pyStr(id)}' not found.`;
    return `Card information retrieved successfully.\n\n${executed}Last 4 digits of card: ${lastFourDigits(id)}`;
  },
);

const depositCheck = userTool(
  "deposit_check_3847",
  "write",
  "Deposit a check into a checking or savings account. The user takes a photo of the check and submits it through their mobile banking app.\n\n        Args:\n            account_id (string): The bank account ID to deposit the check into\n            check_amount (number): The amount of the check in USD\n\n        Returns:\n            Check deposited successfully. Funds will be available according to your account's deposit policy.\n        ",
  ["account_id", "check_amount"],
  (db, { account_id, check_amount }, executed) => {
    const amount = exceptValueOrTypeError(() => pyToFloat(check_amount).v, null);
    if (amount === null) return `Error: Invalid check amount '${pyStr(check_amount)}'. Must be a number.`;
    // NaN passes this check (every comparison with NaN is false), as in Python.
    if (amount <= 0) return "Error: Check amount must be positive.";
    const account = getRecord(db, "accounts", account_id);
    if (account === undefined) return `Error: Account '${pyStr(account_id)}' not found.`;
    const id = account_id as string;
    const status = field(account, "status");
    if (!pyEquals(status, "ACTIVE") && !pyEquals(status, "OPEN"))
      return `Error: Account '${id}' is not active.`;
    const current = getAccountBalance(account).v;
    const next = current + amount;
    db.mut("accounts", id).current_holdings = `$${money(next)}`;
    return (
      "Check deposited successfully. Funds will be available according to your account's deposit policy.\n\n" +
      executed +
      "Check deposit processed!\n" +
      `  - Account: ${id}\n` +
      `  - Check Amount: $${money(amount)}\n` +
      `  - Previous Balance: $${money(current)}\n` +
      `  - New Balance: $${money(next)}`
    );
  },
);

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
