/**
 * pydantic models written as zod schemas: lax field types producing Python-typed values, and zod
 * issues reported as pydantic's ValidationError.
 */
import { z } from "../util/zod.ts";
import { pyRepr } from "./builtins.ts";
import { PyException as ToolError } from "./errors.ts";
import { type Coerced, coerceBool, coerceFloat, coerceInt, coerceStr } from "./lax.ts";
import { coerceDate, coerceDatetime } from "./lax-dates.ts";
import { type PydanticIssue, validationErrorText } from "./pydantic-errors.ts";
import { type PyDict, PyFloat, type PyValue } from "./value.ts";

/** Plain JSON numbers carry no int/float tag; a non-integral one can only be a float. */
const asPy = (v: unknown): unknown => (typeof v === "number" && !Number.isInteger(v) ? new PyFloat(v) : v);

/** A field validated by a lax coercion; a failure keeps pydantic's error type for the error text. */
export const laxField = <T extends PyValue>(coerce: (v: unknown) => Coerced) =>
  z.unknown().transform((v, ctx): T => {
    const py = asPy(v);
    const r = coerce(py);
    if (r.ok) return r.value as T;
    ctx.addIssue({ code: "custom", message: r.msg, params: { type: r.type }, input: py });
    return z.NEVER;
  });

export const pyStrField = laxField<string>(coerceStr);
export const pyIntField = laxField<number>(coerceInt);
export const pyFloatField = laxField<PyFloat>(coerceFloat);
export const pyBoolField = laxField<boolean>(coerceBool);
export const pyDateField = laxField<string>(coerceDate);
export const pyDatetimeField = laxField<string>(coerceDatetime);

/** A `str`-based Enum field, stored as its value. */
export const pyEnumField = <const T extends readonly [string, ...string[]]>(values: T) => z.enum(values);

/** `Optional[X] = None`: null when absent or given as null. */
export const optional = <T extends z.ZodType>(t: T) => t.nullable().default(null);

/** Python `' or '`-joined choices: `'a', 'b' or 'c'`. */
function choices(values: readonly unknown[]): string {
  const q = values.map((v) => pyRepr(v as PyValue));
  return q.length <= 1 ? (q[0] ?? "") : `${q.slice(0, -1).join(", ")} or ${q[q.length - 1]}`;
}

const valueAt = (root: unknown, path: readonly PropertyKey[]): PyValue | undefined => {
  let cur = root;
  for (const k of path)
    cur = cur !== null && typeof cur === "object" ? (cur as Record<PropertyKey, unknown>)[k] : undefined;
  return cur as PyValue | undefined;
};

function toPydantic(issue: z.core.$ZodIssue, root: unknown): PydanticIssue[] {
  const loc = issue.path.map(String);
  const input = ("input" in issue ? issue.input : valueAt(root, issue.path)) as PyValue | undefined;
  const one = (type: string, msg: string, at = input): PydanticIssue[] => [{ loc, type, msg, input: at }];
  switch (issue.code) {
    case "unrecognized_keys": {
      const parent = valueAt(root, issue.path) as PyDict;
      return issue.keys.map((k) => ({
        loc: [...loc, k],
        type: "extra_forbidden",
        msg: "Extra inputs are not permitted",
        input: parent[k],
      }));
    }
    case "invalid_type":
      if (input === undefined)
        return one("missing", "Field required", valueAt(root, issue.path.slice(0, -1)));
      if (issue.expected === "string") return one("string_type", "Input should be a valid string");
      if (issue.expected === "array") return one("list_type", "Input should be a valid list");
      return one("model_type", "Input should be a valid dictionary or object to extract fields from");
    case "invalid_value":
      return one("enum", `Input should be ${choices(issue.values)}`);
    case "custom":
      return one(String(issue.params?.type ?? "value_error"), issue.message);
    default:
      return one("value_error", issue.message);
  }
}

/** pydantic's `str(ValidationError)` for zod's rejection of `input`. */
export const zodValidationErrorText = (modelName: string, error: z.ZodError, input: unknown): string =>
  validationErrorText(
    modelName,
    error.issues.flatMap((i) => toPydantic(i, input)),
  );

/** `Model(**input)`: the validated Python value, or a ToolError with pydantic's text. */
export function constructWithSchema(schema: z.ZodType, modelName: string, input: unknown): PyDict {
  const r = schema.safeParse(input, { reportInput: true });
  if (!r.success) throw new ToolError(zodValidationErrorText(modelName, r.error, input));
  return r.data as PyDict;
}
