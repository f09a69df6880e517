/**
 * tau2's banking test fixtures, as JSON text parsed with Python types (`1500.00` is a float, `5000` an
 * int): `base_knowledge_db` of test_tools_knowledge.py, and conftest.py's `create_amara_db` /
 * `create_fatima_db` (tasks 026–029). Tables a fixture leaves out start empty, as in tau2.
 */
import { bankingDbFromPlain } from "../../../src/domains/banking_knowledge/schema.ts";
import { type DbBase, DbState } from "../../../src/domains/db-state.ts";
import { parsePyJson } from "../../../src/py/parse.ts";
import type { PyDict, PyValue } from "../../../src/py/value.ts";

export const BASE_KNOWLEDGE_DB = `{
  "users": {"data": {
    "user_001": {"name": "Amara Okonkwo", "user_id": "user_001", "address": "305 Magnolia Street, Houston, TX 77002",
      "email": "amara@icloud.com", "phone_number": "713-555-0963", "date_of_birth": "08/11/1997"},
    "user_002": {"name": "Fatima Al-Hassan", "user_id": "user_002", "address": "1923 Oak Park Boulevard, Detroit, MI 48226",
      "email": "fatima@protonmail.com", "phone_number": "313-555-0246", "date_of_birth": "12/05/1993"}}},
  "accounts": {"data": {
    "chk_001": {"account_id": "chk_001", "user_id": "user_001", "account_type": "checking",
      "account_class": "Standard Checking", "class": "checking", "level": "Blue Account",
      "current_holdings": "5000.00", "status": "OPEN", "date_opened": "01/15/2024"},
    "chk_002": {"account_id": "chk_002", "user_id": "user_002", "account_type": "checking",
      "account_class": "Premium Checking", "class": "checking", "level": "Green Account",
      "current_holdings": "200.00", "status": "OPEN", "date_opened": "03/10/2024"},
    "sav_001": {"account_id": "sav_001", "user_id": "user_001", "account_type": "savings",
      "account_class": "High-Yield Savings", "class": "savings", "level": "Silver Account",
      "current_holdings": "10000.00", "status": "OPEN", "date_opened": "01/15/2024"},
    "chk_closed": {"account_id": "chk_closed", "user_id": "user_001", "account_type": "checking",
      "account_class": "Standard Checking", "class": "checking", "level": "Blue Account",
      "current_holdings": "0.00", "status": "CLOSED", "date_opened": "01/01/2023"}}},
  "credit_card_accounts": {"data": {
    "cc_001": {"account_id": "cc_001", "user_id": "user_001", "card_type": "Gold Rewards Card",
      "date_opened": "02/01/2024", "current_balance": 1500.00, "reward_points": 5000, "credit_limit": 5000,
      "status": "ACTIVE"},
    "cc_002": {"account_id": "cc_002", "user_id": "user_002", "card_type": "Silver Rewards Card",
      "date_opened": "04/01/2024", "current_balance": 800.00, "reward_points": 2000, "credit_limit": 3000,
      "status": "ACTIVE"}}},
  "credit_card_transaction_history": {"data": {
    "txn_001": {"transaction_id": "txn_001", "user_id": "user_001", "credit_card_type": "Gold Rewards Card",
      "merchant_name": "Amazon", "transaction_amount": "$150.00", "transaction_date": "10/01/2025",
      "category": "Shopping", "status": "COMPLETED", "rewards_earned": "375 points"},
    "txn_002": {"transaction_id": "txn_002", "user_id": "user_001", "credit_card_type": "Gold Rewards Card",
      "merchant_name": "Delta Airlines", "transaction_amount": "$500.00", "transaction_date": "10/15/2025",
      "category": "Travel", "status": "COMPLETED", "rewards_earned": "1250 points"},
    "txn_003": {"transaction_id": "txn_003", "user_id": "user_002", "credit_card_type": "Silver Rewards Card",
      "merchant_name": "Trader Joe's", "transaction_amount": "$47.83", "transaction_date": "11/01/2025",
      "category": "Groceries", "status": "COMPLETED", "rewards_earned": "47 points"}}},
  "debit_cards": {"data": {
    "dbc_001": {"card_id": "dbc_001", "account_id": "chk_001", "user_id": "user_001", "last_4_digits": "4321",
      "status": "PENDING", "issue_reason": "new_account", "date_issued": "11/01/2025"},
    "dbc_002": {"card_id": "dbc_002", "account_id": "chk_001", "user_id": "user_001", "last_4_digits": "8765",
      "status": "ACTIVE", "issue_reason": "new_account", "date_issued": "09/01/2025"},
    "dbc_003": {"card_id": "dbc_003", "account_id": "chk_002", "user_id": "user_002", "last_4_digits": "1111",
      "status": "PENDING", "issue_reason": "lost", "date_issued": "11/01/2025"},
    "dbc_frozen": {"card_id": "dbc_frozen", "account_id": "chk_001", "user_id": "user_001", "last_4_digits": "9999",
      "status": "FROZEN", "issue_reason": "new_account", "date_issued": "08/01/2025"},
    "dbc_expired": {"card_id": "dbc_expired", "account_id": "chk_001", "user_id": "user_001",
      "last_4_digits": "5555", "status": "PENDING", "issue_reason": "expired", "date_issued": "11/10/2025"}}},
  "referrals": {"data": {
    "ref_001": {"referral_id": "ref_001", "referrer_id": "user_001", "referred_account_type": "Gold Rewards Card",
      "referral_status": "NO_PROGRESS", "date": "10/01/2025"}}},
  "task_config": {"data": {"dispute_settings": {"auto_resolve_disputes": true}}}
}`;

