/**
 * The Python semantics the account and debit-card tools apply to raw arguments and records: tau2
 * passes JSON-decoded values unchecked, so a float where a string was expected fails inside
 * `.upper()`, `in`, `float()` or `strptime` with CPython's own exception, and DB records are plain
 * dicts read with `.get(key, default)`.
 */
import { attributeError, pyReprString } from "../../../py/builtins.ts";
import { PyException, PyTypeError } from "../../../py/errors.ts";
import { pyFloatFromStr, pyFormatFixed } from "../../../py/format.ts";
import { isPyDict, type PyDict, PyFloat, type PyValue, pyTypeName } from "../../../py/value.ts";
import type { DbState } from "../../db-state.ts";

export type Value = PyValue | undefined;

/** `record.get(key, dflt)` (a stored None is returned as None, not as the default). */
export const field = (rec: PyDict, key: string, dflt: PyValue = null): PyValue =>
  Object.hasOwn(rec, key) ? (rec[key] as PyValue) : dflt;

/** `x in ["a", "b"]`: list membership by `==`, so only an equal str matches. */
export const inStrs = (x: Value, options: readonly string[]): boolean =>
  typeof x === "string" && options.includes(x);

/** Python `repr(list_of_str)`, as f-strings print a list of valid options. */
export const strListRepr = (options: readonly string[]): string =>
  `[${options.map(pyReprString).join(", ")}]`;

function requireHashable(key: Value): void {
  if (Array.isArray(key) || isPyDict(key)) throw new PyTypeError(`unhashable type: '${pyTypeName(key)}'`);
}

/** `key in db.<table>.data` (a TypeError for an unhashable key: banking's dispatcher catches it). */
export function hasRecord(db: DbState, table: string, key: Value): key is string {
  requireHashable(key);
  return typeof key === "string" && db.has(table, key);
}

/** `db.<table>.data.get(key)`: the record, or undefined (None). */
export function getRecord(db: DbState, table: string, key: Value): PyDict | undefined {
  return hasRecord(db, table, key) ? (db.get(table, key) as PyDict) : undefined;
}

/** `dict.get(key, dflt)` on a literal str-keyed dict (e.g. a fee table) with a raw key. */
export function lookup<T>(table: Readonly<Record<string, T>>, key: Value): T | undefined {
  requireHashable(key);
  return typeof key === "string" && Object.hasOwn(table, key) ? table[key] : undefined;
}

/** The receiver of a str method: anything else raises AttributeError. */
function str(v: Value, method: string): string {
  if (typeof v !== "string") throw attributeError(v, method);
  return v;
}

export const upperMethod = (v: Value): string => str(v, "upper").toUpperCase();
export const lowerMethod = (v: Value): string => str(v, "lower").toLowerCase();

// Python's str.isdigit(): Unicode decimals (Nd) plus the common Numeric_Type=Digit characters.
const DIGITS_ONLY = /^[\p{Nd}²³¹⁰⁴-⁹₀-₉①-⑨⑴-⑼⒈-⒐⓪⓵-⓽⓿❶-❾➀-➈➊-➒]+$/u;
export const isdigitMethod = (v: Value): boolean => DIGITS_ONLY.test(str(v, "isdigit"));

/** Python `len(s)` of a str: code points, not UTF-16 units. */
export const strLen = (s: string): number => [...s].length;

/** Python `str.title()` (tau2 only titles ASCII reason codes; JS case maps suffice). */
export function titleCase(s: string): string {
  let out = "";
  let prevCased = false;
  for (const ch of s) {
    const cased = ch.toLowerCase() !== ch.toUpperCase();
    out += cased ? (prevCased ? ch.toLowerCase() : ch.toUpperCase()) : ch;
    prevCased = cased;
  }
  return out;
}

/** `s.replace("_", " ").title()`, how the debit tools print a reason code. */
export const reasonTitle = (v: Value): string => titleCase(str(v, "replace").replaceAll("_", " "));

