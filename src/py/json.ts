/**
 * Python-exact `json.dumps`: separators ", " and ": ", ensure_ascii escaping, Python float repr,
 * and (for `sortKeys`) keys in Unicode code-point order. The DB hash is sha256 of the sorted form.
 */
import { hash } from "node:crypto";
import { floatRepr } from "./number.ts";
import { type PyDict, PyFloat, type PyValue } from "./value.ts";

// biome-ignore lint/suspicious/noControlCharactersInRegex: the escape set is exactly the control range
const NEEDS_ESCAPE = /[\u0000-\u001f"\\\u007f-\uffff]/;
const SHORT: Record<string, string> = {
  '"': '\\"',
  "\\": "\\\\",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
  "\b": "\\b",
  "\f": "\\f",
};

/** A JSON string literal with Python's `ensure_ascii=True` escaping (lowercase hex, surrogate pairs). */
export function pyJsonString(s: string): string {
  if (!NEEDS_ESCAPE.test(s)) return `"${s}"`;
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i] as string;
    const code = s.charCodeAt(i);
    if (code >= 0x20 && code <= 0x7e && ch !== '"' && ch !== "\\") out += ch;
    else out += SHORT[ch] ?? `\\u${code.toString(16).padStart(4, "0")}`;
  }
  return `${out}"`;
}

/** Python float token inside JSON: `NaN`/`Infinity` spellings, otherwise repr. */
function jsonFloat(x: number): string {
  if (Number.isNaN(x)) return "NaN";
  if (x === Number.POSITIVE_INFINITY) return "Infinity";
  if (x === Number.NEGATIVE_INFINITY) return "-Infinity";
  return floatRepr(x);
}

const hasSurrogate = (s: string) => /[\ud800-\udfff]/.test(s);

/** Python's `sorted()` over str: code-point order (differs from UTF-16 order only with astral chars). */
export function compareCodePoints(a: string, b: string): number {
  if (!hasSurrogate(a) && !hasSurrogate(b)) return a < b ? -1 : a > b ? 1 : 0;
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done || y.done) return x.done ? (y.done ? 0 : -1) : 1;
    const cx = x.value.codePointAt(0) as number;
    const cy = y.value.codePointAt(0) as number;
    if (cx !== cy) return cx - cy;
  }
}

export const sortedKeys = (d: PyDict): string[] => Object.keys(d).sort(compareCodePoints);

/** Streams the Python `json.dumps` text of `v` in chunks to `emit`. */
export function writePyJson(v: PyValue, sortKeys: boolean, emit: (chunk: string) => void): void {
  emit(pyJsonText(v, sortKeys, emit));
}

/** Emits containers piecewise and returns the text of a scalar (so callers emit it once). */
function pyJsonText(v: PyValue, sortKeys: boolean, emit: (chunk: string) => void): string {
  if (v === null) return "null";
  switch (typeof v) {
    case "boolean":
      return v ? "true" : "false";
    case "number":
      if (!Number.isInteger(v))
        throw new TypeError(`non-integral number ${v} where a Python int is expected`);
      return Object.is(v, -0) ? "0" : String(v);
    case "bigint":
      return v.toString();
    case "string":
      return pyJsonString(v);
  }
  if (v instanceof PyFloat) return jsonFloat(v.v);
  if (Array.isArray(v)) {
    emit("[");
    for (let i = 0; i < v.length; i++) {
      if (i > 0) emit(", ");
      writePyJson(v[i] as PyValue, sortKeys, emit);
    }
    return "]";
  }
  const keys = sortKeys ? sortedKeys(v) : Object.keys(v);
  emit("{");
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i] as string;
    emit(i > 0 ? `, ${pyJsonString(k)}: ` : `${pyJsonString(k)}: `);
    writePyJson(v[k] as PyValue, sortKeys, emit);
  }
  return "}";
}

/** Python `json.dumps(v, sort_keys=sortKeys)`. */
export function pyDumps(v: PyValue, sortKeys = false): string {
  const parts: string[] = [];
  writePyJson(v, sortKeys, (c) => parts.push(c));
  return parts.join("");
}

/** `json.dumps(v, sort_keys=True)`: the canonical text tau2 hashes. */
export const canonicalJson = (v: PyValue): string => pyDumps(v, true);

/**
 * Lowercase hex sha256 of a string's UTF-8 bytes (canonical text is pure ASCII). The one-shot `hash`
 * (Node ≥ 20.12) costs a tenth of `createHash`'s on a short text: it keys every simulation.
 */
export const sha256Hex = (s: string): string => hash("sha256", s, "hex");
