/**
 * tau2's banking_knowledge `utils.py`: the fixed clock and the deterministic record ids, plus the two
 * balance helpers at the top of `tools.py`. Ids are sha256 prefixes of seed strings, so each seed is
 * built exactly as Python's f-strings / `":".join` build it (`str(float)`, `True`, `json.dumps`).
 */
import { createHash } from "node:crypto";
import { pyStr, pyTruthy } from "../../py/builtins.ts";
import { isoformat, type PyDate, type PyDateTime } from "../../py/datetime.ts";
import { PyTypeError } from "../../py/errors.ts";
import { PyValueError, pyFloatFromStr, pyFormatFixed, pyToFloat } from "../../py/format.ts";
import { pyDumps } from "../../py/json.ts";
import { strReceiver } from "../../py/str-methods.ts";
import { PyFloat, type PyValue, pyTypeName } from "../../py/value.ts";
import { field, type Value } from "./records.ts";

const pad = (n: number, w = 2) => String(n).padStart(w, "0");

/** tau2's `get_today()`: every scenario is set on 2025-11-14. */
export const getToday = (): PyDate => ({ year: 2025, month: 11, day: 14 });

/** tau2's `get_today_str()`: `strftime("%m/%d/%Y")` of the fixed date. */
export function getTodayStr(): string {
  const d = getToday();
  return `${pad(d.month)}/${pad(d.day)}/${pad(d.year, 4)}`;
}

/** tau2's `get_now()`: a naive datetime, 2025-11-14 03:40:00. */
export const getNow = (): PyDateTime => ({ year: 2025, month: 11, day: 14, hour: 3, minute: 40, second: 0 });

/** `get_now().isoformat()`, the timestamp tau2 stores on given / unlocked tools. */
export const getNowIso = (): string => isoformat(getNow());

/** Python's `str.encode()` (UTF-8) fails on a lone surrogate; JS would write U+FFFD instead. */
export function checkEncodable(s: string): void {
  let pos = 0;
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    if (cp >= 0xd800 && cp <= 0xdfff) {
      // UnicodeEncodeError is a ValueError.
      throw new PyValueError(
        `'utf-8' codec can't encode character '\\u${cp.toString(16)}' in position ${pos}: surrogates not allowed`,
      );
    }
    pos++;
  }
}

/** tau2's `_deterministic_id`: the first `length // 2` bytes of sha256(seed), as hex. */
export function deterministicId(seed: string, length = 16): string {
  checkEncodable(seed);
  const digest = createHash("sha256").update(seed, "utf8").digest();
  const n = Math.floor(length / 2);
  // Python slice `[:n]`: a negative n counts from the end.
  const end = n < 0 ? Math.max(0, digest.length + n) : Math.min(n, digest.length);
  return digest.subarray(0, end).toString("hex");
}

/** Python `":".join(parts)`: every item must be a str. */
function joinSeed(parts: Value[]): string {
  parts.forEach((p, i) => {
    if (typeof p !== "string") {
      throw new PyTypeError(`sequence item ${i}: expected str instance, ${pyTypeName(p)} found`);
    }
  });
  return parts.join(":");
}

export function generateTransactionId(
  userId: Value,
  creditCardType: Value,
  merchantName: Value,
  amount: Value,
  category: Value,
  date: Value = null,
): string {
  const parts: Value[] = [
    "transaction",
    userId,
    creditCardType,
    merchantName,
    pyFormatFixed(amount, 2),
    category,
  ];
  if (pyTruthy(date)) parts.push(date);
  return `txn_${deterministicId(joinSeed(parts), 12)}`;
}

export function generateReferralId(
  referrerId: Value,
  referredAccountType: Value,
  date: Value = null,
): string {
  const parts: Value[] = ["referral", referrerId, referredAccountType];
  if (pyTruthy(date)) parts.push(date);
  return deterministicId(joinSeed(parts), 16);
}

export const generateApplicationId = (
  cardType: Value,
  customerName: Value,
  annualIncome: Value,
  rhoBankSubscription: Value = false,
): string =>
  deterministicId(
    `credit_card:${pyStr(cardType)}:${pyStr(customerName)}:${pyStr(annualIncome)}:${pyStr(rhoBankSubscription)}`,
    16,
  );

export function generateVerificationId(userId: Value, timeVerified: Value): string {
  const suffix = strReceiver(timeVerified, "replace")
    .replaceAll(" ", "_")
    .replaceAll(":", "")
    .replaceAll("-", "");
  return `${pyStr(userId)}_${suffix}`;
}

