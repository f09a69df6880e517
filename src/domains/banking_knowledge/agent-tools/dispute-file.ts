/** Filing a credit card dispute (`transaction_disputes`) and a Regulation E debit card dispute. */
import { pyStr, pyTruthy } from "../../../py/builtins.ts";
import { pyCompare } from "../../../py/compare.ts";
import { pyFormatFixed } from "../../../py/format.ts";
import { pyListRepr } from "../../../py/repr.ts";
import type { PyDict } from "../../../py/value.ts";
import { addToDb } from "../db-query.ts";
import type { DiscoverableTool } from "../discoverable.ts";
import { inStrs, titled } from "../records.ts";
import { generateDisputeId, getTodayStr } from "../utils.ts";
import { agentTool } from "./agent-tool.ts";

const CC_CARD_ACTIONS = ["keep_active", "cancel_and_reissue"];
const CC_REASONS = [
  "unauthorized_fraudulent_charge",
  "duplicate_charge",
  "incorrect_amount",
  "goods_services_not_received",
  "goods_services_not_as_described",
  "canceled_subscription_still_charging",
  "refund_never_processed",
];
const CC_RESOLUTIONS = ["full_refund", "partial_refund"];

const fileCreditCardDispute = agentTool(
  "file_credit_card_transaction_dispute_4829",
  "write",
  [
    "transaction_id",
    "card_action",
    "card_last_4_digits",
    "full_name",
    "user_id",
    "phone",
    "email",
    "address",
    "contacted_merchant",
    "purchase_date",
    "issue_noticed_date",
    "dispute_reason",
    "resolution_requested",
    "eligible_for_provisional_credit",
    ["partial_refund_amount", null],
  ],
  (db, a) => {
    if (!pyTruthy(a.transaction_id) || !pyTruthy(a.user_id)) return "Error: Missing required parameters.";
    if (!inStrs(a.card_action, CC_CARD_ACTIONS))
      return `Error: Invalid card_action. Must be one of: ${pyListRepr(CC_CARD_ACTIONS)}`;
    if (!inStrs(a.dispute_reason, CC_REASONS))
      return `Error: Invalid dispute_reason. Must be one of: ${pyListRepr(CC_REASONS)}`;
    if (!inStrs(a.resolution_requested, CC_RESOLUTIONS))
      return `Error: Invalid resolution_requested. Must be one of: ${pyListRepr(CC_RESOLUTIONS)}`;
    if (a.resolution_requested === "partial_refund" && a.partial_refund_amount === null)
      return "Error: partial_refund_amount is required when resolution_requested is 'partial_refund'.";

    const disputeId = generateDisputeId(a.user_id, a.transaction_id);
    const record: PyDict = {
      dispute_id: disputeId,
      transaction_id: a.transaction_id,
      user_id: a.user_id,
      card_action: a.card_action,
      card_last_4_digits: a.card_last_4_digits,
      full_name: a.full_name,
      phone: a.phone,
      email: a.email,
      address: a.address,
      contacted_merchant: a.contacted_merchant,
      purchase_date: a.purchase_date,
      issue_noticed_date: a.issue_noticed_date,
      dispute_reason: a.dispute_reason,
      resolution_requested: a.resolution_requested,
      partial_refund_amount: a.partial_refund_amount,
      eligible_for_provisional_credit: a.eligible_for_provisional_credit,
      provisional_credit_given: a.eligible_for_provisional_credit,
      submitted_at: getTodayStr(),
      status: "SUBMITTED",
    };
    if (!addToDb("transaction_disputes", disputeId, record, db))
      return "Error: Dispute may have already been filed for this transaction.";

    const parts = [
      "Credit card transaction dispute filed successfully. A case has been opened and will be reviewed within 10 business days.",
      "",
      "Executed: file_credit_card_transaction_dispute_4829",
      `Dispute ID: ${disputeId}`,
      `Transaction: ${pyStr(a.transaction_id)}`,
      `Reason: ${titled(a.dispute_reason)}`,
      `Resolution Requested: ${titled(a.resolution_requested)}`,
    ];
    // tau2 quirk: formatting a non-number amount raises only after the dispute is stored.
    if (pyTruthy(a.partial_refund_amount))
      parts.push(`Partial Refund Amount: $${pyFormatFixed(a.partial_refund_amount, 2)}`);
    parts.push(
      pyTruthy(a.eligible_for_provisional_credit)
        ? "Provisional Credit: ELIGIBLE - Credit will be applied within 2 business days."
        : "Provisional Credit: Not eligible at this time.",
    );
    return parts.join("\n");
  },
);

const DEBIT_CATEGORIES = [
  "unauthorized_transaction",
  "atm_cash_discrepancy",
  "atm_deposit_not_credited",
  "duplicate_charge",
  "incorrect_amount",
  "goods_services_not_received",
  "recurring_charge_after_cancellation",
  "card_present_fraud",
  "card_not_present_fraud",
];
const DEBIT_TRANSACTION_TYPES = [
  "pin_purchase",
  "signature_purchase",
  "online_purchase",
  "atm_withdrawal",
  "atm_deposit",
  "recurring_payment",
  "person_to_person",
];
const PIN_STATUSES = ["yes_shared", "yes_observed", "no", "unknown"];
const DEBIT_CARD_ACTIONS = ["keep_active", "freeze_pending_investigation", "close_and_reissue"];
const FRAUD_CATEGORIES = ["unauthorized_transaction", "card_present_fraud", "card_not_present_fraud"];

