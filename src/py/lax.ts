/**
 * pydantic v2 lax-mode coercion of one field value: the Python-typed value tau2 would store (floats
 * as `PyFloat`, dates as the text `json.dumps(default=str)` gives them) or pydantic's error type and
 * message. Checked against pydantic 2.13 (`test/py/lax.test.ts`).
 */
import { pyReprString } from "./builtins.ts";
import { PyFloat, type PyValue } from "./value.ts";

export type Coerced = { ok: true; value: PyValue } | { ok: false; type: string; msg: string };

const ok = (value: PyValue): Coerced => ({ ok: true, value });
const fail = (type: string, msg: string): Coerced => ({ ok: false, type, msg });

/** pydantic-core trims Unicode White_Space (not U+FEFF, which JS `trim` also removes). */
const trimmed = (s: string): string => s.replace(/^\p{White_Space}+|\p{White_Space}+$/gu, "");
/** Python ints are plain numbers while exact in a double, bigints beyond. */
const intOf = (digits: string): number | bigint => {
  const n = Number(digits);
  return Number.isSafeInteger(n) ? n + 0 : BigInt(digits);
};
const I64_LIMIT = 2 ** 63;

/** `str` field: lax mode still rejects numbers and bools. */
export const coerceStr = (v: unknown): Coerced =>
  typeof v === "string" ? ok(v) : fail("string_type", "Input should be a valid string");

const INT_TEXT = /^[+-]?\d(_?\d)*(\.0+)?$/;

/** `int` field: integral floats, bools and integer strings (`1_000`, `2.00`) are converted. */
export function coerceInt(v: unknown): Coerced {
  if (typeof v === "number" || typeof v === "bigint") return ok(v);
  if (typeof v === "boolean") return ok(v ? 1 : 0);
  if (v instanceof PyFloat) {
    const x = v.v;
    if (!Number.isFinite(x)) return fail("finite_number", "Input should be a finite number");
    if (!Number.isInteger(x)) {
      return fail("int_from_float", "Input should be a valid integer, got a number with a fractional part");
    }
    if (Math.abs(x) >= I64_LIMIT) {
      return fail("int_parsing_size", "Unable to parse input string as an integer, exceeded maximum size");
    }
    return ok(Number.isSafeInteger(x) ? x + 0 : BigInt(x));
  }
  if (typeof v === "string") {
    const t = trimmed(v);
    if (!INT_TEXT.test(t)) {
      return fail("int_parsing", "Input should be a valid integer, unable to parse string as an integer");
    }
    return ok(intOf((t.split(".")[0] as string).replaceAll("_", "")));
  }
  return fail("int_type", "Input should be a valid integer");
}

const FLOAT_TEXT = /^[+-]?((\d+\.?\d*|\.\d+)([eE][+-]?\d+)?|inf|infinity|nan)$/i;

/** `float` field: ints, bools and numeric strings become floats. */
export function coerceFloat(v: unknown): Coerced {
  if (v instanceof PyFloat) return ok(v);
  if (typeof v === "number" || typeof v === "bigint") return ok(new PyFloat(Number(v)));
  if (typeof v === "boolean") return ok(new PyFloat(v ? 1 : 0));
  if (typeof v === "string") {
    const t = trimmed(v);
    // Single underscores between characters are dropped; leading, trailing or doubled ones fail.
    const text = /^_|_$|__/.test(t) ? "" : t.replaceAll("_", "");
    if (!FLOAT_TEXT.test(text)) {
      return fail("float_parsing", "Input should be a valid number, unable to parse string as a number");
    }
    const lower = text.toLowerCase();
    const negative = lower.startsWith("-");
    if (lower.endsWith("nan")) return ok(new PyFloat(Number.NaN));
    if (lower.endsWith("inf") || lower.endsWith("infinity")) {
      return ok(new PyFloat(negative ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY));
    }
    return ok(new PyFloat(Number(text)));
  }
  return fail("float_type", "Input should be a valid number");
}

const TRUE_TEXTS = new Set(["1", "on", "t", "true", "y", "yes"]);
const FALSE_TEXTS = new Set(["0", "off", "f", "false", "n", "no"]);

/** The integer an int or integral float stands for, when it fits pydantic-core's i64. */
function smallInt(v: unknown): number | null {
  if (typeof v === "number") return v;
  if (typeof v === "bigint") return BigInt.asIntN(64, v) === v ? Number(v) : null;
  if (v instanceof PyFloat) return Number.isInteger(v.v) && Math.abs(v.v) < I64_LIMIT ? v.v : null;
  return null;
}

/** `bool` field: 0/1 (int or integral float) and pydantic's yes/no words, untrimmed. */
export function coerceBool(v: unknown): Coerced {
  if (typeof v === "boolean") return ok(v);
  const parsingError = fail("bool_parsing", "Input should be a valid boolean, unable to interpret input");
  if (typeof v === "string") {
    const t = v.toLowerCase();
    return TRUE_TEXTS.has(t) ? ok(true) : FALSE_TEXTS.has(t) ? ok(false) : parsingError;
  }
  const n = smallInt(v);
  if (n === null) return fail("bool_type", "Input should be a valid boolean");
  return n === 0 || n === 1 ? ok(n === 1) : parsingError;
}

/** `Literal[...]` of strings. */
export function coerceLiteral(allowed: readonly string[]): (v: unknown) => Coerced {
  const quoted = allowed.map(pyReprString);
  const expected =
    quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(", ")} or ${quoted[quoted.length - 1]}`;
  return (v) =>
    typeof v === "string" && allowed.includes(v)
      ? ok(v)
      : fail("literal_error", `Input should be ${expected}`);
}
