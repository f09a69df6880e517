/** Debit card status changes: close, freeze, unfreeze, and clearing fraud alerts or velocity blocks. */
import { pyStr, pyTruthy } from "../../../py/builtins.ts";
import { type PyDict, pyEquals } from "../../../py/value.ts";
import type { DiscoverableTool } from "../discoverable.ts";
import { getTodayStr } from "../utils.ts";
import {
  field,
  getRecord,
  hasRecord,
  inStrs,
  lowerMethod,
  reasonTitle,
  strListRepr,
} from "./account-python.ts";
import { DEBIT_DOCS } from "./debit-docs.ts";

const CLOSE_REASONS = [
  "lost",
  "stolen",
  "fraud_suspected",
  "damaged",
  "no_longer_needed",
  "account_closing",
] as const;
const SECURITY_REASONS = ["lost", "stolen", "fraud_suspected"];

export const closeDebitCard: DiscoverableTool = {
  name: "close_debit_card_4721",
  kind: "write",
  mutates: true,
  docstring: DEBIT_DOCS.close_debit_card_4721,
  params: [{ name: "card_id" }, { name: "reason" }],
  run(db, { card_id, reason: rawReason }) {
    if (!pyTruthy(card_id) || !pyTruthy(rawReason)) {
      return "Error: Missing required parameters. Required: card_id, reason.";
    }
    const reason = lowerMethod(rawReason);
    if (!inStrs(reason, CLOSE_REASONS))
      return `Error: Invalid reason. Must be one of: ${strListRepr(CLOSE_REASONS)}`;
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
      `Closure Reason: ${reasonTitle(reason)}`,
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
};

export const freezeDebitCard: DiscoverableTool = {
  name: "freeze_debit_card_3892",
  kind: "write",
  mutates: true,
  docstring: DEBIT_DOCS.freeze_debit_card_3892,
  params: [{ name: "card_id" }],
  run(db, { card_id }) {
    if (!pyTruthy(card_id)) return "Error: Missing required parameter: card_id.";
    const card = getRecord(db, "debit_cards", card_id);
    if (card === undefined) return `Error: Debit card '${pyStr(card_id)}' not found.`;
    const id = card_id as string;
    const status = field(card, "status");
    if (pyEquals(status, "FROZEN")) return `Error: Debit card '${id}' is already frozen.`;
    if (!pyEquals(status, "ACTIVE")) {
      return `Error: Debit card '${id}' cannot be frozen. Current status: ${pyStr(status)}. Only ACTIVE cards can be frozen.`;
    }
    const today = getTodayStr();
    const rec = db.mut("debit_cards", id);
    rec.status = "FROZEN";
    rec.frozen_date = today;
    return [
      "Debit Card Frozen Successfully",
      `Card ID: ${id}`,
      "Status: FROZEN",
      `Frozen Date: ${today}`,
      "",
      "While frozen:",
      "- All new purchase transactions will be declined",
      "- Recurring payments and subscriptions will be declined",
      "- Pending transactions already authorized may still process",
      "",
      "To unfreeze, the customer can call customer service or use the mobile app.",
      "If the card is confirmed lost or stolen, recommend closing the card permanently instead.",
    ].join("\n");
  },
};

export const unfreezeDebitCard: DiscoverableTool = {
  name: "unfreeze_debit_card_3893",
  kind: "write",
  mutates: true,
  docstring: DEBIT_DOCS.unfreeze_debit_card_3893,
  params: [{ name: "card_id" }],
  run(db, { card_id }) {
    if (!pyTruthy(card_id)) return "Error: Missing required parameter: card_id.";
    const card = getRecord(db, "debit_cards", card_id);
    if (card === undefined) return `Error: Debit card '${pyStr(card_id)}' not found.`;
    const id = card_id as string;
    const status = field(card, "status");
    if (pyEquals(status, "ACTIVE")) return `Error: Debit card '${id}' is already active.`;
    if (!pyEquals(status, "FROZEN")) {
      return `Error: Debit card '${id}' cannot be unfrozen. Current status: ${pyStr(status)}. Only FROZEN cards can be unfrozen.`;
    }
    const accountId = field(card, "account_id");
    if (pyTruthy(accountId) && hasRecord(db, "accounts", accountId)) {
      const account = db.get("accounts", accountId) as PyDict;
      if (!pyEquals(field(account, "status"), "OPEN")) {
        return `Error: The linked checking account '${accountId as string}' is no longer open. Card cannot be unfrozen.`;
      }
    }
    const today = getTodayStr();
    const rec = db.mut("debit_cards", id);
    rec.status = "ACTIVE";
    rec.unfrozen_date = today;
    return [
      "Debit Card Unfrozen Successfully",
      `Card ID: ${id}`,
      "Status: ACTIVE",
      `Unfrozen Date: ${today}`,
      "",
      "The card is now active and ready to use immediately.",
      "All transactions will process normally.",
    ].join("\n");
  },
};

const ALERT_REASONS = ["customer_verified", "velocity_clear"] as const;

export const clearDebitCardFraudAlert: DiscoverableTool = {
  name: "clear_debit_card_fraud_alert_4892",
  kind: "write",
  mutates: true,
  docstring: DEBIT_DOCS.clear_debit_card_fraud_alert_4892,
  params: [{ name: "card_id" }, { name: "reason" }],
  run(db, { card_id, reason }) {
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
};