const fileDebitCardDispute = agentTool(
  "file_debit_card_transaction_dispute_6281",
  "write",
  [
    "transaction_id",
    "account_id",
    "card_id",
    "user_id",
    "dispute_category",
    "transaction_date",
    "discovery_date",
    "disputed_amount",
    "transaction_type",
    "card_in_possession",
    "pin_compromised",
    "contacted_merchant",
    "police_report_filed",
    "written_statement_provided",
    "provisional_credit_eligible",
    "customer_max_liability_amount",
    "card_action",
  ],
  (db, a) => {
    const required = [
      a.transaction_id,
      a.account_id,
      a.card_id,
      a.user_id,
      a.dispute_category,
      a.transaction_date,
      a.discovery_date,
      a.disputed_amount,
      a.transaction_type,
      a.pin_compromised,
      a.card_action,
    ];
    if (!required.every(pyTruthy)) return "Error: Missing required parameters.";
    if (a.customer_max_liability_amount === null) return "Error: customer_max_liability_amount is required.";
    if (
      a.card_in_possession === null ||
      a.contacted_merchant === null ||
      a.police_report_filed === null ||
      a.written_statement_provided === null
    ) {
      return "Error: card_in_possession, contacted_merchant, police_report_filed, and written_statement_provided are required boolean fields.";
    }
    if (!inStrs(a.dispute_category, DEBIT_CATEGORIES))
      return `Error: Invalid dispute_category. Must be one of: ${pyListRepr(DEBIT_CATEGORIES)}`;
    if (!inStrs(a.transaction_type, DEBIT_TRANSACTION_TYPES))
      return `Error: Invalid transaction_type. Must be one of: ${pyListRepr(DEBIT_TRANSACTION_TYPES)}`;
    if (!inStrs(a.pin_compromised, PIN_STATUSES))
      return `Error: Invalid pin_compromised. Must be one of: ${pyListRepr(PIN_STATUSES)}`;
    if (!inStrs(a.card_action, DEBIT_CARD_ACTIONS))
      return `Error: Invalid card_action. Must be one of: ${pyListRepr(DEBIT_CARD_ACTIONS)}`;
    if (pyCompare(a.disputed_amount, "<=", 0)) return "Error: disputed_amount must be a positive number.";

    const disputeId = generateDisputeId(a.user_id, a.transaction_id);
    const isFraud = FRAUD_CATEGORIES.includes(a.dispute_category);
    const pinShared = a.pin_compromised === "yes_shared";
    const eligible = pyTruthy(a.provisional_credit_eligible);
    const record: PyDict = {
      dispute_id: disputeId,
      transaction_id: a.transaction_id,
      account_id: a.account_id,
      card_id: a.card_id,
      user_id: a.user_id,
      dispute_category: a.dispute_category,
      transaction_date: a.transaction_date,
      discovery_date: a.discovery_date,
      disputed_amount: a.disputed_amount,
      transaction_type: a.transaction_type,
      card_in_possession: a.card_in_possession,
      pin_compromised: a.pin_compromised,
      contacted_merchant: a.contacted_merchant,
      police_report_filed: a.police_report_filed,
      written_statement_provided: a.written_statement_provided,
      provisional_credit_eligible: a.provisional_credit_eligible,
      provisional_credit_issued: a.provisional_credit_eligible,
      provisional_credit_amount: eligible ? a.disputed_amount : null,
      customer_max_liability_amount: a.customer_max_liability_amount,
      card_action: a.card_action,
      is_fraud_category: isFraud,
      pin_shared_voluntarily: pinShared,
      submitted_at: getTodayStr(),
      status: "OPEN",
    };
    if (!addToDb("debit_card_disputes", disputeId, record, db))
      return "Error: Dispute may have already been filed for this transaction.";

    const amount = pyFormatFixed(a.disputed_amount, 2);
    const parts = [
      `Dispute ID: ${disputeId}`,
      `Transaction: ${pyStr(a.transaction_id)}`,
      `Account: ${pyStr(a.account_id)}`,
      `Category: ${titled(a.dispute_category)}`,
      `Disputed Amount: $${amount}`,
      `Card Action: ${titled(a.card_action)}`,
      eligible
        ? `Provisional Credit: ISSUED - $${amount} credited within 10 business days per Regulation E.`
        : "Provisional Credit: Not eligible - see Debit Card Provisional Credit Guidelines for details.",
    ];
    if (pinShared)
      parts.push(
        "WARNING: Customer indicated PIN was shared voluntarily. This may affect liability determination.",
      );
    if (isFraud && !pyTruthy(a.police_report_filed) && pyCompare(a.disputed_amount, ">", 500))
      parts.push("RECOMMENDATION: For fraud disputes over $500, filing a police report is recommended.");
    return parts.join("\n");
  },
);

export const disputeFilingTools: DiscoverableTool[] = [fileCreditCardDispute, fileDebitCardDispute];
