/**
 * Test helpers for the credit/dispute discoverable tools: tau2's `base_knowledge_db` fixture of
 * test_tools_knowledge.py (types kept: `1500.00` is a float, `5000` an int), and calls that pass
 * arguments as `call_discoverable_agent_tool` does (`json.loads(..., parse_int=float)`).
 */
import { creditDiscoverableTools } from "../../../src/domains/banking_knowledge/agent-tools/credit.ts";
import type { DiscoverableTool } from "../../../src/domains/banking_knowledge/discoverable.ts";
import { bankingDbFromPlain } from "../../../src/domains/banking_knowledge/schema.ts";
import { DbState } from "../../../src/domains/db-state.ts";
import { TAU2_QUIRKS } from "../../../src/domains/quirks.ts";
import { type CallOutcome, invoke, type ToolEnv } from "../../../src/domains/toolkit.ts";
import { parsePyJson } from "../../../src/py/parse.ts";
import { isPyDict, type PyDict, PyFloat, type PyValue } from "../../../src/py/value.ts";

const FIXTURE = `{
  "users": {"data": {
    "user_001": {"name": "Amara Okonkwo", "user_id": "user_001", "address": "305 Magnolia Street, Houston, TX 77002",
      "email": "amara@icloud.com", "phone_number": "713-555-0963", "date_of_birth": "08/11/1997"},
    "user_002": {"name": "Fatima Al-Hassan", "user_id": "user_002", "address": "1923 Oak Park Boulevard, Detroit, MI 48226",
      "email": "fatima@protonmail.com", "phone_number": "313-555-0246", "date_of_birth": "12/05/1993"}}},
  "accounts": {"data": {
    "chk_001": {"account_id": "chk_001", "user_id": "user_001", "account_type": "checking", "account_class": "Standard Checking",
      "class": "checking", "level": "Blue Account", "current_holdings": "5000.00", "status": "OPEN", "date_opened": "01/15/2024"},
    "chk_002": {"account_id": "chk_002", "user_id": "user_002", "account_type": "checking", "account_class": "Premium Checking",
      "class": "checking", "level": "Green Account", "current_holdings": "200.00", "status": "OPEN", "date_opened": "03/10/2024"},
    "sav_001": {"account_id": "sav_001", "user_id": "user_001", "account_type": "savings", "account_class": "High-Yield Savings",
      "class": "savings", "level": "Silver Account", "current_holdings": "10000.00", "status": "OPEN", "date_opened": "01/15/2024"},
    "chk_closed": {"account_id": "chk_closed", "user_id": "user_001", "account_type": "checking", "account_class": "Standard Checking",
      "class": "checking", "level": "Blue Account", "current_holdings": "0.00", "status": "CLOSED", "date_opened": "01/01/2023"}}},
  "credit_card_accounts": {"data": {
    "cc_001": {"account_id": "cc_001", "user_id": "user_001", "card_type": "Gold Rewards Card", "date_opened": "02/01/2024",
      "current_balance": 1500.00, "reward_points": 5000, "credit_limit": 5000, "status": "ACTIVE"},
    "cc_002": {"account_id": "cc_002", "user_id": "user_002", "card_type": "Silver Rewards Card", "date_opened": "04/01/2024",
      "current_balance": 800.00, "reward_points": 2000, "credit_limit": 3000, "status": "ACTIVE"}}},
  "credit_card_transaction_history": {"data": {
    "txn_001": {"transaction_id": "txn_001", "user_id": "user_001", "credit_card_type": "Gold Rewards Card", "merchant_name": "Amazon",
      "transaction_amount": "$150.00", "transaction_date": "10/01/2025", "category": "Shopping", "status": "COMPLETED",
      "rewards_earned": "375 points"},
    "txn_002": {"transaction_id": "txn_002", "user_id": "user_001", "credit_card_type": "Gold Rewards Card",
      "merchant_name": "Delta Airlines", "transaction_amount": "$500.00", "transaction_date": "10/15/2025", "category": "Travel",
      "status": "COMPLETED", "rewards_earned": "1250 points"},
    "txn_003": {"transaction_id": "txn_003", "user_id": "user_002", "credit_card_type": "Silver Rewards Card",
      "merchant_name": "Trader Joe's", "transaction_amount": "$47.83", "transaction_date": "11/01/2025", "category": "Groceries",
      "status": "COMPLETED", "rewards_earned": "47 points"}}},
  "debit_cards": {"data": {
    "dbc_001": {"card_id": "dbc_001", "account_id": "chk_001", "user_id": "user_001", "last_4_digits": "4321", "status": "PENDING",
      "issue_reason": "new_account", "date_issued": "11/01/2025"},
    "dbc_002": {"card_id": "dbc_002", "account_id": "chk_001", "user_id": "user_001", "last_4_digits": "8765", "status": "ACTIVE",
      "issue_reason": "new_account", "date_issued": "09/01/2025"},
    "dbc_003": {"card_id": "dbc_003", "account_id": "chk_002", "user_id": "user_002", "last_4_digits": "1111", "status": "PENDING",
      "issue_reason": "lost", "date_issued": "11/01/2025"},
    "dbc_frozen": {"card_id": "dbc_frozen", "account_id": "chk_001", "user_id": "user_001", "last_4_digits": "9999",
      "status": "FROZEN", "issue_reason": "new_account", "date_issued": "08/01/2025"},
    "dbc_expired": {"card_id": "dbc_expired", "account_id": "chk_001", "user_id": "user_001", "last_4_digits": "5555",
      "status": "PENDING", "issue_reason": "expired", "date_issued": "11/10/2025"}}},
  "referrals": {"data": {
    "ref_001": {"referral_id": "ref_001", "referrer_id": "user_001", "referred_account_type": "Gold Rewards Card",
      "referral_status": "NO_PROGRESS", "date": "10/01/2025"}}},
  "task_config": {"data": {"dispute_settings": {"auto_resolve_disputes": true}}}
}`;

/** A fresh DB state holding tau2's `base_knowledge_db` fixture (tables it omits start empty). */
export function baseKnowledgeDb(): DbState {
  return DbState.of(bankingDbFromPlain(parsePyJson(FIXTURE)));
}

export const newEnv = (): ToolEnv => ({ shared: new Map(), quirks: TAU2_QUIRKS });

/** `json.loads(json.dumps(v), parse_int=float)`: every number becomes a float. */
export function floatNumbers(v: PyValue): PyValue {
  if (typeof v === "number" || typeof v === "bigint") return new PyFloat(Number(v));
  if (Array.isArray(v)) return v.map(floatNumbers);
  if (isPyDict(v)) {
    const out: PyDict = {};
    for (const k of Object.keys(v)) out[k] = floatNumbers(v[k] as PyValue);
    return out;
  }
  return v;
}

export function creditTool(name: string): DiscoverableTool {
  const tool = creditDiscoverableTools.find((t) => t.name === name);
  if (tool === undefined) throw new Error(`no credit tool ${name}`);
  return tool;
}

/** Calls a tool with the arguments tau2's `call_discoverable_agent` test helper would pass it. */
export const callAgentTool = (db: DbState, name: string, args: PyDict, env = newEnv()): CallOutcome =>
  invoke("KnowledgeTools", creditTool(name), db, floatNumbers(args), env);

/** A record as a plain comparable value (floats as `{float: v}` so int/float differences show). */
export function typed(v: PyValue | undefined): unknown {
  if (v instanceof PyFloat) return { float: v.v };
  if (Array.isArray(v)) return v.map(typed);
  if (isPyDict(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, typed(x)]));
  return v;
}
