/**
 * Zod field types that reproduce pydantic's lax-mode coercion for the telecom models, producing the
 * Python-typed value tau2 would hash: floats as `PyFloat`, ints as plain numbers, dates and datetimes
 * as the text `json.dumps(default=str)` gives them, enums as their string values. Failures carry
 * pydantic's error type and message (see `pydantic-errors.ts`).
 */
import { z } from "zod";
import { PyFloat } from "../../formats/py/value.ts";

type Ctx = z.core.$RefinementCtx<unknown>;

/** Reports a pydantic error; `type` is pydantic's error type, shown in the ValidationError text. */
function fail(ctx: Ctx, type: string, message: string, input: unknown): never {
  ctx.addIssue({ code: "custom", message, params: { type }, input });
  return z.NEVER as never;
}

const NUMBER_TEXT = /^[+-]?(\d[\d_]*(\.[\d_]*)?|\.\d[\d_]*)([eE][+-]?\d+)?$|^[+-]?(inf|infinity|nan)$/i;

function parseFloatText(text: string): number {
  const t = text.trim().replaceAll("_", "").toLowerCase();
  if (t.includes("nan")) return Number.NaN;
  if (t.includes("inf")) return t.startsWith("-") ? -Infinity : Infinity;
  return Number(t);
}

/** A Python float field: ints, bools and numeric strings become floats. */
export const pyFloatField = z.unknown().transform((v, ctx): PyFloat => {
  if (v instanceof PyFloat) return v;
  if (typeof v === "number") return new PyFloat(v);
  if (typeof v === "bigint") return new PyFloat(Number(v));
  if (typeof v === "boolean") return new PyFloat(v ? 1 : 0);
  if (typeof v === "string") {
    if (NUMBER_TEXT.test(v.trim())) return new PyFloat(parseFloatText(v));
    return fail(
      ctx,
      "float_parsing",
      "Input should be a valid number, unable to parse string as a number",
      v,
    );
  }
  return fail(ctx, "float_type", "Input should be a valid number", v);
});

/** A Python int field: integral floats, bools and integer strings become ints. */
export const pyIntField = z.unknown().transform((v, ctx): number => {
  if (typeof v === "number" && Number.isInteger(v)) return v;
  if (v instanceof PyFloat && Number.isInteger(v.v)) return v.v;
  if (typeof v === "bigint") return Number(v);
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "string") {
    if (/^\s*[+-]?\d+\s*$/.test(v)) return Number(v.trim());
    return fail(
      ctx,
      "int_parsing",
      "Input should be a valid integer, unable to parse string as an integer",
      v,
    );
  }
  if (typeof v === "number" || v instanceof PyFloat) {
    return fail(
      ctx,
      "int_from_float",
      "Input should be a valid integer, got a number with a fractional part",
      v,
    );
  }
  return fail(ctx, "int_type", "Input should be a valid integer", v);
});

const TRUE_TEXTS = new Set(["1", "on", "t", "true", "y", "yes"]);
const FALSE_TEXTS = new Set(["0", "off", "f", "false", "n", "no"]);

/** A Python bool field: 0/1 and pydantic's yes/no words are accepted. */
export const pyBoolField = z.unknown().transform((v, ctx): boolean => {
  if (typeof v === "boolean") return v;
  const n = typeof v === "number" ? v : v instanceof PyFloat ? v.v : undefined;
  if (n === 0 || n === 1) return n === 1;
  if (typeof v === "string") {
    const t = v.trim().toLowerCase();
    if (TRUE_TEXTS.has(t)) return true;
    if (FALSE_TEXTS.has(t)) return false;
    return fail(ctx, "bool_parsing", "Input should be a valid boolean, unable to interpret input", v);
  }
  return fail(ctx, "bool_type", "Input should be a valid boolean", v);
});

/** A `str`-based Enum field, stored as its value. */
export const pyEnumField = <const T extends readonly [string, ...string[]]>(values: T) => z.enum(values);

const DATETIME_RE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6})\d*)?)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

const daysIn = (y: number, m: number): number => new Date(Date.UTC(y, m, 0)).getUTCDate();
const validDay = (y: number, m: number, d: number): boolean =>
  m >= 1 && m <= 12 && d >= 1 && d <= daysIn(y, m);
const validTime = (hh = "0", mm = "0", ss = "0"): boolean =>
  Number(hh) <= 23 && Number(mm) <= 59 && Number(ss) <= 59;

/** smol-toml yields `TomlDate` (a `Date`) for unquoted TOML dates; its `toISOString` is the TOML text. */
const dateText = (v: unknown): unknown => (v instanceof Date ? v.toISOString() : v);

/** A `datetime.date` field: rendered `YYYY-MM-DD`. A datetime text is accepted when its time is zero. */
export const pyDateField = z.unknown().transform((raw, ctx): string => {
  const v = dateText(raw);
  if (typeof v !== "string") return fail(ctx, "date_type", "Input should be a valid date", raw);
  const m = DATETIME_RE.exec(v.trim());
  if (!m || !validDay(Number(m[1]), Number(m[2]), Number(m[3])) || !validTime(m[4], m[5], m[6])) {
    return fail(
      ctx,
      "date_from_datetime_parsing",
      "Input should be a valid date or datetime, invalid character",
      raw,
    );
  }
  const [, y, mo, d, hh, mm, ss, frac] = m;
  if (![hh, mm, ss, frac].every((p) => p === undefined || Number(p) === 0)) {
    return fail(ctx, "date_from_datetime_inexact", "Datetimes provided to dates should have zero time", raw);
  }
  return `${y}-${mo}-${d}`;
});

/** Python `str(datetime)`: a space separator, `.ffffff` only when microseconds are non-zero. */
function renderDatetime(m: RegExpExecArray): string {
  const [, y, mo, d, hh = "00", mm = "00", ss = "00", frac, tz] = m;
  const micro = frac === undefined ? "" : frac.padEnd(6, "0");
  let out = `${y}-${mo}-${d} ${hh}:${mm}:${ss}`;
  if (micro !== "" && Number(micro) !== 0) out += `.${micro}`;
  if (tz !== undefined) {
    if (tz.toUpperCase() === "Z") out += "+00:00";
    else out += tz.includes(":") ? tz : `${tz.slice(0, 3)}:${tz.slice(3)}`;
  }
  return out;
}

/** A `datetime.datetime` field: rendered `YYYY-MM-DD HH:MM:SS[.ffffff][+HH:MM]`; a bare date is midnight. */
export const pyDatetimeField = z.unknown().transform((raw, ctx): string => {
  const v = dateText(raw);
  if (typeof v !== "string") return fail(ctx, "datetime_type", "Input should be a valid datetime", raw);
  const m = DATETIME_RE.exec(v.trim());
  if (!m || !validDay(Number(m[1]), Number(m[2]), Number(m[3])) || !validTime(m[4], m[5], m[6])) {
    return fail(
      ctx,
      "datetime_from_date_parsing",
      "Input should be a valid datetime or date, invalid character",
      raw,
    );
  }
  return renderDatetime(m);
});

/** `Optional[X] = None`: null when absent or given as null. */
export const optional = <T extends z.ZodType>(t: T) => t.nullable().default(null);
