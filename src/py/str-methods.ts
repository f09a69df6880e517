/**
 * Python `str` methods on raw values. tau2 passes JSON-decoded arguments unchecked, so the receiver
 * may be any value: a non-str raises the AttributeError Python would. JS case mapping is CPython's
 * full mapping (checked on every code point against CPython 3.11, Unicode-version additions aside).
 * `str.lower()` is builtins.ts's `lowerMethod`, `len(s)` its `pyLen`.
 */
import { attributeError } from "./builtins.ts";
import type { PyValue } from "./value.ts";

type Value = PyValue | undefined;

/** The receiver of `v.<method>(...)`: the str itself; anything else raises AttributeError. */
export function strReceiver(v: Value, method: string): string {
  if (typeof v !== "string") throw attributeError(v, method);
  return v;
}

/** `v.upper()`. */
export const upperMethod = (v: Value): string => strReceiver(v, "upper").toUpperCase();

// Python's str.isdigit(): Unicode decimals (Nd) plus the Numeric_Type=Digit characters (superscripts,
// circled and parenthesized digits, Ethiopic, Kharoshthi, Rumi, Brahmi, digit-comma), as CPython 3.11.
const DIGITS_ONLY =
  /^[\p{Nd}²³¹⁰⁴-⁹₀-₉①-⑨⑴-⑼⒈-⒐⓪⓵-⓽⓿❶-❾➀-➈➊-➒\u1369-\u1371\u19da\u{10a40}-\u{10a43}\u{10e60}-\u{10e68}\u{11052}-\u{1105a}\u{1f100}-\u{1f10a}]+$/u;

/** `v.isdigit()`. */
export const isdigitMethod = (v: Value): boolean => DIGITS_ONLY.test(strReceiver(v, "isdigit"));

/**
 * Python `str.title()`: a cased letter after a cased letter is lowered, any other is raised.
 * Approximate outside ASCII (CPython applies title-case mappings, e.g. `'ǆ'` → `'ǅ'`); tau2 only
 * titles its own ASCII codes.
 */
export function pyTitle(s: string): string {
  let out = "";
  let prevCased = false;
  for (const ch of s) {
    const cased = ch.toLowerCase() !== ch.toUpperCase();
    out += cased ? (prevCased ? ch.toLowerCase() : ch.toUpperCase()) : ch;
    prevCased = cased;
  }
  return out;
}

// Python's str.isspace() set, what strip() removes: JS `\s` lacks U+001C–U+001F and U+0085 but adds
// U+FEFF (checked against CPython 3.11).
const PY_SPACE =
  "\\t\\n\\v\\f\\r \\u001c-\\u001f\\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const LEADING_SPACE = new RegExp(`^[${PY_SPACE}]+`);
const TRAILING_SPACE = new RegExp(`[${PY_SPACE}]+$`);

/** `s.lstrip()`. */
export const pyLstrip = (s: string): string => s.replace(LEADING_SPACE, "");

/** `s.strip()`. */
export const pyStrip = (s: string): string => pyLstrip(s).replace(TRAILING_SPACE, "");
