/**
 * Python semantics the airline tools depend on when the agent passes arguments of unexpected types:
 * `str()`/`repr()` texts, dict membership (unhashable keys raise), iteration, `len()`, and the
 * TypeError texts of mixed-type arithmetic. Tool arguments reach tau2's tools unvalidated (spec §6.0).
 */
import { floatRepr, pyNumStr } from "../../formats/py/number.ts";
import { isPyDict, PyFloat, type PyValue, pyTypeName } from "../../formats/py/value.ts";
import { ToolError } from "../toolkit.ts";

/** Python `repr()` of a string: single quotes unless the text has `'` and no `"`. */
export function pyStrRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    if (ch === quote || ch === "\\") out += `\\${ch}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, "0")}`;
    else out += ch;
  }
  return out + quote;
}

/** Python `repr()` of a JSON-like value. */
export function pyRepr(v: PyValue): string {
  if (v === null) return "None";
  if (typeof v === "string") return pyStrRepr(v);
  if (v instanceof PyFloat) return floatRepr(v.v);
  if (typeof v === "number" || typeof v === "bigint" || typeof v === "boolean") return pyNumStr(v);
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(", ")}]`;
  return `{${Object.keys(v)
    .map((k) => `${pyStrRepr(k)}: ${pyRepr(v[k] as PyValue)}`)
    .join(", ")}}`;
}

/** Python `str()`: a string is itself, everything else its repr. */
export const pyStr = (v: PyValue): string => (typeof v === "string" ? v : pyRepr(v));

/** Python TypeError for using a list/dict as a dict key. */
function assertHashable(v: PyValue): void {
  if (Array.isArray(v) || isPyDict(v)) throw new ToolError(`unhashable type: '${pyTypeName(v)}'`);
}

/**
 * Python `key in d` where `d` has string keys: only a string can match; an unhashable key raises.
 * `has` answers membership for a string key.
 */
export function pyKeyIn(key: PyValue, has: (k: string) => boolean): key is string {
  assertHashable(key);
  return typeof key === "string" && has(key);
}

/** `d[key]` on a dict whose lookup failed: Python's KeyError text is the key's repr. */
export function keyError(key: PyValue): ToolError {
  assertHashable(key);
  return new ToolError(pyRepr(key));
}

/** The items Python's `for x in v` visits (str → characters, dict → keys). */
export function pyIter(v: PyValue): PyValue[] {
  if (Array.isArray(v)) return v;
  if (typeof v === "string") return [...v];
  if (isPyDict(v)) return Object.keys(v);
  throw new ToolError(`'${pyTypeName(v)}' object is not iterable`);
}

/** Python `len(v)`. */
export function pyLen(v: PyValue): number {
  if (Array.isArray(v)) return v.length;
  if (typeof v === "string") return [...v].length;
  if (isPyDict(v)) return Object.keys(v).length;
  throw new ToolError(`object of type '${pyTypeName(v)}' has no len()`);
}

/** Python's TypeError text for a binary operator applied to unsupported operand types. */
export const operandTypeError = (op: string, a: PyValue, b: PyValue): ToolError =>
  new ToolError(`unsupported operand type(s) for ${op}: '${pyTypeName(a)}' and '${pyTypeName(b)}'`);

/** `getattr(obj, name)` on a value that is not a model: Python's AttributeError text. */
export const attributeError = (v: PyValue, name: string): ToolError =>
  new ToolError(`'${pyTypeName(v)}' object has no attribute '${name}'`);
