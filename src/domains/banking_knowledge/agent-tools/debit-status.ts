/** Debit card status changes: close, freeze, unfreeze, and clearing fraud alerts or velocity blocks. */
import { lowerMethod, pyStr, pyTruthy } from "../../../py/builtins.ts";
import { pyListRepr } from "../../../py/repr.ts";
import { type PyDict, pyEquals } from "../../../py/value.ts";
import type { DbState } from "../../db-state.ts";
import type { DiscoverableTool } from "../discoverable.ts";
import { field, getRecord, inStrs, titled } from "../records.ts";
import { getTodayStr } from "../utils.ts";
import { agentTool } from "./agent-tool.ts";

const CLOSE_REASONS = [
  "lost",
  "stolen",
  "fraud_suspected",
  "damaged",
  "no_longer_needed",
  "account_closing",
] as const;
const SECURITY_REASONS = ["lost", "stolen", "fraud_suspected"];

export const closeDebitCard = agentTool(
  "close_debit_card_4721",
  "write",
  ["card_id", "reason"],
  (db, { card_id, reason: rawReason }) => {
    if (!pyTruthy(card_id) || !pyTruthy(rawReason)) {
      return "Error: Missing required parameters. Required: card_id, reason.";
    }
    const reason = lowerMethod(rawReason);
    if (!inStrs(reason, CLOSE_REASONS))
      return `Error: Invalid reason. Must be one of: ${pyListRepr(CLOSE_REASONS)}`;
    const card = getRecord(db, "debit_cards", card_id);
    if (card === undefined) return `Error: Debit card '${pyStr(card_id)}' not found.`;
    const id = card_id as string;
    const previous = field(card, "status");
    if (!inStrs(previous, ["ACTIVE", "PENDING"])) {
      return `Error: Debit card '${id}' cannot be closed. Current status: ${pyStr(previous)}. Only ACTIVE or PENDING cards can be closed.`;
    }
    const today = getTodayStr();
    const rec = db.mut("debit_cards", id);
    rec.status = "CLOSED";
    rec.closed_date = today;
    rec.closure_reason = reason;
    const lines = [
      "Debit Card Closed Successfully",
      `Card ID: ${id}`,
      `Previous Status: ${pyStr(previous)}`,
      "New Status: CLOSED",
      `Closure Reason: ${titled(reason)}`,
      `Closure Date: ${today}`,
      "",
    ];
    if (SECURITY_REASONS.includes(reason)) {
      lines.push(
        "IMPORTANT: This card has been immediately deactivated for security.",
        "Any pending transactions may still be processed.",
      );
      if (reason === "fraud_suspected") {
        lines.push(
          "Please advise the customer to review recent transactions and file disputes for any unauthorized charges.",
          "Also recommend changing their online banking password.",
        );
      }
    }
    lines.push(
      "",
      "Note: This card cannot be reactivated. If the customer needs a new card, they can order one through the standard ordering process.",
      "Any recurring payments linked to this card will need to be updated with new payment information.",
    );
    return lines.join("\n");
  },
);

/**
 * The linked-account check of unfreezing and activating: an error when the card's `account_id` names
 * an account that is not OPEN (a card without one, or whose account is gone, passes).
 */
export function linkedAccountNotOpen(db: DbState, card: PyDict, cannot: string): string | null {
  const accountId = field(card, "account_id");
  const account = pyTruthy(accountId) ? getRecord(db, "accounts", accountId) : undefined;
  if (account === undefined || pyEquals(field(account, "status"), "OPEN")) return null;
  return `Error: The linked checking account '${accountId as string}' is no longer open. Card cannot be ${cannot}.`;
}

