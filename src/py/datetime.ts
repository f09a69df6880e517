/**
 * The slice of Python's `datetime` that banking uses: naive dates and datetimes without
 * microseconds, `isoformat()`, `strptime` for the two formats tau2 parses, and day arithmetic.
 */
import { PyTypeError } from "./errors.ts";
import { type PyValue, pyTypeName } from "./value.ts";

export interface PyDate {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}
export interface PyDateTime extends PyDate {
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
}

const pad = (n: number, w = 2) => String(n).padStart(w, "0");

/** `datetime.isoformat()` of a naive datetime without microseconds. */
export const isoformat = (t: PyDateTime): string =>
  `${pad(t.year, 4)}-${pad(t.month)}-${pad(t.day)}T${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}`;

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
export function strptime(v: PyValue | undefined, fmt: DateFormat): PyDateTime | null {
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
export function dayNumber(t: PyDate): number {
  const y = t.year - 1;
  let days = y * 365 + Math.floor(y / 4) - Math.floor(y / 100) + Math.floor(y / 400);
  for (let m = 1; m < t.month; m++) days += daysInMonth(t.year, m);
  return days + t.day - 1;
}

/** Seconds since `datetime.min`: a sortable number for a moment. */
export const secondsSinceMin = (t: PyDateTime): number =>
  dayNumber(t) * 86400 + t.hour * 3600 + t.minute * 60 + t.second;

/** `(later - earlier).days` of two datetimes: whole days, floored. */
export const daysBetween = (later: PyDateTime, earlier: PyDateTime): number =>
  Math.floor((secondsSinceMin(later) - secondsSinceMin(earlier)) / 86400);
