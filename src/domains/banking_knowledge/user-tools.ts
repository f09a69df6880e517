/**
 * tau2's banking `KnowledgeUserTools`: the customer's tools. The four discoverable tools are tools of
 * the toolkit too (tau2's `ToolKitBase.tools` lists every decorated method; only `get_tools`, the
 * prompt schema, leaves discoverable ones out), so a direct call by name runs them.
 */
import { pyCount, pyStr, requireHashable } from "../../py/builtins.ts";
import { pyIn } from "../../py/compare.ts";
import { PyTypeError } from "../../py/errors.ts";
import { exceptValueOrTypeError, pyFormatFixed, pyIntOfFloat, pyToFloat } from "../../py/format.ts";
import { floatRepr } from "../../py/number.ts";
import { pyListRepr } from "../../py/repr.ts";
import { isPyDict, numericValue, type PyDict, type PyValue, pyEquals, pyTypeName } from "../../py/value.ts";
import { type FunctionDef, makeToolkit, type ToolDef, type Toolkit } from "../toolkit.ts";
import { addToDb, queryDatabaseTool } from "./db-query.ts";
import { listTable, loadArguments, unexpectedParameter } from "./discoverable.ts";
import { noMatch } from "./records.ts";
import { discoverableArgs, userDiscoverableTools } from "./user-discoverable.ts";
import { generateApplicationId, generateReferralId, generateTransactionId, getTodayStr } from "./utils.ts";

const VALID_CREDIT_CARD_TYPES = [
  "Bronze Rewards Card",
  "Business Bronze Rewards Card",
  "Business Gold Rewards Card",
  "Business Platinum Rewards Card",
  "Business Silver Rewards Card",
  "Crypto-Cash Back",
  "Diamond Elite Card",
  "EcoCard",
  "Gold Rewards Card",
  "Green Rewards Card",
  "Platinum Rewards Card",
  "Silver Rewards Card",
  "Silver Zoom Card",
];

/** `CREDIT_CARD_REWARDS`: card type -> category -> reward percentage (all Python floats). */
const CREDIT_CARD_REWARDS: ReadonlyMap<string, Readonly<Record<string, number>>> = new Map<
  string,
  Readonly<Record<string, number>>
>([
  ["Bronze Rewards Card", { default: 1.0 }],
  ["Silver Rewards Card", { Travel: 4.0, Software: 4.0, default: 1.0 }],
  ["Gold Rewards Card", { default: 2.5 }],
  ["Platinum Rewards Card", { default: 10.0 }],
  ["Business Bronze Rewards Card", { default: 1.0 }],
  ["Business Silver Rewards Card", { Travel: 10.0, Software: 10.0, default: 1.0 }],
  ["Green Rewards Card", { Sustainable: 3.0, default: 1.0 }],
  ["Business Gold Rewards Card", { Operations: 2.5, default: 1.0 }],
  ["Business Platinum Rewards Card", { Travel: 4.0, Software: 4.0, Media: 4.0, default: 1.5 }],
  ["Silver Zoom Card", { Transportation: 3.0, default: 1.0 }],
  ["Diamond Elite Card", { default: 5.0 }],
  ["EcoCard", { Green: 5.0, default: 1.0 }],
  ["Crypto-Cash Back", { default: 2.0 }],
]);