/** Freezing and unfreezing, which tau2 writes alike: one status to another, with a dated record. */
function statusToggle(spec: {
  readonly name: "freeze_debit_card_3892" | "unfreeze_debit_card_3893";
  readonly from: string;
  readonly to: string;
  /** The past participle the texts use: "frozen", "unfrozen". */
  readonly done: string;
  /** How the error names a card that is already in the target status: "frozen", "active". */
  readonly already: string;
  readonly checkLinkedAccount: boolean;
  readonly notes: readonly string[];
}): DiscoverableTool {
  const Done = `${(spec.done[0] as string).toUpperCase()}${spec.done.slice(1)}`;
  return agentTool(spec.name, "write", ["card_id"], (db, { card_id }) => {
    if (!pyTruthy(card_id)) return "Error: Missing required parameter: card_id.";
    const card = getRecord(db, "debit_cards", card_id);
    if (card === undefined) return `Error: Debit card '${pyStr(card_id)}' not found.`;
    const id = card_id as string;
    const status = field(card, "status");
    if (pyEquals(status, spec.to)) return `Error: Debit card '${id}' is already ${spec.already}.`;
    if (!pyEquals(status, spec.from)) {
      return `Error: Debit card '${id}' cannot be ${spec.done}. Current status: ${pyStr(status)}. Only ${spec.from} cards can be ${spec.done}.`;
    }
    if (spec.checkLinkedAccount) {
      const closed = linkedAccountNotOpen(db, card, spec.done);
      if (closed !== null) return closed;
    }
    const today = getTodayStr();
    const rec = db.mut("debit_cards", id);
    rec.status = spec.to;
    rec[`${spec.done}_date`] = today;
    return [
      `Debit Card ${Done} Successfully`,
      `Card ID: ${id}`,
      `Status: ${spec.to}`,
      `${Done} Date: ${today}`,
      "",
      ...spec.notes,
    ].join("\n");
  });
}

export const freezeDebitCard = statusToggle({
  name: "freeze_debit_card_3892",
  from: "ACTIVE",
  to: "FROZEN",
  done: "frozen",
  already: "frozen",
  checkLinkedAccount: false,
  notes: [
    "While frozen:",
    "- All new purchase transactions will be declined",
    "- Recurring payments and subscriptions will be declined",
    "- Pending transactions already authorized may still process",
    "",
    "To unfreeze, the customer can call customer service or use the mobile app.",
    "If the card is confirmed lost or stolen, recommend closing the card permanently instead.",
  ],
});

export const unfreezeDebitCard = statusToggle({
  name: "unfreeze_debit_card_3893",
  from: "FROZEN",
  to: "ACTIVE",
  done: "unfrozen",
  already: "active",
  checkLinkedAccount: true,
  notes: ["The card is now active and ready to use immediately.", "All transactions will process normally."],
});

const ALERT_REASONS = ["customer_verified", "velocity_clear"] as const;

export const clearDebitCardFraudAlert = agentTool(
  "clear_debit_card_fraud_alert_4892",
  "write",
  ["card_id", "reason"],
  (db, { card_id, reason }) => {
    if (!pyTruthy(card_id)) return "Error: Missing required parameter: card_id.";
    if (!pyTruthy(reason)) return "Error: Missing required parameter: reason.";
    if (!inStrs(reason, ALERT_REASONS)) {
      return `Error: Invalid reason '${pyStr(reason)}'. Must be one of: ${ALERT_REASONS.join(", ")}`;
    }
    const card = getRecord(db, "debit_cards", card_id);
    if (card === undefined) return `Error: Debit card '${pyStr(card_id)}' not found.`;
    const id = card_id as string;
    const today = getTodayStr();
    if (reason === "velocity_clear") {
      if (!pyTruthy(field(card, "velocity_blocked", false))) {
        return `Error: Debit card '${id}' does not have an active velocity block.`;
      }
      const rec = db.mut("debit_cards", id);
      rec.velocity_blocked = false;
      rec.velocity_cleared_date = today;
      return [
        "Velocity Block Cleared Successfully",
        `Card ID: ${id}`,
        `Cleared Date: ${today}`,
        "",
        "The card is now unblocked and ready for normal use.",
        "The velocity monitoring will continue - if the same unusual patterns recur,",
        "the card may be blocked again automatically.",
      ].join("\n");
    }
    if (!pyTruthy(field(card, "fraud_alert_active", false))) {
      return `Error: Debit card '${id}' does not have an active fraud alert.`;
    }
    if (pyEquals(field(card, "alert_source"), "bank_initiated")) {
      return "Error: BANK_INITIATED_ALERT - This fraud alert was initiated by the bank's fraud detection system and cannot be cleared by customer service agents. Please transfer the customer to the security team using transfer_to_human_agents.";
    }
    const rec = db.mut("debit_cards", id);
    rec.fraud_alert_active = false;
    rec.alert_source = null;
    rec.fraud_alert_cleared_date = today;
    return [
      "Fraud Alert Cleared Successfully",
      `Card ID: ${id}`,
      `Cleared Date: ${today}`,
      "",
      "The fraud alert has been removed from the card.",
      "All transactions will process normally.",
      "",
      "Remind the customer to review recent transactions and report any unauthorized charges.",
    ].join("\n");
  },
);
