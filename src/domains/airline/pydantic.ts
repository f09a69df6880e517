/**
 * pydantic v2 lax-mode validation of the objects tau2's airline tools construct (`Payment(...)`,
 * `Passenger(**d)`, `Certificate(...)`, `Reservation(...)`): the coercions that decide what gets
 * stored (spec §5.3) and ValidationError texts in pydantic's layout. The texts are best effort:
 * tau2's own embed the pydantic version and only matter for strict replay (spec §9 item 20).
 */
import { isPyDict, type PyDict, PyFloat, type PyValue, pyTypeName, setKey } from "../../formats/py/value.ts";
import { ToolError } from "../toolkit.ts";
import { pyRepr, pyStrRepr } from "./python.ts";

const PYDANTIC_DOCS_VERSION = "2.11";

export interface Issue {
  readonly loc: readonly (string | number)[];
  readonly type: string;
  readonly msg: string;
  readonly input: PyValue;
}

/** A scalar coercion: the coerced value, or the pydantic error type and message. */
export type Coerced = { ok: true; value: PyValue } | { ok: false; type: string; msg: string };

const fail = (type: string, msg: string): Coerced => ({ ok: false, type, msg });

/** `str` field: lax mode still rejects numbers and bools. */
export function coerceStr(v: PyValue): Coerced {
  return typeof v === "string"
    ? { ok: true, value: v }
    : fail("string_type", "Input should be a valid string");
}

const INT_TEXT = /^[+-]?\d+(\.0*)?$/;

/** `int` field: integral floats, bools and integer strings are converted; fractions are rejected. */
export function coerceInt(v: PyValue): Coerced {
  if (typeof v === "number" || typeof v === "bigint") return { ok: true, value: v };
  if (typeof v === "boolean") return { ok: true, value: v ? 1 : 0 };
  if (v instanceof PyFloat) {
    if (!Number.isFinite(v.v)) return fail("finite_number", "Input should be a finite number");
    return Number.isInteger(v.v)
      ? { ok: true, value: v.v === 0 ? 0 : v.v }
      : fail("int_from_float", "Input should be a valid integer, got a number with a fractional part");
  }
  if (typeof v === "string") {
    const t = v.trim();
    if (!INT_TEXT.test(t)) {
      return fail("int_parsing", "Input should be a valid integer, unable to parse string as an integer");
    }
    const digits = t.split(".")[0] as string;
    const n = Number(digits);
    return { ok: true, value: Number.isSafeInteger(n) ? (n === 0 ? 0 : n) : BigInt(digits) };
  }
  return fail("int_type", "Input should be a valid integer");
}

const FLOAT_TEXT = /^[+-]?(\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?|inf(inity)?|nan)$/i;

/** `float` field: ints, bools and numeric strings become floats. */
export function coerceFloat(v: PyValue): Coerced {
  if (v instanceof PyFloat) return { ok: true, value: v };
  if (typeof v === "number" || typeof v === "bigint") return { ok: true, value: new PyFloat(Number(v)) };
  if (typeof v === "boolean") return { ok: true, value: new PyFloat(v ? 1 : 0) };
  if (typeof v === "string") {
    const t = v.trim();
    if (!FLOAT_TEXT.test(t)) {
      return fail("float_parsing", "Input should be a valid number, unable to parse string as a number");
    }
    const lower = t.toLowerCase().replace(/^\+/, "");
    const sign = lower.startsWith("-") ? -1 : 1;
    const body = lower.replace(/^-/, "");
    const x = body.startsWith("inf")
      ? sign * Number.POSITIVE_INFINITY
      : body === "nan"
        ? Number.NaN
        : Number(t);
    return { ok: true, value: new PyFloat(x) };
  }
  return fail("float_type", "Input should be a valid number");
}

/** `Literal[...]` of strings. */
export function coerceLiteral(allowed: readonly string[]): (v: PyValue) => Coerced {
  const quoted = allowed.map(pyStrRepr);
  const expected =
    quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(", ")} or ${quoted[quoted.length - 1]}`;
  return (v) =>
    typeof v === "string" && allowed.includes(v)
      ? { ok: true, value: v }
      : fail("literal_error", `Input should be ${expected}`);
}

// ---- models ----

type Loc = readonly (string | number)[];
/** Validates a value at `loc`, recording issues; the result is only used when no issue was recorded. */
export type Validator = (v: PyValue, loc: Loc, issues: Issue[]) => PyValue;

export const scalar =
  (coerce: (v: PyValue) => Coerced): Validator =>
  (v, loc, issues) => {
    const r = coerce(v);
    if (r.ok) return r.value;
    issues.push({ loc, type: r.type, msg: r.msg, input: v });
    return null;
  };

export const nullable =
  (inner: Validator): Validator =>
  (v, loc, issues) =>
    v === null ? null : inner(v, loc, issues);

export const listOf =
  (item: Validator): Validator =>
  (v, loc, issues) => {
    if (!Array.isArray(v)) {
      issues.push({ loc, type: "list_type", msg: "Input should be a valid list", input: v });
      return null;
    }
    return v.map((x, i) => item(x, [...loc, i], issues));
  };

export interface FieldSpec {
  readonly name: string;
  readonly check: Validator;
  /** Present when the field is optional (the default is stored when absent). */
  readonly default?: PyValue;
}

/** A pydantic model: fields in declaration order (the dump order), unknown keys ignored. */
export function modelOf(className: string, fields: readonly FieldSpec[]): Validator {
  return (v, loc, issues) => {
    if (!isPyDict(v)) {
      issues.push({
        loc,
        type: "model_type",
        msg: `Input should be a valid dictionary or instance of ${className}`,
        input: v,
      });
      return null;
    }
    const out: PyDict = {};
    for (const f of fields) {
      if (Object.hasOwn(v, f.name))
        setKey(out, f.name, f.check(v[f.name] as PyValue, [...loc, f.name], issues));
      else if ("default" in f) setKey(out, f.name, f.default as PyValue);
      else issues.push({ loc: [...loc, f.name], type: "missing", msg: "Field required", input: v });
    }
    return out;
  };
}

/** `str(ValidationError)` in pydantic v2's layout. */
export function validationErrorText(title: string, issues: readonly Issue[]): string {
  const n = issues.length;
  const lines = [`${n} validation error${n === 1 ? "" : "s"} for ${title}`];
  for (const i of issues) {
    lines.push(i.loc.join("."));
    lines.push(
      `  ${i.msg} [type=${i.type}, input_value=${pyRepr(i.input)}, input_type=${pyTypeName(i.input)}]`,
    );
    lines.push(
      `    For further information visit https://errors.pydantic.dev/${PYDANTIC_DOCS_VERSION}/v/${i.type}`,
    );
  }
  return lines.join("\n");
}

/** Constructs a model like `Model(**data)`: the validated dict, or a ValidationError. */
export function construct(title: string, validator: Validator, data: PyDict): PyDict {
  const issues: Issue[] = [];
  const out = validator(data, [], issues);
  if (issues.length > 0) throw new ToolError(validationErrorText(title, issues));
  return out as PyDict;
}
