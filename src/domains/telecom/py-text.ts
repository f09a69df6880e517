/**
 * Python text conversions that telecom result and error texts embed: `str()`/`repr()` of any value
 * (f-strings call `str()`), truthiness, and the texts of the TypeError/AttributeError that tau2's
 * untyped tool code raises when an argument has an unexpected type.
 */
import { floatRepr } from "../../formats/py/number.ts";
import { type PyDict, PyFloat, type PyValue, pyTypeName } from "../../formats/py/value.ts";
import { ToolError } from "../toolkit.ts";

/** Python `repr(str)`: single quotes unless the text has a `'` and no `"`. */
function reprString(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    if (ch === "\\") out += "\\\\";
    else if (ch === quote) out += `\\${quote}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (cp < 0x20 || (cp >= 0x7f && cp <= 0xa0) || cp === 0xad)
      out += `\\x${cp.toString(16).padStart(2, "0")}`;
    else out += ch;
  }
  return out + quote;
}

/** Python `repr()` of a JSON-like value (dicts and lists print their items with `repr`). */
export function pyRepr(v: PyValue | undefined): string {
  if (v === null || v === undefined) return "None";
  if (typeof v === "boolean") return v ? "True" : "False";
  if (typeof v === "number" || typeof v === "bigint") return v.toString();
  if (v instanceof PyFloat) return floatRepr(v.v);
  if (typeof v === "string") return reprString(v);
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(", ")}]`;
  return `{${Object.keys(v)
    .map((k) => `${reprString(k)}: ${pyRepr((v as PyDict)[k])}`)
    .join(", ")}}`;
}

/** Python `str()`: a string is itself, anything else its `repr`. */
export const pyStr = (v: PyValue | undefined): string => (typeof v === "string" ? v : pyRepr(v));

/** Python truthiness. */
export function pyTruthy(v: PyValue | undefined): boolean {
  if (v === null || v === undefined) return false;
  if (typeof v === "boolean") return v;
  if (typeof v === "number") return v !== 0;
  if (typeof v === "bigint") return v !== 0n;
  if (v instanceof PyFloat) return v.v !== 0;
  if (typeof v === "string") return v.length > 0;
  if (Array.isArray(v)) return v.length > 0;
  return Object.keys(v).length > 0;
}

/** Python's `AttributeError` text for an attribute read on a value of the wrong type. */
export const attributeError = (v: PyValue | undefined, attr: string): ToolError =>
  new ToolError(`'${pyTypeName(v)}' object has no attribute '${attr}'`);

/** Python's `TypeError` text for an ordering comparison between unsupported types. */
export const compareError = (op: string, a: PyValue | undefined, b: PyValue | undefined): ToolError =>
  new ToolError(`'${op}' not supported between instances of '${pyTypeName(a)}' and '${pyTypeName(b)}'`);

/** `s.lower()`, raising Python's AttributeError for a non-string. */
export function pyLower(v: PyValue | undefined): string {
  if (typeof v !== "string") throw attributeError(v, "lower");
  return v.toLowerCase();
}

/** True for values usable as a dict key in Python (lists and dicts are unhashable). */
export function requireHashable(v: PyValue | undefined): void {
  if (Array.isArray(v) || (v !== null && typeof v === "object" && !(v instanceof PyFloat))) {
    throw new ToolError(`unhashable type: '${pyTypeName(v)}'`);
  }
}

/** `member.value` of a str-Enum stored as its value; any other stored value has no `.value`. */
export function enumValue(v: PyValue | undefined): string {
  if (typeof v !== "string") throw attributeError(v, "value");
  return v;
}
