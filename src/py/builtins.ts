/**
 * Python built-ins applied to raw tool arguments, with CPython's results and exception texts. tau2
 * passes JSON-decoded arguments to its tools unvalidated, so a list where a string was expected
 * fails inside `repr()`, `in`, `len()`, iteration or a method call with these messages.
 */
// Exceptions are raised as the tool-level error, whose text becomes the tool result.
import { PyTypeError, PyException as ToolError } from "./errors.ts";
import { compareCodePoints } from "./json.ts";
import { pyNumStr } from "./number.ts";
import { isPyDict, numericValue, type PyValue, pyEquals, pyTypeName } from "./value.ts";

/** `undefined` stands for a missing value that Python would hold as None. */
type Value = PyValue | undefined;

// What `str.isprintable()` rejects (and `repr` escapes): controls, format characters, surrogates,
// private use, unassigned code points, and every separator but the ASCII space.
const NON_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;
const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  "\\": "\\\\",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
};

function escapeCodePoint(cp: number): string {
  if (cp < 0x100) return `\\x${cp.toString(16).padStart(2, "0")}`;
  if (cp < 0x10000) return `\\u${cp.toString(16).padStart(4, "0")}`;
  return `\\U${cp.toString(16).padStart(8, "0")}`;
}

/** Python `repr(str)`: single quotes unless the text has `'` and no `"`; non-printables escaped. */
export function pyReprString(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    if (ch === quote) out += `\\${ch}`;
    else if (SHORT_ESCAPES[ch] !== undefined) out += SHORT_ESCAPES[ch];
    else if (ch !== " " && NON_PRINTABLE.test(ch)) out += escapeCodePoint(ch.codePointAt(0) as number);
    else out += ch;
  }
  return out + quote;
}

/** Python `repr()` of a JSON-like value. */
export function pyRepr(v: Value): string {
  if (v === null || v === undefined) return "None";
  if (typeof v === "string") return pyReprString(v);
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(", ")}]`;
  if (isPyDict(v)) {
    return `{${Object.keys(v)
      .map((k) => `${pyReprString(k)}: ${pyRepr(v[k])}`)
      .join(", ")}}`;
  }
  return pyNumStr(v);
}

/** Python `str()` (what an f-string interpolates): a string is itself, anything else its repr. */
export const pyStr = (v: Value): string => (typeof v === "string" ? v : pyRepr(v));

/** Python truthiness. */
export function pyTruthy(v: Value): boolean {
  if (v === null || v === undefined) return false;
  if (typeof v === "string" || Array.isArray(v)) return v.length > 0;
  if (isPyDict(v)) return Object.keys(v).length > 0;
  return numericValue(v) !== 0;
}

// ---- exception texts ----

/** `obj.name` on a value that lacks the attribute. */
export const attributeError = (v: Value, name: string): ToolError =>
  new ToolError(`'${pyTypeName(v)}' object has no attribute '${name}'`);

/** A binary operator applied to unsupported operand types. */
export const operandTypeError = (op: string, a: Value, b: Value): ToolError =>
  new PyTypeError(`unsupported operand type(s) for ${op}: '${pyTypeName(a)}' and '${pyTypeName(b)}'`);

/** An ordering comparison (`<`, `>=`, ...) between unsupported types. */
export const compareError = (op: string, a: Value, b: Value): ToolError =>
  new PyTypeError(`'${op}' not supported between instances of '${pyTypeName(a)}' and '${pyTypeName(b)}'`);

// ---- dict keys ----

/** Raises Python's TypeError for a list or dict used as a dict key or set member. */
export function requireHashable(v: Value): void {
  if (Array.isArray(v) || isPyDict(v)) throw new PyTypeError(`unhashable type: '${pyTypeName(v)}'`);
}

/**
 * The key for `x in d` on a dict with string keys: the string, or null when `x` is hashable but
 * cannot match; an unhashable `x` raises.
 */
export function dictKey(x: Value): string | null {
  requireHashable(x);
  return typeof x === "string" ? x : null;
}

/** Python `key in d` for a string-keyed dict whose membership test is `has`. */
export function pyKeyIn(key: Value, has: (k: string) => boolean): key is string {
  const k = dictKey(key);
  return k !== null && has(k);
}

/** `d[key]` after a failed lookup: the KeyError text is the key's repr. */
export function keyError(key: Value): ToolError {
  requireHashable(key);
  return new ToolError(pyRepr(key));
}

// ---- iteration ----

/** The items `for x in v` visits: list items, a string's characters, a dict's keys. */
export function pyIter(v: Value): PyValue[] {
  if (Array.isArray(v)) return v;
  if (typeof v === "string") return [...v];
  if (isPyDict(v)) return Object.keys(v);
  throw new PyTypeError(`'${pyTypeName(v)}' object is not iterable`);
}

/** Python `len(v)`. */
export function pyLen(v: Value): number {
  if (typeof v === "string" || Array.isArray(v) || isPyDict(v)) return pyIter(v).length;
  throw new PyTypeError(`object of type '${pyTypeName(v)}' has no len()`);
}

/** `container.count(x)` for a list (Python `==`) or a string (non-overlapping substrings). */
export function pyCount(container: Value, x: Value): number {
  if (Array.isArray(container)) return container.filter((e) => pyEquals(e, x)).length;
  if (typeof container === "string") {
    if (typeof x !== "string") throw new PyTypeError(`must be str, not ${pyTypeName(x)}`);
    if (x === "") return [...container].length + 1;
    return container.split(x).length - 1;
  }
  throw attributeError(container, "count");
}

/** `list(zip(a, b))`. */
export function pyZip(a: Value, b: Value): [PyValue, PyValue][] {
  const xs = pyIter(a);
  const ys = pyIter(b);
  const n = Math.min(xs.length, ys.length);
  return xs.slice(0, n).map((x, i) => [x, ys[i] as PyValue]);
}

/** `sorted(v)` for values that should be strings: code-point order; a non-string raises. */
export function pySortedStrings(v: Value): string[] {
  const items = pyIter(v);
  const strings: string[] = [];
  for (const s of items) {
    if (typeof s !== "string") {
      const other = items.find((e) => typeof e !== typeof s) ?? s;
      throw compareError("<", s, other);
    }
    strings.push(s);
  }
  return strings.sort(compareCodePoints);
}

/** `v.lower()` on a raw value; JS applies the same full case mapping, final sigma included. */
export function lowerMethod(v: Value): string {
  if (typeof v !== "string") throw attributeError(v, "lower");
  return v.toLowerCase();
}
