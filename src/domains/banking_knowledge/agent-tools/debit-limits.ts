/** `request_temporary_debit_card_limit_increase_8374`: a 24-hour ATM or purchase limit raise. */
import { lowerMethod, operandTypeError, pyStr, pyTruthy } from "../../../py/builtins.ts";
import { daysBetween, strptime } from "../../../py/datetime.ts";
import { PyTypeError } from "../../../py/errors.ts";
import { pyFloatOrNull, pyIntOfFloat } from "../../../py/format.ts";
import { pyNumStr } from "../../../py/number.ts";
import { type PyDict, PyFloat, type PyValue, pyEquals } from "../../../py/value.ts";
import { field, getRecord } from "../records.ts";
import { getTodayStr } from "../utils.ts";
import { agentTool } from "./agent-tool.ts";

const DEFAULT_ATM_LIMITS: Readonly<Record<string, number>> = {
  "blue account": 500,
  "green account": 600,
  "light blue account": 400,
  "green fee-free account": 500,
  "evergreen account": 750,
  "bluest account": 1500,
  "dark green account": 300,
  "gold years account": 600,
  "purple account": 1000,
};

type Limit = number | PyFloat | boolean | bigint;

/** The numeric value of a stored limit for `limit * 1.5`, or Python's TypeError for a non-number. */
function limitValue(v: PyValue): number {
  if (typeof v === "number" || typeof v === "boolean" || typeof v === "bigint") return Number(v);
  if (v instanceof PyFloat) return v.v;
  if (typeof v === "string" || Array.isArray(v)) {
    throw new PyTypeError("can't multiply sequence by non-int of type 'float'");
  }
  throw operandTypeError("*", v, new PyFloat(1.5));
}

/** `str(int(x))` of an integral double, every digit as Python prints it (no `1e+21`). */
const intStr = (x: number): string => String(pyIntOfFloat(x));

/** `new_limit - original`: int minus int stays an int, minus a float gives a float. */
function increase(newLimit: number, original: Limit): string {
  if (original instanceof PyFloat) return pyNumStr(new PyFloat(newLimit - original.v));
  return intStr(newLimit - Number(original));
}

/** The account-age rule: an error when the account is younger than 60 days. */
function ageError(account: PyDict): string | null {
  const opened = field(account, "date_opened");
  if (!pyTruthy(opened)) return null;
  const date = strptime(opened, "%m/%d/%Y");
  if (date === null) return null;
  const today = strptime(getTodayStr(), "%m/%d/%Y");
  if (today === null) return null;
  const age = daysBetween(today, date);
  return age < 60
    ? `Error: Account must be at least 60 days old for a temporary limit increase. Account age: ${age} days.`
    : null;
}

export const requestTemporaryDebitCardLimitIncrease = agentTool(
  "request_temporary_debit_card_limit_increase_8374",
  "write",
  ["card_id", "limit_type", "new_limit"],
  (db, { card_id, limit_type, new_limit: rawLimit }) => {
    if (!pyTruthy(card_id)) return "Error: Missing required parameter: card_id.";
    if (!pyTruthy(limit_type)) return "Error: Missing required parameter: limit_type.";
    if (limit_type !== "atm" && limit_type !== "purchase") {
      return `Error: Invalid limit_type '${pyStr(limit_type)}'. Must be 'atm' or 'purchase'.`;
    }
    if (rawLimit === null) return "Error: Missing required parameter: new_limit.";
    // A fractional value is rejected, not truncated; the message shows the float once converted.
    const asFloat = pyFloatOrNull(rawLimit);
    if (asFloat === null) return `Error: new_limit must be an integer, got '${pyStr(rawLimit)}'.`;
    if (!Number.isInteger(asFloat)) {
      return `Error: new_limit must be an integer, got '${pyNumStr(new PyFloat(asFloat))}'.`;
    }
    const newLimit = asFloat + 0;
    if (newLimit <= 0) return "Error: new_limit must be a positive amount.";

    const card = getRecord(db, "debit_cards", card_id);
    if (card === undefined) return `Error: Debit card '${pyStr(card_id)}' not found.`;
    const id = card_id as string;
    if (!pyEquals(field(card, "status"), "ACTIVE")) {
      return `Error: Debit card '${id}' is not active. Current status: ${pyStr(field(card, "status"))}. Only ACTIVE cards can have limit increases.`;
    }
    const accountId = field(card, "account_id");
    const account = pyTruthy(accountId) ? getRecord(db, "accounts", accountId) : undefined;
    if (account === undefined) return `Error: Could not find linked account for debit card '${id}'.`;
    if (!pyEquals(field(account, "status"), "OPEN")) {
      return `Error: The linked account '${accountId as string}' is not in good standing. Account status: ${pyStr(field(account, "status"))}.`;
    }
    const tooYoung = ageError(account);
    if (tooYoung !== null) return tooYoung;

    const limitField = `daily_${limit_type === "atm" ? "atm" : "purchase"}_limit`;
    const limitName = limit_type === "atm" ? "Daily ATM Withdrawal Limit" : "Daily Purchase Limit";
    let current = field(card, limitField);
    if (limit_type === "atm" && current === null) {
      const level = lowerMethod(field(account, "level", ""));
      if (level.includes("light green")) {
        return "Error: Light Green Account (teen checking) cards have policy-based limits that cannot be modified. The daily ATM withdrawal limit of $150 is fixed by account policy for safety reasons. The customer may request the parent/guardian to withdraw cash from their own account if needed.";
      }
      const fallback = Object.hasOwn(DEFAULT_ATM_LIMITS, level) ? DEFAULT_ATM_LIMITS[level] : undefined;
      if (fallback === undefined) {
        return `Error: Could not determine the default ATM limit for account type '${pyStr(field(account, "level"))}'. Please verify the account type.`;
      }
      current = fallback;
    }
    if (current === null) {
      return `Error: The card does not have a ${limitName.toLowerCase()} configured. This may be a restricted account type where limits are set by account policy and cannot be modified.`;
    }
    const currentValue = limitValue(current);
    const maxAllowed = pyIntOfFloat(currentValue * 1.5);
    const shown = pyStr(current);
    if (newLimit > maxAllowed) {
      return `Error: Requested limit $${intStr(newLimit)} exceeds the maximum allowed temporary increase. Maximum temporary limit is $${maxAllowed} (150% of current $${shown} limit).`;
    }
    if (newLimit <= currentValue) {
      return `Error: Requested limit $${intStr(newLimit)} is not higher than the current limit of $${shown}.`;
    }

    const today = getTodayStr();
    const rec = db.mut("debit_cards", id);
    rec[limitField] = newLimit;
    rec[`temporary_${limit_type}_limit_increase`] = true;
    rec[`original_${limit_type}_limit`] = current;
    rec[`temporary_${limit_type}_limit_expires`] = today;
    return [
      `Temporary ${limitName} Increase Granted Successfully`,
      `Card ID: ${id}`,
      `Previous Limit: $${shown}`,
      `New Temporary Limit: $${intStr(newLimit)}`,
      `Increase Amount: $${increase(newLimit, current as Limit)}`,
      "",
      "Important Information:",
      "- This temporary increase expires in 24 hours",
      `- After expiration, the limit will revert to $${shown}`,
      "- Only one temporary increase is allowed per 24-hour period",
      "",
      "Note: If the customer is at a third-party (non-Rho-Bank) ATM, that ATM may have its own",
      "per-transaction or daily limits that Rho-Bank cannot override. The customer may need to",
      "use a Rho-Bank ATM or make multiple smaller withdrawals at third-party ATMs.",
    ].join("\n");
  },
);
