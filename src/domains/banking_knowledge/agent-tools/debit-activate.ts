/**
 * The three debit card activation tools (new, replacement, reissued card) and their shared checks,
 * tau2's `_validate_activation_common`.
 */
import { pyStr, pyTruthy } from "../../../py/builtins.ts";
import { type PyDict, type PyValue, pyEquals } from "../../../py/value.ts";
import type { DbState } from "../../db-state.ts";
import type { Args } from "../../toolkit.ts";
import { field, getRecord, lookup, titled } from "../records.ts";
import { getTodayStr } from "../utils.ts";
import { agentTool } from "./agent-tool.ts";
import { notNDigits, validatePin } from "./debit-pin.ts";
import { linkedAccountNotOpen } from "./debit-status.ts";

const TOOL_FOR_REASON: Readonly<Record<string, string>> = {
  new_account: "activate_debit_card_8291",
  first_card: "activate_debit_card_8291",
  lost: "activate_debit_card_8292",
  stolen: "activate_debit_card_8292",
  fraud: "activate_debit_card_8292",
  expired: "activate_debit_card_8293",
  damaged: "activate_debit_card_8293",
  upgrade: "activate_debit_card_8293",
  bank_reissue: "activate_debit_card_8293",
};

/**
 * tau2's `_validate_activation_common`: an error text, or the card id whose card may be activated.
 * tau2 quirk: the expiration date is never checked, and the CVV only for its format.
 */
export function validateActivation(
  args: Args,
  db: DbState,
  allowedReasons: readonly string[],
  toolName: string,
): { error: string } | { cardId: string; card: PyDict } {
  const { card_id, last_4_digits, expiration_date, cvv, pin } = args;
  if (![card_id, last_4_digits, expiration_date, cvv, pin].every(pyTruthy)) {
    return {
      error:
        "Error: Missing required parameters. Required: card_id, last_4_digits, expiration_date, cvv, pin.",
    };
  }
  const pinError = validatePin(pin);
  if (pinError !== null) return { error: `Error: ${pinError}` };
  if (notNDigits(cvv, 3)) return { error: "Error: CVV must be exactly 3 digits." };
  if (notNDigits(last_4_digits, 4)) return { error: "Error: Last 4 digits must be exactly 4 digits." };
  const card = getRecord(db, "debit_cards", card_id);
  if (card === undefined) return { error: `Error: Debit card '${pyStr(card_id)}' not found.` };
  const cardId = card_id as string;

  const reason = field(card, "issue_reason", "new_account");
  if (!(typeof reason === "string" && allowedReasons.includes(reason))) {
    const correct = lookup(TOOL_FOR_REASON, reason) ?? "unknown";
    return {
      error: `Error: Wrong activation tool. This card has issue_reason='${pyStr(reason)}'. Please use ${correct} instead of ${toolName}.`,
    };
  }
  const status = field(card, "status");
  if (pyEquals(status, "ACTIVE")) return { error: `Error: Debit card '${cardId}' is already active.` };
  if (!pyEquals(status, "PENDING")) {
    return {
      error: `Error: Debit card '${cardId}' cannot be activated. Current status: ${pyStr(status)}. Only PENDING cards can be activated.`,
    };
  }
  if (!pyEquals(field(card, "last_4_digits"), last_4_digits as PyValue)) {
    return { error: "Error: Card verification failed. The last 4 digits do not match our records." };
  }
  const closed = linkedAccountNotOpen(db, card, "activated");
  return closed === null ? { cardId, card } : { error: closed };
}

/**
 * Activates the card, then moves every other ACTIVE card of the same account (Python `==` on
 * `account_id`, so cards without one match each other) to `status` with `extra` fields; their ids.
 */
function activate(db: DbState, cardId: string, status: string, extra: (today: string) => PyDict): string[] {
  const today = getTodayStr();
  const rec = db.mut("debit_cards", cardId);
  rec.status = "ACTIVE";
  rec.activated_date = today;
  const accountId = field(rec, "account_id");
  const moved: string[] = [];
  for (const otherId of db.keys("debit_cards")) {
    if (otherId === cardId) continue;
    const other = db.get("debit_cards", otherId) as PyDict;
    if (!pyEquals(field(other, "account_id"), accountId) || !pyEquals(field(other, "status"), "ACTIVE"))
      continue;
    const w = db.mut("debit_cards", otherId);
    w.status = status;
    Object.assign(w, extra(today));
    moved.push(otherId);
  }
  return moved;
}

