/**
 * Python's `format()` mini-language for the specs banking's f-strings use (`:.2f`, `:.0f`, `:,`,
 * `:,.2f`), on raw tool values: numbers are formatted from their exact binary value (ties to even),
 * and a non-number raises the TypeError or ValueError Python would. Also the `float()` / `int()`
 * conversions around them, with CPython's exception types and texts, and `json.dumps(indent=n)`.
 */

import { pyReprString } from "./builtins.ts";
import { PyException, PyTypeError } from "./errors.ts";
import { pyDumps, pyJsonString } from "./json.ts";
import { floatRepr } from "./number.ts";
import { isPyDict, PyFloat, type PyValue, pyKeys, pyTypeName } from "./value.ts";

type Value = PyValue | undefined;

/** Python `ValueError` (callers that catch `(TypeError, ValueError)` tell it from other errors). */
export class PyValueError extends PyException {
  override readonly pyType: string = "ValueError";
}
/** Python `OverflowError`, which `except (TypeError, ValueError)` does not catch. */
export class PyOverflowError extends PyException {
  override readonly pyType = "OverflowError";
}

/** The double that `format` works on for a float spec, or Python's exception for `spec`. */
function floatOperand(x: Value, spec: string, code: string): number {
  if (x instanceof PyFloat) return x.v;
  // `+ 0` turns a stray JS -0 into the int 0, which has no sign.
  if (typeof x === "number" || typeof x === "boolean") return Number(x) + 0;
  if (typeof x === "bigint") {
    const n = Number(x);
    if (!Number.isFinite(n)) throw new PyOverflowError("int too large to convert to float");
    return n;
  }
  throw formatError(x, spec, code);
}

/** What `format(x, spec)` raises when `x` is not a number. */
function formatError(x: Value, spec: string, code: string): PyException {
  if (typeof x === "string") {
    if (code === "," && spec === ",") return new PyValueError("Cannot specify ',' with 's'.");
    return new PyValueError(`Unknown format code '${code}' for object of type 'str'`);
  }
  return new PyTypeError(`unsupported format string passed to ${pyTypeName(x)}.__format__`);
}

/** Splits a finite non-negative double into an exact `m * 2^e`. */
function decompose(x: number): { m: bigint; e: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  const frac = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  return biased === 0 ? { m: frac, e: -1074 } : { m: frac | (1n << 52n), e: biased - 1075 };
}

/** `|x|` with exactly `digits` decimals, rounded half-even on the exact value (what CPython does). */
function fixedMagnitude(x: number, digits: number): string {
  const { m, e } = decompose(Math.abs(x));
  let scaled: bigint;
  if (e >= 0) {
    scaled = (m << BigInt(e)) * 10n ** BigInt(digits);
  } else {
    const num = m * 10n ** BigInt(digits);
    const den = 1n << BigInt(-e);
    scaled = num / den;
    const twice = (num - scaled * den) * 2n;
    if (twice > den || (twice === den && scaled % 2n === 1n)) scaled += 1n;
  }
  const s = scaled.toString().padStart(digits + 1, "0");
  return digits === 0 ? s : `${s.slice(0, -digits)}.${s.slice(-digits)}`;
}

/** Inserts `,` every three digits of the leading digit run (the integer part). */
function group(s: string): string {
  const m = /^(-?)(\d+)(.*)$/s.exec(s);
  if (m === null) return s;
  const [, sign, int, rest] = m as unknown as [string, string, string, string];
  return `${sign}${int.replace(/\B(?=(\d{3})+$)/g, ",")}${rest}`;
}

function fixed(x: Value, digits: number, comma: boolean): string {
  const spec = `${comma ? "," : ""}.${digits}f`;
  const v = floatOperand(x, spec, "f");
  if (Number.isNaN(v)) return "nan";
  if (!Number.isFinite(v)) return v > 0 ? "inf" : "-inf";
  // Python keeps the sign of -0.0 and of negatives that round to zero.
  const sign = v < 0 || Object.is(v, -0) ? "-" : "";
  const text = `${sign}${fixedMagnitude(v, digits)}`;
  return comma ? group(text) : text;
}

/** Python `format(x, ".<digits>f")`, i.e. f"{x:.2f}". */
export const pyFormatFixed = (x: Value, digits: number): string => fixed(x, digits, false);

/** Python `format(x, ",.<digits>f")`, i.e. f"{x:,.2f}". */
export const pyFormatComma = (x: Value, digits: number): string => fixed(x, digits, true);

/** Python `format(x, ",")`, i.e. f"{x:,}": an int grouped, a float its repr grouped. */
export function pyFormatGrouped(x: Value): string {
  if (typeof x === "number" || typeof x === "bigint") return group(x.toString());
  if (typeof x === "boolean") return x ? "1" : "0";
  if (x instanceof PyFloat) {
    const r = floatRepr(x.v);
    // An exponent form (`1e+16`) has a one-digit integer part: nothing to group.
    return r.includes("e") ? r : group(r);
  }
  throw formatError(x, ",", ",");
}

const DIGITS = "\\d(?:_?\\d)*";
const FLOAT_TEXT = new RegExp(
  `^[+-]?(?:(?:${DIGITS}(?:\\.(?:${DIGITS})?)?|\\.${DIGITS})(?:[eE][+-]?${DIGITS})?|inf|infinity|nan)$`,
  "i",
);
const INT_TEXT = new RegExp(`^[+-]?${DIGITS}$`);
const ND = /\p{Nd}/u;

