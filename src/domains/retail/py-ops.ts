/**
 * Python built-ins applied to raw (unvalidated) tool arguments, with CPython's error texts. tau2
 * passes JSON-decoded arguments straight to the tool methods, so a list where a string was expected
 * fails inside `in dict`, `len()`, iteration or `.lower()` with these messages.
 */
import { compareCodePoints } from "../../formats/py/json.ts";
import { pyNumStr } from "../../formats/py/number.ts";
import { isPyDict, PyFloat, type PyValue, pyEquals, pyTypeName } from "../../formats/py/value.ts";
import { type Args, ToolError } from "../toolkit.ts";

/**
 * The key for `x in some_dict`: a string key, or null when `x` is hashable but cannot match
 * (all retail dicts have string keys); lists and dicts raise Python's TypeError.
 */
export function dictKey(x: PyValue): string | null {
  if (typeof x === "string") return x;
  if (Array.isArray(x) || isPyDict(x)) throw new ToolError(`unhashable type: '${pyTypeName(x)}'`);
  return null;
}

/** The elements `for x in v` visits: list items, a string's characters, a dict's keys. */
export function pyIter(v: PyValue): PyValue[] {
  if (Array.isArray(v)) return v;
  if (typeof v === "string") return Array.from(v);
  if (isPyDict(v)) return Object.keys(v);
  throw new ToolError(`'${pyTypeName(v)}' object is not iterable`);
}

/** `len(v)`. */
export function pyLen(v: PyValue): number {
  if (Array.isArray(v)) return v.length;
  if (typeof v === "string") return Array.from(v).length;
  if (isPyDict(v)) return Object.keys(v).length;
  throw new ToolError(`object of type '${pyTypeName(v)}' has no len()`);
}

/** `container.count(x)` for a list (Python `==`) or a string (non-overlapping substrings). */
export function pyCount(container: PyValue, x: PyValue): number {
  if (Array.isArray(container)) return container.filter((e) => pyEquals(e, x)).length;
  if (typeof container === "string") {
    if (typeof x !== "string") throw new ToolError(`must be str, not ${pyTypeName(x)}`);
    if (x === "") return Array.from(container).length + 1;
    return container.split(x).length - 1;
  }
  throw new ToolError(`'${pyTypeName(container)}' object has no attribute 'count'`);
}

/** `list(zip(a, b))`. */
export function pyZip(a: PyValue, b: PyValue): [PyValue, PyValue][] {
  const xs = pyIter(a);
  const ys = pyIter(b);
  const n = Math.min(xs.length, ys.length);
  return xs.slice(0, n).map((x, i) => [x, ys[i] as PyValue]);
}

/** `sorted(v)` for the values retail sorts: strings in code-point order (mixed types raise). */
export function pySortedStrings(v: PyValue): string[] {
  const items = pyIter(v);
  const strings: string[] = [];
  for (const s of items) {
    if (typeof s !== "string") {
      const other = items.find((e) => typeof e !== typeof s) ?? s;
      throw new ToolError(
        `'<' not supported between instances of '${pyTypeName(s)}' and '${pyTypeName(other)}'`,
      );
    }
    strings.push(s);
  }
  return strings.sort(compareCodePoints);
}

/** `s.lower()`: per character, so the context-free mapping matches Python (no final-sigma rule). */
export function pyLower(s: PyValue): string {
  if (typeof s !== "string") throw new ToolError(`'${pyTypeName(s)}' object has no attribute 'lower'`);
  let out = "";
  for (const ch of s) out += ch.toLowerCase();
  return out;
}

/** Python `repr()` of a JSON-like value. */
export function pyRepr(v: PyValue): string {
  if (typeof v === "string") return reprString(v);
  if (v === null) return "None";
  if (typeof v === "boolean" || typeof v === "number" || typeof v === "bigint" || v instanceof PyFloat) {
    return pyNumStr(v);
  }
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(", ")}]`;
  return `{${Object.keys(v)
    .map((k) => `${reprString(k)}: ${pyRepr(v[k] as PyValue)}`)
    .join(", ")}}`;
}

/** Python `str()` (what an f-string interpolates). */
export const pyStr = (v: PyValue): string => (typeof v === "string" ? v : pyRepr(v));

function reprString(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    if (ch === quote || ch === "\\") out += `\\${ch}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, "0")}`;
    else out += ch;
  }
  return out + quote;
}

/** A bound argument (keyword binding guarantees every declared parameter is present). */
export const arg = (args: Args, name: string): PyValue => args[name] as PyValue;