const dbOf = (text: string): DbBase => bankingDbFromPlain(parsePyJson(text));

/** `base_knowledge_db`; `patch` replaces whole tables (as the Python fixtures do). */
export function baseKnowledgeBase(patch: PyDict = {}): DbBase {
  const plain = parsePyJson(BASE_KNOWLEDGE_DB) as PyDict;
  for (const k of Object.keys(patch)) plain[k] = patch[k] as PyValue;
  return bankingDbFromPlain(plain);
}

/** A fresh DB state holding `base_knowledge_db` (patched as in `baseKnowledgeBase`). */
export const baseKnowledgeDb = (patch: PyDict = {}): DbState => DbState.of(baseKnowledgeBase(patch));

/** `env_no_auto_resolve`. */
export const noAutoResolveDb = (): DbState =>
  baseKnowledgeDb({
    task_config: { data: { dispute_settings: { auto_resolve_disputes: false } }, notes: "" },
  });

/** conftest.py's `create_*_db`: the customer's tables, the log tables empty, the dispute setting. */
const conftestDb = (tables: string, auto: boolean): DbBase =>
  dbOf(`{
${tables},
  "cash_back_disputes": {"data": {}},
  "user_discoverable_tools": {"data": {}},
  "user_discoverable_tool_calls": {"data": {}},
  "agent_discoverable_tools": {"data": {}},
  "verification_history": {"data": {}},
  "task_config": {"data": {"dispute_settings": {"auto_resolve_disputes": ${auto}}}}
}`);

export const createAmaraDb = (auto = true): DbBase =>
  conftestDb(
    `  "users": {"data": {
    "755bcb4d5d": {"name": "Amara Okonkwo", "user_id": "755bcb4d5d",
      "address": "305 Magnolia Street, Houston, TX 77002", "email": "dancing_star_amara@icloud.com",
      "phone_number": "713-555-0963", "date_of_birth": "08/11/1997"}}},
  "credit_card_transaction_history": {"data": {
    "txn_a8f1c2d3e403": {"transaction_id": "txn_a8f1c2d3e403", "user_id": "755bcb4d5d",
      "credit_card_type": "Business Silver Rewards Card", "merchant_name": "JetBlue Airways",
      "transaction_amount": "$315.00", "transaction_date": "03/22/2025", "category": "Travel",
      "status": "COMPLETED", "rewards_earned": "3150 points"},
    "txn_b7e2d4c5f506": {"transaction_id": "txn_b7e2d4c5f506", "user_id": "755bcb4d5d",
      "credit_card_type": "Silver Rewards Card", "merchant_name": "GitHub Enterprise",
      "transaction_amount": "$255.00", "transaction_date": "05/18/2025", "category": "Software",
      "status": "COMPLETED", "rewards_earned": "2550 points"},
    "txn_a8f1c2d3e410": {"transaction_id": "txn_a8f1c2d3e410", "user_id": "755bcb4d5d",
      "credit_card_type": "Business Silver Rewards Card", "merchant_name": "Southwest Airlines",
      "transaction_amount": "$380.00", "transaction_date": "08/25/2025", "category": "Travel",
      "status": "COMPLETED", "rewards_earned": "1520 points"},
    "txn_a8f1c2d3e411": {"transaction_id": "txn_a8f1c2d3e411", "user_id": "755bcb4d5d",
      "credit_card_type": "Business Silver Rewards Card", "merchant_name": "Zoom Video",
      "transaction_amount": "$149.99", "transaction_date": "09/15/2025", "category": "Software",
      "status": "COMPLETED", "rewards_earned": "600 points"}}},
  "credit_card_accounts": {"data": {
    "cc_755bcb4d5d_bsilver": {"account_id": "cc_755bcb4d5d_bsilver", "user_id": "755bcb4d5d",
      "card_type": "Business Silver Rewards Card", "date_of_account_open": "02/13/2025",
      "current_balance": "$3,105.12", "reward_points": "37848 points"},
    "cc_755bcb4d5d_silver": {"account_id": "cc_755bcb4d5d_silver", "user_id": "755bcb4d5d",
      "card_type": "Silver Rewards Card", "date_of_account_open": "01/20/2025",
      "current_balance": "$2,465.79", "reward_points": "9875 points"}}}`,
    auto,
  );