const ACTIVATION_PARAMS = ["card_id", "last_4_digits", "expiration_date", "cvv", "pin"] as const;

export const activateNewDebitCard = agentTool(
  "activate_debit_card_8291",
  "write",
  ACTIVATION_PARAMS,
  (db, args) => {
    const v = validateActivation(args, db, ["new_account", "first_card"], "activate_debit_card_8291");
    if ("error" in v) return v.error;
    const deactivated = activate(db, v.cardId, "DEACTIVATED", (today) => ({
      deactivated_date: today,
      deactivation_reason: "New card activated",
    }));
    const lines = [
      "New Debit Card Activation Successful",
      `Card ID: ${v.cardId}`,
      "Status: ACTIVE",
      `Activation Date: ${getTodayStr()}`,
      "",
      "Your card is now ready to use at any ATM or point of sale terminal.",
      "For security, please sign the back of your card.",
    ];
    if (deactivated.length > 0) {
      lines.push(`\nNote: Previous card(s) have been deactivated: ${deactivated.join(", ")}`);
    }
    return lines.join("\n");
  },
);

export const activateReplacementDebitCard = agentTool(
  "activate_debit_card_8292",
  "write",
  ACTIVATION_PARAMS,
  (db, args) => {
    const v = validateActivation(args, db, ["lost", "stolen", "fraud"], "activate_debit_card_8292");
    if ("error" in v) return v.error;
    const reason = field(v.card, "issue_reason", "lost") as string;
    const deactivated = activate(db, v.cardId, "DEACTIVATED", (today) => ({
      deactivated_date: today,
      deactivation_reason: `Replacement card activated (${reason})`,
    }));
    const lines = [
      "Replacement Debit Card Activation Successful",
      `Card ID: ${v.cardId}`,
      `Replacement Reason: ${titled(reason)}`,
      "Status: ACTIVE",
      `Activation Date: ${getTodayStr()}`,
      "",
      "Your replacement card is now ready to use.",
      "",
      "IMPORTANT SECURITY REMINDERS:",
      "- Please review your recent transactions for any unauthorized charges",
      "- Report any suspicious activity immediately",
    ];
    if (reason === "fraud") {
      lines.push("- Since fraud was suspected, we recommend changing your online banking password");
    }
    if (deactivated.length > 0) {
      lines.push(`\nPrevious card(s) have been deactivated for security: ${deactivated.join(", ")}`);
    }
    return lines.join("\n");
  },
);

export const activateReissuedDebitCard = agentTool(
  "activate_debit_card_8293",
  "write",
  ACTIVATION_PARAMS,
  (db, args) => {
    const v = validateActivation(
      args,
      db,
      ["expired", "damaged", "upgrade", "bank_reissue"],
      "activate_debit_card_8293",
    );
    if ("error" in v) return v.error;
    const reason = field(v.card, "issue_reason", "expired") as string;
    const graced = activate(db, v.cardId, "GRACE_PERIOD", (today) => ({
      grace_period_ends: today,
      deactivation_reason: `Reissued card activated (${reason})`,
    }));
    const lines = [
      "Reissued Debit Card Activation Successful",
      `Card ID: ${v.cardId}`,
      `Reissue Reason: ${titled(reason)}`,
      "Status: ACTIVE",
      `Activation Date: ${getTodayStr()}`,
      "",
      "Your reissued card is now ready to use.",
    ];
    if (graced.length > 0) {
      lines.push(
        `\nNote: Your previous card(s) (${graced.join(", ")}) will remain active for 24 hours as a grace period.`,
        "After 24 hours, the old card(s) will be automatically deactivated.",
      );
    }
    if (reason === "expired" || reason === "bank_reissue") {
      lines.push(
        "\nReminder: If your card number changed, please update any recurring payments with your new card details.",
      );
    }
    return lines.join("\n");
  },
);
