/** PIN rules (`_validate_pin`) and the PIN tools: `reset_debit_card_pin_6284`, `change_debit_card_pin_6285`. */
import { pyLen, pyStr, pyTruthy } from "../../../py/builtins.ts";
import { isdigitMethod } from "../../../py/str-methods.ts";
import { type PyValue, pyEquals } from "../../../py/value.ts";
import { field, getRecord, type Value } from "../records.ts";
import { getTodayStr } from "../utils.ts";
import { agentTool } from "./agent-tool.ts";

const SEQUENTIAL_PINS = [
  "0123",
  "1234",
  "2345",
  "3456",
  "4567",
  "5678",
  "6789",
  "9876",
  "8765",
  "7654",
  "6543",
  "5432",
  "4321",
  "3210",
];

/**
 * tau2's `_validate_pin`: null when the PIN is acceptable, else the reason. A truthy non-str PIN
 * raises AttributeError from `.isdigit()`, as in Python.
 */
export function validatePin(pin: Value): string | null {
  if (!pyTruthy(pin) || !isdigitMethod(pin) || pyLen(pin) !== 4) return "PIN must be exactly 4 digits.";
  const s = pin as string;
  if (SEQUENTIAL_PINS.includes(s))
    return "PIN cannot be sequential (e.g., 1234). Please choose a more secure PIN.";
  if (new Set(s).size === 1) {
    return "PIN cannot be all the same digit (e.g., 1111). Please choose a more secure PIN.";
  }
  return null;
}

/** `not s.isdigit() or len(s) != n` on a raw argument. */
export const notNDigits = (v: Value, n: number): boolean => !isdigitMethod(v) || pyLen(v) !== n;

export const resetDebitCardPin = agentTool(
  "reset_debit_card_pin_6284",
  "write",
  ["card_id", "last_4_digits", "new_pin"],
  (db, { card_id, last_4_digits, new_pin }) => {
    if (![card_id, last_4_digits, new_pin].every(pyTruthy)) {
      return "Error: Missing required parameters. Required: card_id, last_4_digits, new_pin.";
    }
    if (notNDigits(last_4_digits, 4)) return "Error: Last 4 digits must be exactly 4 digits.";
    const pinError = validatePin(new_pin);
    if (pinError !== null) return `Error: ${pinError}`;
    const card = getRecord(db, "debit_cards", card_id);
    if (card === undefined) return `Error: Debit card '${pyStr(card_id)}' not found.`;
    if (!pyEquals(field(card, "last_4_digits"), last_4_digits as PyValue)) {
      return "Error: Card verification failed. The last 4 digits do not match our records.";
    }
    if (!pyEquals(field(card, "status"), "ACTIVE")) {
      return `Error: Cannot reset PIN. Card status is ${pyStr(field(card, "status"))}. Only ACTIVE cards can have their PIN reset.`;
    }
    // The PIN itself is never stored: only the change date and the unlock.
    const today = getTodayStr();
    const rec = db.mut("debit_cards", card_id as string);
    rec.pin_last_changed = today;
    rec.pin_locked = false;
    rec.pin_attempts_remaining = 3;
    return [
      "Debit Card PIN Reset Successfully",
      `Card ID: ${card_id as string}`,
      `PIN Changed: ${today}`,
      "",
      "The new PIN is effective immediately.",
      "Your card has been unlocked and is ready to use.",
      "Customer can use the new PIN for ATM withdrawals and point-of-sale transactions.",
      "",
      "Security reminder: Never share your PIN with anyone.",
    ].join("\n");
  },
);

export const changeDebitCardPin = agentTool(
  "change_debit_card_pin_6285",
  "write",
  ["card_id", "current_pin", "new_pin"],
  (db, { card_id, current_pin, new_pin }) => {
    if (![card_id, current_pin, new_pin].every(pyTruthy)) {
      return "Error: Missing required parameters. Required: card_id, current_pin, new_pin.";
    }
    if (notNDigits(current_pin, 4)) return "Error: Current PIN must be exactly 4 digits.";
    const pinError = validatePin(new_pin);
    if (pinError !== null) return `Error: ${pinError}`;
    if (pyEquals(current_pin, new_pin)) return "Error: New PIN must be different from current PIN.";
    const card = getRecord(db, "debit_cards", card_id);
    if (card === undefined) return `Error: Debit card '${pyStr(card_id)}' not found.`;
    if (!pyEquals(field(card, "status"), "ACTIVE")) {
      return `Error: Cannot change PIN. Card status is ${pyStr(field(card, "status"))}. Only ACTIVE cards can have their PIN changed.`;
    }
    // tau2 quirk: the current PIN is never checked against anything; any 4 digits pass.
    const today = getTodayStr();
    db.mut("debit_cards", card_id as string).pin_last_changed = today;
    return [
      "Debit Card PIN Changed Successfully",
      `Card ID: ${card_id as string}`,
      `PIN Changed: ${today}`,
      "",
      "The new PIN is effective immediately.",
      "Customer can use the new PIN for ATM withdrawals and point-of-sale transactions.",
      "",
      "Security reminder: Never share your PIN with anyone.",
    ].join("\n");
  },
);