const applyForCreditCard: ToolDef = {
  name: "apply_for_credit_card",
  kind: "write",
  params: [
    { name: "card_type" },
    { name: "customer_name" },
    { name: "annual_income" },
    { name: "rho_bank_subscription", default: false },
  ],
  run(db, { card_type, customer_name, annual_income, rho_bank_subscription }) {
    if (!VALID_CREDIT_CARD_TYPES.some((t) => pyEquals(t, card_type))) {
      return `Error: Invalid card_type '${pyStr(card_type)}'. Must be one of: ${pyListRepr(VALID_CREDIT_CARD_TYPES)}`;
    }
    const income = exceptValueOrTypeError(() => pyToFloat(annual_income), null);
    if (income === null) return "Error: Invalid annual_income. Must be a number.";
    const applicationId = generateApplicationId(card_type, customer_name, income, rho_bank_subscription);
    const record: PyDict = {
      application_id: applicationId,
      card_type: card_type as PyValue,
      customer_name: customer_name as PyValue,
      annual_income: income,
      rho_bank_subscription: rho_bank_subscription as PyValue,
      status: "PENDING",
      date: getTodayStr(),
    };
    if (!addToDb("credit_card_applications", applicationId, record, db)) {
      return `Failed to submit application: Record ID '${applicationId}' may already exist.`;
    }
    return (
      "Credit card application submitted:\n" +
      "Your application has been successfully submitted. " +
      "You will receive a decision within 5-7 business days via email."
    );
  },
};

const submitReferral: ToolDef = {
  name: "submit_referral",
  kind: "write",
  params: [{ name: "user_id" }, { name: "account_type" }],
  run(db, { user_id, account_type }) {
    const referralId = generateReferralId(user_id, account_type);
    const today = getTodayStr();
    const record: PyDict = {
      referral_id: referralId,
      referrer_id: user_id as PyValue,
      referred_account_type: account_type as PyValue,
      referral_status: "NO_PROGRESS",
      date: today,
    };
    if (!addToDb("referrals", referralId, record, db)) {
      return `Failed to submit referral: Record ID '${referralId}' may already exist.`;
    }
    return (
      "Referral request submitted successfully!\n" +
      `  - Referral ID: ${referralId}\n` +
      `  - Referrer ID: ${pyStr(user_id)}\n` +
      `  - Account Type: ${pyStr(account_type)}\n` +
      "  - Status: NO_PROGRESS\n" +
      `  - Date: ${today}\n\n` +
      "Share your referral ID with the person you're referring. " +
      "They will need to use this when applying for their account."
    );
  },
};

/** Not a tool (no decorator); tasks may call it as an env function. */
const queryDatabase: FunctionDef = {
  name: "query_database",
  params: [{ name: "database_name" }, { name: "constraints", default: "{}" }],
  run: (db, { database_name, constraints }) => queryDatabaseTool(database_name, constraints, db),
};

const DISCOVERABLE = new Map(userDiscoverableTools.map((t) => [t.name, t]));
const TOOLS_MODULE = "tau2.domains.banking_knowledge.tools";

const callDiscoverableUserTool: ToolDef = {
  name: "call_discoverable_user_tool",
  kind: "write",
  params: [{ name: "discoverable_tool_name" }, { name: "arguments", default: "{}" }],
  run(db, { discoverable_tool_name: name, arguments: raw }, env) {
    requireHashable(name);
    const tool = typeof name === "string" ? DISCOVERABLE.get(name) : undefined;
    if (tool === undefined) return `Error: Unknown discoverable tool '${pyStr(name)}'.`;
    // JSON 33 and 33.0 are one number: tau2 makes every number a float so ids do not depend on spelling.
    const loaded = loadArguments(raw, true);
    if (!loaded.ok) return loaded.text;
    const args = loaded.value;
    for (const p of tool.params) {
      if (!("default" in p) && !pyIn(p.name, args)) return `Error: Missing required parameter: ${p.name}`;
    }
    const unexpected = unexpectedParameter(args, new Set(tool.params.map((p) => p.name)));
    if (unexpected !== null) return unexpected;
    try {
      if (!isPyDict(args)) {
        throw new PyTypeError(
          `${TOOLS_MODULE}.KnowledgeUserTools.${tool.name}() argument after ** must be a mapping, not ${pyTypeName(args)}`,
        );
      }
      return tool.run(db, discoverableArgs(tool, args), env);
    } catch (e) {
      if (e instanceof PyTypeError) return `Error: Invalid arguments for tool '${tool.name}': ${e.message}`;
      throw e;
    }
  },
};