export const generateUserDiscoverableToolId = (toolName: Value): string =>
  deterministicId(`user_discoverable_tool:${pyStr(toolName)}`, 16);

/** `json.dumps(arguments, sort_keys=True)` inside the seed: ", " / ": " separators, ASCII escapes. */
export const generateUserDiscoverableToolCallId = (toolName: Value, args: PyValue): string =>
  deterministicId(`user_discoverable_tool_call:${pyStr(toolName)}:${pyDumps(args, true)}`, 16);

export const generateDisputeId = (userId: Value, transactionId: Value): string =>
  `dsp_${deterministicId(`dispute:${pyStr(userId)}:${pyStr(transactionId)}`, 12)}`;

export const generateReferralLinkId = (userId: Value, cardName: Value): string =>
  deterministicId(`referral_link:${pyStr(userId)}:${pyStr(cardName)}`, 16);

export const generateAgentDiscoverableToolId = (toolName: Value): string =>
  deterministicId(`agent_discoverable_tool:${pyStr(toolName)}`, 16);

export const generateAgentDiscoverableToolCallId = (toolName: Value, args: PyValue): string =>
  deterministicId(`agent_discoverable_tool_call:${pyStr(toolName)}:${pyDumps(args, true)}`, 16);

export const generateCreditCardOrderId = (creditCardAccountId: Value, userId: Value, reason: Value): string =>
  `ccord_${deterministicId(`credit_card_order:${pyStr(creditCardAccountId)}:${pyStr(userId)}:${pyStr(reason)}`, 12)}`;

export const generateClosureReasonId = (creditCardAccountId: Value, userId: Value): string =>
  `clsr_${deterministicId(`closure_reason:${pyStr(creditCardAccountId)}:${pyStr(userId)}`, 12)}`;

export const generateAccountFlagId = (
  creditCardAccountId: Value,
  flagType: Value,
  expirationDate: Value,
): string =>
  `ccflag_${deterministicId(`account_flag:${pyStr(creditCardAccountId)}:${pyStr(flagType)}:${pyStr(expirationDate)}`, 12)}`;

export function generateCreditLimitIncreaseRequestId(
  creditCardAccountId: Value,
  userId: Value,
  requestedIncreaseAmount: Value,
): string {
  const amount = pyFormatFixed(requestedIncreaseAmount, 2);
  return `cli_${deterministicId(`cli_request:${pyStr(creditCardAccountId)}:${pyStr(userId)}:${amount}`, 12)}`;
}

export function generateBankAccountTransactionId(
  accountId: Value,
  date: Value,
  description: Value,
  amount: Value,
  transactionType: Value,
): string {
  const seed = `bank_txn:${pyStr(accountId)}:${pyStr(date)}:${pyStr(description)}:${pyFormatFixed(amount, 2)}:${pyStr(transactionType)}`;
  return `btxn_${deterministicId(seed, 12)}`;
}

export const generateDebitCardOrderId = (accountId: Value, userId: Value, deliveryOption: Value): string =>
  `dcord_${deterministicId(`debit_card_order:${pyStr(accountId)}:${pyStr(userId)}:${pyStr(deliveryOption)}`, 12)}`;

export const generateDebitCardId = (accountId: Value, userId: Value, issueDate: Value): string =>
  `dbc_${deterministicId(`debit_card:${pyStr(accountId)}:${pyStr(userId)}:${pyStr(issueDate)}`, 12)}`;

// ---- tools.py helpers ----

/** tau2's `_parse_balance`: a number as float, a string like "$2,850.00" via `float()`, else 0.0. */
export function parseBalance(val: Value): PyFloat {
  if (val instanceof PyFloat) return val;
  if (typeof val === "number" || typeof val === "boolean") return new PyFloat(Number(val) + 0);
  if (typeof val === "bigint") return pyToFloat(val);
  if (typeof val === "string")
    return new PyFloat(pyFloatFromStr(val.replaceAll("$", "").replaceAll(",", "")));
  return new PyFloat(0);
}

/** tau2's `_get_account_balance`: `current_holdings`, else `balance`, else 0 (a present None is 0.0). */
export const getAccountBalance = (account: PyValue): PyFloat =>
  parseBalance(field(account, "current_holdings", field(account, "balance", 0)));
