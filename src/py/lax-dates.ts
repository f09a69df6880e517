/**
 * pydantic lax-mode `datetime.date` / `datetime.datetime` fields, rendered as the text
 * `json.dumps(default=str)` gives them (`str(date)`, `str(datetime)`).
 */
import type { Coerced } from "./lax.ts";

const DATETIME_RE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6})\d*)?)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

const daysIn = (y: number, m: number): number => new Date(Date.UTC(y, m, 0)).getUTCDate();
const validDay = (y: number, m: number, d: number): boolean =>
  m >= 1 && m <= 12 && d >= 1 && d <= daysIn(y, m);
const validTime = (hh = "0", mm = "0", ss = "0"): boolean =>
  Number(hh) <= 23 && Number(mm) <= 59 && Number(ss) <= 59;

/** smol-toml yields `TomlDate` (a `Date`) for unquoted TOML dates; its `toISOString` is the TOML text. */
const dateText = (v: unknown): unknown => (v instanceof Date ? v.toISOString() : v);

const fail = (type: string, msg: string): Coerced => ({ ok: false, type, msg });

/** The date/datetime text's parts, or pydantic's error for a non-text or malformed input. */
function parse(raw: unknown, kind: "date" | "datetime"): RegExpExecArray | Coerced {
  const v = dateText(raw);
  if (typeof v !== "string") return fail(`${kind}_type`, `Input should be a valid ${kind}`);
  const m = DATETIME_RE.exec(v.trim());
  if (m && validDay(Number(m[1]), Number(m[2]), Number(m[3])) && validTime(m[4], m[5], m[6])) return m;
  const other = kind === "date" ? "datetime" : "date";
  return fail(
    `${kind}_from_${other}_parsing`,
    `Input should be a valid ${kind} or ${other}, invalid character`,
  );
}

/** A `date` field: `YYYY-MM-DD`. A datetime text is accepted when its time is zero. */
export function coerceDate(raw: unknown): Coerced {
  const m = parse(raw, "date");
  if (!Array.isArray(m)) return m;
  const [, y, mo, d, hh, mm, ss, frac] = m;
  if (![hh, mm, ss, frac].every((p) => p === undefined || Number(p) === 0)) {
    return fail("date_from_datetime_inexact", "Datetimes provided to dates should have zero time");
  }
  return { ok: true, value: `${y}-${mo}-${d}` };
}

/** Python `str(datetime)`: a space separator, `.ffffff` only when microseconds are non-zero. */
function renderDatetime(m: RegExpExecArray): string {
  const [, y, mo, d, hh = "00", mm = "00", ss = "00", frac, tz] = m;
  const micro = frac === undefined ? "" : frac.padEnd(6, "0");
  let out = `${y}-${mo}-${d} ${hh}:${mm}:${ss}`;
  if (micro !== "" && Number(micro) !== 0) out += `.${micro}`;
  if (tz !== undefined) {
    if (tz.toUpperCase() === "Z") out += "+00:00";
    else out += tz.includes(":") ? tz : `${tz.slice(0, 3)}:${tz.slice(3)}`;
  }
  return out;
}

/** A `datetime` field: `YYYY-MM-DD HH:MM:SS[.ffffff][+HH:MM]`; a bare date is midnight. */
export function coerceDatetime(raw: unknown): Coerced {
  const m = parse(raw, "datetime");
  return Array.isArray(m) ? { ok: true, value: renderDatetime(m) } : m;
}
