/**
 * Small pydantic models built from lax field coercions, for the objects tau2's tools construct at
 * call time (`Payment(...)`, `Passenger(**d)`, `UserAddress(...)`): what gets stored, or the
 * ValidationError tau2 reports.
 */
import { PyException as ToolError } from "./errors.ts";
import type { Coerced } from "./lax.ts";
import { type PydanticIssue, validationErrorText } from "./pydantic-errors.ts";
import { isPyDict, type PyDict, type PyValue, setKey } from "./value.ts";

type Loc = readonly (string | number)[];
/** Validates a value at `loc`, recording issues; the result is only used when no issue was recorded. */
export type Validator = (v: PyValue, loc: Loc, issues: PydanticIssue[]) => PyValue;

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

/** Constructs a model like `Model(**data)`: the validated dict, or a ValidationError. */
export function construct(title: string, validator: Validator, data: PyDict): PyDict {
  const issues: PydanticIssue[] = [];
  const out = validator(data, [], issues);
  if (issues.length > 0) throw new ToolError(validationErrorText(title, issues));
  return out as PyDict;
}
