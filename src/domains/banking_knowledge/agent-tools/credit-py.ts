/**
 * The Python semantics the credit/dispute tools apply to raw arguments. tau2 passes the decoded JSON
 * arguments to the tool body unvalidated, so a number where a string was expected (or the reverse)
 * reaches comparisons, `float()`, `int()` and f-strings, whose exact results and exception types
 * we reproduce: the dispatcher turns a TypeError into "Invalid arguments" and lets others through.
 */
import { attributeError, pyReprString, pyStr, pyTruthy } from "../../../py/builtins.ts";
import { PyException, PyTypeError } from "../../../py/errors.ts";
import { pyFloatFromStr } from "../../../py/format.ts";
import { isPyDict, type PyDict, PyFloat, type PyValue, pyTypeName } from "../../../py/value.ts";

export { pyStr, pyTruthy };

/** `record.get(key)`: None (null) when absent. */
export const field = (record: PyValue | undefined, key: string): PyValue =>
  isPyDict(record) && Object.hasOwn(record, key) ? (record[key] as PyValue) : null;

/** `record.get(key, default)`: the default only when the key is absent (a stored None stays None). */
export const getOr = (record: PyValue | undefined, key: string, fallback: PyValue): PyValue =>
  isPyDict(record) && Object.hasOwn(record, key) ? (record[key] as PyValue) : fallback;

/**
 * The dict key for `x in table.data` / `table.data.get(x)`: the string, or null when `x` is hashable
 * but cannot be a key (tables have string keys); a list or dict raises Python's TypeError.
 */
export function hashKey(x: PyValue): string | null {
  if (Array.isArray(x) || isPyDict(x)) throw new PyTypeError(`unhashable type: '${pyTypeName(x)}'`);
  return typeof x === "string" ? x : null;
}

/** `value.upper()` on a raw value (a non-str has no such method). */
export function pyUpper(v: PyValue): string {
  if (typeof v !== "string") throw attributeError(v, "upper");
  return v.toUpperCase();
}

/** `x in [<strings>]`: list membership compares with `==`, so only an equal string matches. */
export const inStrings = (x: PyValue, options: readonly string[]): x is string =>
  typeof x === "string" && options.includes(x);

/** Python `str(list_of_strings)`, as tau2 interpolates its lists of valid values. */
export const strList = (items: readonly string[]): string => `[${items.map(pyReprString).join(", ")}]`;

/** A number as Python compares it (bool is an int), or undefined for a non-number. */
function numeric(x: PyValue): number | undefined {
  if (typeof x === "number") return x;
  if (x instanceof PyFloat) return x.v;
  if (typeof x === "boolean") return x ? 1 : 0;
  if (typeof x === "bigint") return Number(x);
  return undefined;
}

/** Python `a <op> b` for an ordering operator; a non-number raises Python's TypeError. */
export function compare(a: PyValue, op: "<" | "<=" | ">" | ">=", b: PyValue): boolean {
  const x = numeric(a);
  const y = numeric(b);
  if (x === undefined || y === undefined) {
    throw new PyTypeError(
      `'${op}' not supported between instances of '${pyTypeName(a)}' and '${pyTypeName(b)}'`,
    );
  }
  if (op === "<") return x < y;
  if (op === "<=") return x <= y;
  if (op === ">") return x > y;
  return x >= y;
}

const OVERFLOW = "int too large to convert to float";

/** Python `float(x)`: a str is parsed (ValueError on bad text), containers and None raise TypeError. */
export function pyFloatOf(x: PyValue): number {
  if (x instanceof PyFloat) return x.v;
  if (typeof x === "number") return x + 0;
  if (typeof x === "boolean") return x ? 1 : 0;
  if (typeof x === "bigint") {
    const n = Number(x);
    if (!Number.isFinite(n)) throw new PyException(OVERFLOW);
    return n;
  }
  if (typeof x === "string") return pyFloatFromStr(x);
  throw new PyTypeError(`float() argument must be a string or a real number, not '${pyTypeName(x)}'`);
}

/** A Python int from an integral double: a JS number when exact, else a bigint. */
export function intFromIntegral(v: number): number | bigint {
  return Number.isSafeInteger(v) ? v + 0 : BigInt(v);
}

// Python's str.isspace set (what int() strips).
const PY_SPACE =
  "\\t\\n\\v\\f\\r \\u001c-\\u001f\\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const STRIP = new RegExp(`^[${PY_SPACE}]+|[${PY_SPACE}]+$`, "g");
const INT_TEXT = /^[+-]?\d(?:_?\d)*$/;

/**
 * Python `int(x)`: a float truncates toward zero (NaN is a ValueError, infinity an OverflowError),
 * a str must be a base-10 integer literal.
 */
export function pyIntOf(x: PyValue): number | bigint {
  if (typeof x === "number" || typeof x === "bigint") return x;
  if (typeof x === "boolean") return x ? 1 : 0;
  if (x instanceof PyFloat) {
    if (Number.isNaN(x.v)) throw new PyException("cannot convert float NaN to integer");
    if (!Number.isFinite(x.v)) throw new PyException("cannot convert float infinity to integer");
    return intFromIntegral(Math.trunc(x.v));
  }
  if (typeof x === "string") {
    const t = x.replace(STRIP, "");
    if (!INT_TEXT.test(t))
      throw new PyException(`invalid literal for int() with base 10: ${pyReprString(x)}`);
    const n = BigInt(t.replace(/_/g, ""));
    return Number.isSafeInteger(Number(n)) && BigInt(Number(n)) === n ? Number(n) : n;
  }
  throw new PyTypeError(
    `int() argument must be a string, a bytes-like object or a real number, not '${pyTypeName(x)}'`,
  );
}

/**
 * Runs a conversion the way tau2's `try: ... except (ValueError, TypeError):` does: either
 * exception gives the fallback, anything else (OverflowError) propagates.
 */
export function orOnValueOrTypeError<T>(convert: () => T, fallback: () => T): T {
  try {
    return convert();
  } catch (e) {
    if (e instanceof PyException && !isOverflow(e)) return fallback();
    throw e;
  }
}

const isOverflow = (e: PyException): boolean =>
  e.message === OVERFLOW || e.message === "cannot convert float infinity to integer";

/** Python `str.title()`: a cased letter after a cased letter is lowered, any other is raised. */
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

/** tau2's `s.replace('_', ' ').title()` display form of an enum value. */
export const display = (s: string): string => pyTitle(s.replaceAll("_", " "));

/** A dict of named values, in order (for `json.dumps({...}, indent=2)` of tool arguments). */
export function dictOf(entries: readonly (readonly [string, PyValue])[]): PyDict {
  const out: PyDict = {};
  for (const [k, v] of entries) out[k] = v;
  return out;
}
