/**
 * The `base_knowledge_db` fixture of tau2's test_tools_knowledge.py (same records, Python int/float
 * kept: `1500.00` is a float, `5000` an int), and helpers to call the user toolkit as tau2's
 * `env.get_response` does for requestor "user".
 */
import { bankingDbFromPlain } from "../../../src/domains/banking_knowledge/schema.ts";
import { bankingUserTools } from "../../../src/domains/banking_knowledge/user-tools.ts";
import { generateUserDiscoverableToolId } from "../../../src/domains/banking_knowledge/utils.ts";
import { DbState } from "../../../src/domains/db-state.ts";
import { TAU2_QUIRKS } from "../../../src/domains/quirks.ts";
import { type CallOutcome, invoke, type ToolEnv } from "../../../src/domains/toolkit.ts";
import { parsePyJson } from "../../../src/py/parse.ts";
import type { PyDict, PyValue } from "../../../src/py/value.ts";

const BASE_KNOWLEDGE_DB = `{
 "users": {
  "data": {
   "user_001": {
    "name": "Amara Okonkwo",
    "user_id": "user_001",
    "address": "305 Magnolia Street, Houston, TX 77002",
    "email": "amara@icloud.com",
    "phone_number": "713-555-0963",
    "date_of_birth": "08/11/1997"
   },
   "user_002": {
    "name": "Fatima Al-Hassan",
    "user_id": "user_002",
    "address": "1923 Oak Park Boulevard, Detroit, MI 48226",
    "email": "fatima@protonmail.com",
    "phone_number": "313-555-0246",
    "date_of_birth": "12/05/1993"
   }
  },
  "notes": ""
 },
 "accounts": {
  "data": {
   "chk_001": {
    "account_id": "chk_001",
    "user_id": "user_001",
    "account_type": "checking",
    "account_class": "Standard Checking",
    "class": "checking",
    "level": "Blue Account",
    "current_holdings": "5000.00",
    "status": "OPEN",
    "date_opened": "01/15/2024"
   },
   "chk_002": {
    "account_id": "chk_002",
    "user_id": "user_002",
    "account_type": "checking",
    "account_class": "Premium Checking",
    "class": "checking",
    "level": "Green Account",
    "current_holdings": "200.00",
    "status": "OPEN",
    "date_opened": "03/10/2024"
   },
   "sav_001": {
    "account_id": "sav_001",
    "user_id": "user_001",
    "account_type": "savings",
    "account_class": "High-Yield Savings",
    "class": "savings",
    "level": "Silver Account",
    "current_holdings": "10000.00",
    "status": "OPEN",
    "date_opened": "01/15/2024"
   },
   "chk_closed": {
    "account_id": "chk_closed",
    "user_id": "user_001",
    "account_type": "checking",
    "account_class": "Standard Checking",
    "class": "checking",
    "level": "Blue Account",
    "current_holdings": "0.00",
    "status": "CLOSED",
    "date_opened": "01/01/2023"
   }
  },
  "notes": ""
 },
 "credit_card_accounts": {
  "data": {
   "cc_001": {
    "account_id": "cc_001",
    "user_id": "user_001",
    "card_type": "Gold Rewards Card",
    "date_opened": "02/01/2024",
    "current_balance": 1500.0,
    "reward_points": 5000,
    "credit_limit": 5000,
    "status": "ACTIVE"
   },
   "cc_002": {
    "account_id": "cc_002",
    "user_id": "user_002",
    "card_type": "Silver Rewards Card",
    "date_opened": "04/01/2024",
    "current_balance": 800.0,
    "reward_points": 2000,
    "credit_limit": 3000,
    "status": "ACTIVE"
   }
  },
  "notes": ""
 },
 "credit_card_transaction_history": {
  "data": {
   "txn_001": {
    "transaction_id": "txn_001",
    "user_id": "user_001",
    "credit_card_type": "Gold Rewards Card",
    "merchant_name": "Amazon",
    "transaction_amount": "$150.00",
    "transaction_date": "10/01/2025",
    "category": "Shopping",
    "status": "COMPLETED",
    "rewards_earned": "375 points"
   },
   "txn_002": {
    "transaction_id": "txn_002",
    "user_id": "user_001",
    "credit_card_type": "Gold Rewards Card",
    "merchant_name": "Delta Airlines",
    "transaction_amount": "$500.00",
    "transaction_date": "10/15/2025",
    "category": "Travel",
    "status": "COMPLETED",
    "rewards_earned": "1250 points"
   },
   "txn_003": {
    "transaction_id": "txn_003",
    "user_id": "user_002",
    "credit_card_type": "Silver Rewards Card",
    "merchant_name": "Trader Joe's",
    "transaction_amount": "$47.83",
    "transaction_date": "11/01/2025",
    "category": "Groceries",
    "status": "COMPLETED",
    "rewards_earned": "47 points"
   }
  },
  "notes": ""
 },
 "debit_cards": {
  "data": {
   "dbc_001": {
    "card_id": "dbc_001",
    "account_id": "chk_001",
    "user_id": "user_001",
    "last_4_digits": "4321",
    "status": "PENDING",
    "issue_reason": "new_account",
    "date_issued": "11/01/2025"
   },
   "dbc_002": {
    "card_id": "dbc_002",
    "account_id": "chk_001",
    "user_id": "user_001",
    "last_4_digits": "8765",
    "status": "ACTIVE",
    "issue_reason": "new_account",
    "date_issued": "09/01/2025"
   },
   "dbc_003": {
    "card_id": "dbc_003",
    "account_id": "chk_002",
    "user_id": "user_002",
    "last_4_digits": "1111",
    "status": "PENDING",
    "issue_reason": "lost",
    "date_issued": "11/01/2025"
   },
   "dbc_frozen": {
    "card_id": "dbc_frozen",
    "account_id": "chk_001",
    "user_id": "user_001",
    "last_4_digits": "9999",
    "status": "FROZEN",
    "issue_reason": "new_account",
    "date_issued": "08/01/2025"
   },
   "dbc_expired": {
    "card_id": "dbc_expired",
    "account_id": "chk_001",
    "user_id": "user_001",
    "last_4_digits": "5555",
    "status": "PENDING",
    "issue_reason": "expired",
    "date_issued": "11/10/2025"
   }
  },
  "notes": ""
 },
 "referrals": {
  "data": {
   "ref_001": {
    "referral_id": "ref_001",
    "referrer_id": "user_001",
    "referred_account_type": "Gold Rewards Card",
    "referral_status": "NO_PROGRESS",
    "date": "10/01/2025"
   }
  },
  "notes": ""
 },
 "credit_card_applications": {
  "data": {},
  "notes": ""
 },
 "user_discoverable_tools": {
  "data": {},
  "notes": ""
 },
 "user_discoverable_tool_calls": {
  "data": {},
  "notes": ""
 },
 "verification_history": {
  "data": {},
  "notes": ""
 },
 "cash_back_disputes": {
  "data": {},
  "notes": ""
 },
 "bank_account_transaction_history": {
  "data": {},
  "notes": ""
 },
 "agent_discoverable_tools": {
  "data": {},
  "notes": ""
 },
 "task_config": {
  "data": {
   "dispute_settings": {
    "auto_resolve_disputes": true
   }
  },
  "notes": ""
 },
 "human_transfer_requests": {
  "data": {},
  "notes": ""
 },
 "transaction_disputes": {
  "data": {},
  "notes": ""
 },
 "credit_card_orders": {
  "data": {},
  "notes": ""
 },
 "debit_card_orders": {
  "data": {},
  "notes": ""
 },
 "credit_card_closure_reasons": {
  "data": {},
  "notes": ""
 },
 "credit_card_account_flags": {
  "data": {},
  "notes": ""
 },
 "credit_limit_increase_requests": {
  "data": {},
  "notes": ""
 },
 "payment_history": {
  "data": {},
  "notes": ""
 },
 "debit_card_disputes": {
  "data": {},
  "notes": ""
 }
}`;