export const createFatimaDb = (auto = true): DbBase =>
  conftestDb(
    `  "users": {"data": {
    "890389b165": {"name": "Fatima Al-Hassan", "user_id": "890389b165",
      "address": "1923 Oak Park Boulevard, Detroit, MI 48226", "email": "coffeelover_fati@protonmail.com",
      "phone_number": "313-555-0246", "date_of_birth": "12/05/1993"}}},
  "credit_card_transaction_history": {"data": {
    "txn_57ecc6da56c2": {"transaction_id": "txn_57ecc6da56c2", "user_id": "890389b165",
      "credit_card_type": "Crypto-Cash Back", "merchant_name": "Trader Joe's", "transaction_amount": "$47.83",
      "transaction_date": "11/01/2025", "category": "Groceries", "status": "COMPLETED",
      "rewards_earned": "47 points"},
    "txn_d80aef98f532": {"transaction_id": "txn_d80aef98f532", "user_id": "890389b165",
      "credit_card_type": "Business Platinum Rewards Card", "merchant_name": "United Airlines",
      "transaction_amount": "$347.62", "transaction_date": "11/02/2025", "category": "Travel",
      "status": "COMPLETED", "rewards_earned": "521 points"},
    "txn_896ac64b98d7": {"transaction_id": "txn_896ac64b98d7", "user_id": "890389b165",
      "credit_card_type": "EcoCard", "merchant_name": "Patagonia", "transaction_amount": "$128.47",
      "transaction_date": "11/04/2025", "category": "Green", "status": "COMPLETED",
      "rewards_earned": "128 points"},
    "txn_adea68821a1d": {"transaction_id": "txn_adea68821a1d", "user_id": "890389b165",
      "credit_card_type": "Silver Rewards Card", "merchant_name": "Marriott Hotels",
      "transaction_amount": "$167.34", "transaction_date": "11/07/2025", "category": "Travel",
      "status": "COMPLETED", "rewards_earned": "167 points"},
    "txn_0be1ccc37761": {"transaction_id": "txn_0be1ccc37761", "user_id": "890389b165",
      "credit_card_type": "Business Platinum Rewards Card", "merchant_name": "LinkedIn Ads",
      "transaction_amount": "$512.47", "transaction_date": "11/23/2025", "category": "Media",
      "status": "COMPLETED", "rewards_earned": "768 points"},
    "txn_e647e242ce96": {"transaction_id": "txn_e647e242ce96", "user_id": "890389b165",
      "credit_card_type": "Business Platinum Rewards Card", "merchant_name": "Google Ads",
      "transaction_amount": "$187.56", "transaction_date": "11/18/2025", "category": "Media",
      "status": "COMPLETED", "rewards_earned": "1875 points"}}},
  "credit_card_accounts": {"data": {
    "cc_890389b165_crypto": {"account_id": "cc_890389b165_crypto", "user_id": "890389b165",
      "card_type": "Crypto-Cash Back", "date_of_account_open": "06/10/2024", "current_balance": "$1,389.98",
      "reward_points": "2631 points"},
    "cc_890389b165_bplat": {"account_id": "cc_890389b165_bplat", "user_id": "890389b165",
      "card_type": "Business Platinum Rewards Card", "date_of_account_open": "02/28/2024",
      "current_balance": "$4,212.70", "reward_points": "14223 points"},
    "cc_890389b165_eco": {"account_id": "cc_890389b165_eco", "user_id": "890389b165", "card_type": "EcoCard",
      "date_of_account_open": "07/01/2024", "current_balance": "$927.36", "reward_points": "1994 points"},
    "cc_890389b165_silver": {"account_id": "cc_890389b165_silver", "user_id": "890389b165",
      "card_type": "Silver Rewards Card", "date_of_account_open": "04/15/2024",
      "current_balance": "$1,173.27", "reward_points": "4928 points"}}}`,
    auto,
  );