const listDiscoverableUserTools: ToolDef = {
  name: "list_discoverable_user_tools",
  kind: "read",
  params: [],
  run: (db) =>
    listTable(
      db,
      "user_discoverable_tools",
      "Tools given to you by the agent:",
      "No tools have been given to you yet by the agent.",
    ),
};

const requestHumanAgentTransfer: ToolDef = {
  name: "request_human_agent_transfer",
  kind: "write",
  params: [],
  run(db) {
    const today = getTodayStr();
    const existing = queryDatabaseTool("human_transfer_requests", "{}", db);
    // tau2 counts prior requests by the substring "request_id" in the formatted listing.
    const count = noMatch(existing) ? 1 : pyCount(existing, "request_id") + 1;
    const requestId = `transfer_request_${count}`;
    const record: PyDict = {
      request_id: requestId,
      request_number: count,
      requested_at: today,
      status: "PENDING",
    };
    addToDb("human_transfer_requests", requestId, record, db);
    return `Transfer request #${count} submitted.\nThe agent will process your request.`;
  },
};

const submitTransaction: ToolDef = {
  name: "submit_transaction",
  kind: "write",
  params: [
    { name: "user_id" },
    { name: "credit_card_type" },
    { name: "merchant_name" },
    { name: "amount" },
    { name: "category" },
  ],
  run(db, { user_id, credit_card_type, merchant_name, amount, category }) {
    requireHashable(credit_card_type);
    const rewards =
      typeof credit_card_type === "string" ? CREDIT_CARD_REWARDS.get(credit_card_type) : undefined;
    if (rewards === undefined) {
      return `Error: Unknown credit card type '${pyStr(credit_card_type)}'. Available types: ${pyListRepr([...CREDIT_CARD_REWARDS.keys()])}`;
    }
    const transactionId = generateTransactionId(user_id, credit_card_type, merchant_name, amount, category);
    const today = getTodayStr();
    // generateTransactionId has required `category` to be a str.
    const cat = category as string;
    const rate = (Object.hasOwn(rewards, cat) ? rewards[cat] : rewards.default) as number;
    // The `.2f` format above accepted `amount`, so it is an int, float or bool.
    const points = pyIntOfFloat((numericValue(amount as PyValue) as number) * rate);
    const amountText = pyFormatFixed(amount, 2);
    const record: PyDict = {
      transaction_id: transactionId,
      user_id: user_id as PyValue,
      credit_card_type: credit_card_type as string,
      merchant_name: merchant_name as PyValue,
      transaction_amount: `$${amountText}`,
      transaction_date: today,
      category: cat,
      status: "COMPLETED",
      rewards_earned: `${points} points`,
    };
    if (!addToDb("credit_card_transaction_history", transactionId, record, db)) {
      return `Failed to submit transaction: Record ID '${transactionId}' may already exist.`;
    }
    return (
      "Transaction submitted successfully!\n" +
      `  - Transaction ID: ${transactionId}\n` +
      `  - User ID: ${pyStr(user_id)}\n` +
      `  - Card Type: ${credit_card_type}\n` +
      `  - Merchant: ${pyStr(merchant_name)}\n` +
      `  - Amount: $${amountText}\n` +
      `  - Category: ${cat}\n` +
      `  - Date: ${today}\n` +
      `  - Rewards Earned: ${points} points (${floatRepr(rate)}% cashback rate)\n`
    );
  },
};

/** Class attribute order, as tau2's `tools` dict lists them. */
export const bankingUserTools: Toolkit = makeToolkit(
  "KnowledgeUserTools",
  [
    ...userDiscoverableTools,
    applyForCreditCard,
    submitReferral,
    callDiscoverableUserTool,
    listDiscoverableUserTools,
    requestHumanAgentTransfer,
    submitTransaction,
  ],
  [queryDatabase],
);
