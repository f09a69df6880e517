/**
 * The regular (always listed) tools of tau2's `KnowledgeTools`: transfer, time, user lookups,
 * email change, referral and credit-card lookups, and the verification log. Lookups build their
 * constraint JSON by f-string interpolation, exactly as tau2 does (a quote in an id breaks the JSON).
 */
import { dictKey, pyStr } from "../../../py/builtins.ts";
import type { PyValue } from "../../../py/value.ts";
import type { DbState } from "../../db-state.ts";
import type { ToolDef } from "../../toolkit.ts";
import { addToDb, updateRecordInDb } from "../db-query.ts";
import { queryByField } from "../records.ts";
import { generateVerificationId } from "../utils.ts";

/** tau2's `TransferReasonLiteral`, in declaration order (the error text lists them). */
export const TRANSFER_REASONS: readonly string[] = [
  "fraud_or_security_concern",
  "account_closure_request",
  "deceased_account_holder",
  "legal_or_regulatory_matter",
  "account_ownership_dispute",
  "complex_billing_dispute",
  "abusive_customer_behavior",
  "third_party_inquiry",
  "technical_system_error",
  "unconfirmed_external_communication",
  "customer_demands_after_unavailable_offer_refusal",
  "kb_search_unsuccessful_customer_requests_transfer",
  "specialized_department_required",
  "accessibility_or_special_needs",
  "customer_frustrated_demands_human",
  "supervisor_request_service_complaint",
  "customer_requests_human_no_specific_reason",
  "request_completed_customer_wants_human_followup",
  "other",
];

const transferToHumanAgents: ToolDef = {
  name: "transfer_to_human_agents",
  kind: "generic",
  params: [{ name: "summary" }, { name: "reason", default: "other" }],
  run(_db, { reason }) {
    // The Literal annotation is not enforced: the tool checks membership itself (list `in`, i.e. ==).
    if (typeof reason !== "string" || !TRANSFER_REASONS.includes(reason)) {
      return `Error: Invalid transfer reason '${pyStr(reason)}'. Must be one of: ${TRANSFER_REASONS.join(", ")}`;
    }
    return `Transfer successful (reason: ${reason}). A human agent will assist you shortly.`;
  },
};

const getCurrentTime: ToolDef = {
  name: "get_current_time",
  kind: "read",
  params: [],
  run: () => "The current time is 2025-11-14 03:40:00 EST.",
};

/** A read tool that is `query_database_tool(table, f'{{"<field>": "{<param>}"}}')`. */
function lookup(name: string, param: string, table: string, field: string): ToolDef {
  return {
    name,
    kind: "read",
    params: [{ name: param }],
    run: (db: DbState, args) => queryByField(db, table, field, args[param]),
  };
}

const changeUserEmail: ToolDef = {
  name: "change_user_email",
  kind: "write",
  params: [{ name: "user_id" }, { name: "new_email" }],
  run(db, { user_id, new_email }) {
    // `record_id not in table.data`: a non-string id matches nothing, an unhashable one raises.
    const id = dictKey(user_id);
    const updated = id === null ? null : updateRecordInDb("users", id, { email: new_email as PyValue }, db);
    if (updated === null) return `Error: User with ID '${pyStr(user_id)}' not found.`;
    return `Email updated successfully.\n  - User ID: ${pyStr(user_id)}\n  - New Email: ${pyStr(new_email)}`;
  },
};

const VERIFICATION_FIELDS = [
  "name",
  "user_id",
  "address",
  "email",
  "phone_number",
  "date_of_birth",
  "time_verified",
] as const;

const logVerification: ToolDef = {
  name: "log_verification",
  kind: "write",
  params: VERIFICATION_FIELDS.map((name) => ({ name })),
  run(db, args) {
    const recordId = generateVerificationId(args.user_id, args.time_verified);
    const record = Object.fromEntries(VERIFICATION_FIELDS.map((f) => [f, args[f] as PyValue]));
    if (!addToDb("verification_history", recordId, record, db)) {
      return "Failed to log verification: Record may already exist.";
    }
    return (
      `Verification logged successfully.\n  - User: ${pyStr(args.name)} (ID: ${pyStr(args.user_id)})\n` +
      `  - Verified at: ${pyStr(args.time_verified)}`
    );
  },
};

/** In tau2's class order. */
export const BASE_AGENT_TOOLS: readonly ToolDef[] = [
  transferToHumanAgents,
  getCurrentTime,
  lookup("get_user_information_by_id", "user_id", "users", "user_id"),
  lookup("get_user_information_by_name", "customer_name", "users", "name"),
  lookup("get_user_information_by_email", "email", "users", "email"),
  changeUserEmail,
  lookup("get_referrals_by_user", "user_id", "referrals", "referrer_id"),
  lookup("get_credit_card_transactions_by_user", "user_id", "credit_card_transaction_history", "user_id"),
  lookup("get_credit_card_accounts_by_user", "user_id", "credit_card_accounts", "user_id"),
  logVerification,
];