/** A Unicode decimal digit as its ASCII digit (Nd digits come in aligned runs of ten). */
function asciiDigit(ch: string): string {
  const cp = ch.codePointAt(0) as number;
  let start = cp;
  while (ND.test(String.fromCodePoint(start - 1))) start--;
  return String((cp - start) % 10);
}

// CPython turns non-ASCII whitespace into " " and then strips ASCII whitespace only, so U+001C–U+001F
// (isspace() to Python, but ASCII) stay and make the text invalid (checked against CPython 3.11).
const NON_ASCII_SPACE = /[\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;
const ASCII_SPACE_RUNS = /^[\t\n\v\f\r ]+|[\t\n\v\f\r ]+$/g;

/** The text `float()` and `int()` parse (`_PyUnicode_TransformDecimalAndSpaceToASCII`, then a strip). */
function numericText(s: string): string {
  let t = "";
  for (const ch of s) {
    if (ch >= "0" && ch <= "9") t += ch;
    else if (ND.test(ch)) t += asciiDigit(ch);
    else t += NON_ASCII_SPACE.test(ch) ? " " : ch;
  }
  return t.replace(ASCII_SPACE_RUNS, "");
}

/** Python `float(s)` for a str, with its ValueError text. */
export function pyFloatFromStr(s: string): number {
  const t = numericText(s);
  if (!FLOAT_TEXT.test(t)) throw new PyValueError(`could not convert string to float: ${pyReprString(s)}`);
  const body = t.replace(/_/g, "").toLowerCase();
  const unsigned = body.replace(/^[+-]/, "");
  const negative = body.startsWith("-");
  if (unsigned === "nan") return Number.NaN;
  if (unsigned.startsWith("inf")) return negative ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  // JS Number() rounds decimal text correctly, as CPython's strtod does.
  return Number(body);
}

/** Python `float(v)` on a raw value: ValueError text for a bad str, TypeError for a non-number. */
export function pyToFloat(v: PyValue | undefined): PyFloat {
  if (v instanceof PyFloat) return v;
  if (typeof v === "string") return new PyFloat(pyFloatFromStr(v));
  if (typeof v === "number" || typeof v === "boolean" || typeof v === "bigint") {
    return new PyFloat(floatOperand(v, "", ""));
  }
  throw new PyTypeError(`float() argument must be a string or a real number, not '${pyTypeName(v)}'`);
}

/** Python `int(x)` of a float: truncation toward zero, exact beyond 2^53. */
export function pyIntOfFloat(x: number): number | bigint {
  if (Number.isNaN(x)) throw new PyValueError("cannot convert float NaN to integer");
  if (!Number.isFinite(x)) throw new PyOverflowError("cannot convert float infinity to integer");
  const t = Math.trunc(x) + 0;
  return Number.isSafeInteger(t) ? t : BigInt(t);
}

/** Python `int(v)` on a raw value: a float truncates, a str must be a base-10 integer literal. */
export function pyToInt(v: PyValue | undefined): number | bigint {
  if (typeof v === "number" || typeof v === "bigint") return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (v instanceof PyFloat) return pyIntOfFloat(v.v);
  if (typeof v === "string") {
    const t = numericText(v);
    if (!INT_TEXT.test(t))
      throw new PyValueError(`invalid literal for int() with base 10: ${pyReprString(v)}`);
    const n = BigInt(t.replace(/_/g, ""));
    return n >= -BigInt(Number.MAX_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n;
  }
  throw new PyTypeError(
    `int() argument must be a string, a bytes-like object or a real number, not '${pyTypeName(v)}'`,
  );
}

/**
 * `try: return attempt() except (ValueError, TypeError): return fallback`, as tau2 wraps its
 * conversions: any other exception (an OverflowError) propagates.
 */
export function exceptValueOrTypeError<T, F>(attempt: () => T, fallback: F): T | F {
  try {
    return attempt();
  } catch (e) {
    if (e instanceof PyValueError || e instanceof PyTypeError) return fallback;
    throw e;
  }
}

/** `float(v)` inside `try ... except (ValueError, TypeError)`: the double, or null where it raised. */
export const pyFloatOrNull = (v: PyValue | undefined): number | null =>
  exceptValueOrTypeError(() => pyToFloat(v).v, null);

/** Python `json.dumps(v, indent=n)`: one item per line, "," item separator, ASCII escapes. */
export function pyDumpsIndent(v: PyValue, indent = 2, level = 0): string {
  const pad = (l: number) => `\n${" ".repeat(indent * l)}`;
  if (Array.isArray(v)) {
    if (v.length === 0) return "[]";
    const items = v.map((x) => `${pad(level + 1)}${pyDumpsIndent(x, indent, level + 1)}`);
    return `[${items.join(",")}${pad(level)}]`;
  }
  if (isPyDict(v)) {
    const keys = pyKeys(v);
    if (keys.length === 0) return "{}";
    const items = keys.map(
      (k) => `${pad(level + 1)}${pyJsonString(k)}: ${pyDumpsIndent(v[k] as PyValue, indent, level + 1)}`,
    );
    return `{${items.join(",")}${pad(level)}}`;
  }
  return pyDumps(v);
}