/** A fresh state over the fixture; `patch` replaces whole tables (as the Python fixtures do). */
export function baseKnowledgeDb(patch: PyDict = {}): DbState {
  const plain = parsePyJson(BASE_KNOWLEDGE_DB) as PyDict;
  for (const k of Object.keys(patch)) plain[k] = patch[k] as PyValue;
  return DbState.of(bankingDbFromPlain(plain));
}

/** `env_no_auto_resolve`. */
export const noAutoResolveDb = (): DbState =>
  baseKnowledgeDb({
    task_config: { data: { dispute_settings: { auto_resolve_disputes: false } }, notes: "" },
  });

export const newEnv = (): ToolEnv => ({ shared: new Map(), quirks: TAU2_QUIRKS });

/** A user tool call (tau2 `get_response` with requestor "user"). */
export function callUser(db: DbState, name: string, args: PyValue, env: ToolEnv = newEnv()): CallOutcome {
  const tool = bankingUserTools.tools.get(name);
  if (tool === undefined) return { content: `Error: Tool '${name}' not found.`, error: true };
  return invoke(bankingUserTools.className, tool, db, args, env);
}

/**
 * What the agent's `give_discoverable_user_tool` writes to the DB (tau2 tools.py): one
 * `{tool_name, status: "GIVEN"}` record keyed by `generate_user_discoverable_tool_id(name)`.
 */
export function give(db: DbState, toolName: string): void {
  const id = generateUserDiscoverableToolId(toolName);
  if (!db.has("user_discoverable_tools", id)) {
    db.put("user_discoverable_tools", id, { tool_name: toolName, status: "GIVEN" });
  }
}

/** tau2's `call_discoverable_user` test helper: give, then call through the dispatcher. */
export function callDiscoverableUser(db: DbState, toolName: string, argumentsJson: string): CallOutcome {
  give(db, toolName);
  return callUser(db, "call_discoverable_user_tool", {
    discoverable_tool_name: toolName,
    arguments: argumentsJson,
  });
}