/**
 * Python `float(v)` inside `try: ... except (ValueError, TypeError)`: the float, or null when Python
 * would raise one of those two (an OverflowError still propagates).
 */
export function floatOrNull(v: Value): number | null {
  if (v instanceof PyFloat) return v.v;
  if (typeof v === "number" || typeof v === "boolean") return Number(v) + 0;
  if (typeof v === "bigint") {
    const n = Number(v);
    if (!Number.isFinite(n)) throw new PyException("int too large to convert to float");
    return n;
  }
  if (typeof v === "string") {
    try {
      return pyFloatFromStr(v);
    } catch (e) {
      if (e instanceof PyException) return null;
      throw e;
    }
  }
  return null;
}

/** `str(int(x))` of an integral double, all digits as Python prints them (no `1e+21`). */
export const intStr = (x: number): string => (Number.isSafeInteger(x) ? String(x) : BigInt(x).toString());

/** `f"{x:.2f}"` of a Python float. */
export const money = (x: number): string => pyFormatFixed(new PyFloat(x), 2);

// ---- datetime.strptime for the two formats the tools parse ----

export interface Moment {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
}

// _strptime's regexes for %m, %d, %Y, %H, %M, %S (ASCII digits; a format space matches \s+).
const M = "(1[0-2]|0[1-9]|[1-9])";
const D = "(3[01]|[12]\\d|0[1-9]|[1-9]| [1-9])";
const Y = "(\\d\\d\\d\\d)";
const FORMATS = {
  "%m/%d/%Y": new RegExp(`^${M}/${D}/${Y}$`),
  "%m/%d/%Y %H:%M:%S": new RegExp(
    `^${M}/${D}/${Y}\\s+(2[0-3]|[0-1]\\d|\\d):([0-5]\\d|\\d):(6[0-1]|[0-5]\\d|\\d)$`,
  ),
} as const;
export type DateFormat = keyof typeof FORMATS;

const daysInMonth = (y: number, m: number): number =>
  m === 2 ? (y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28) : [4, 6, 9, 11].includes(m) ? 30 : 31;

/**
 * `datetime.strptime(v, fmt)`: the moment, or null for Python's ValueError (no match, leftover text,
 * day out of range, year 0, second 60/61). A non-str raises Python's TypeError.
 */
export function strptime(v: Value, fmt: DateFormat): Moment | null {
  if (typeof v !== "string") {
    throw new PyTypeError(
      `strptime() argument 1 must be str, not ${v === null || v === undefined ? "None" : pyTypeName(v)}`,
    );
  }
  const m = FORMATS[fmt].exec(v);
  if (m === null) return null;
  const n = m.slice(1).map((x) => Number(x.trim()));
  const [month, day, year, hour = 0, minute = 0, second = 0] = n as [
    number,
    number,
    number,
    number?,
    number?,
    number?,
  ];
  if (year < 1 || day > daysInMonth(year, month) || second > 59) return null;
  return { year, month, day, hour, minute, second };
}

/** Days since 0001-01-01 (proleptic Gregorian), as `date.toordinal() - 1`. */
export function dayNumber(t: { year: number; month: number; day: number }): number {
  const y = t.year - 1;
  let days = y * 365 + Math.floor(y / 4) - Math.floor(y / 100) + Math.floor(y / 400);
  for (let m = 1; m < t.month; m++) days += daysInMonth(t.year, m);
  return days + t.day - 1;
}

/** `(later - earlier).days` of two datetimes: whole days, floored. */
export function daysBetween(later: Moment, earlier: Moment): number {
  const secs = (t: Moment) => t.hour * 3600 + t.minute * 60 + t.second;
  const diff = (dayNumber(later) - dayNumber(earlier)) * 86400 + secs(later) - secs(earlier);
  return Math.floor(diff / 86400);
}

/** A sortable number for a moment (seconds since datetime.min). */
export const momentKey = (t: Moment): number =>
  dayNumber(t) * 86400 + t.hour * 3600 + t.minute * 60 + t.second;
