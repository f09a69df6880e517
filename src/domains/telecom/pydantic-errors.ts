/**
 * Validation of objects tau2 constructs (`Bill(...)`, `APNSettings(**d)`, ...) with pydantic's
 * ValidationError text, which tau2 puts in the tool result (`Error: <str(exc)>`). The text embeds the
 * pydantic version of the oracle (2.13); only strict replay compares error texts.
 */
import type { z } from "zod";
import { type PyDict, PyFloat, type PyValue, pyTypeName } from "../../formats/py/value.ts";
import { ToolError } from "../toolkit.ts";
import { pyRepr } from "./py-text.ts";

const PYDANTIC_VERSION = "2.13";

/** Python `' or '`-joined choices: `'a', 'b' or 'c'`. */
function choices(values: readonly unknown[]): string {
  const q = values.map((v) => pyRepr(v as PyValue));
  return q.length <= 1 ? (q[0] ?? "") : `${q.slice(0, -1).join(", ")} or ${q[q.length - 1]}`;
}

const valueAt = (root: unknown, path: readonly PropertyKey[]): unknown => {
  let cur = root;
  for (const k of path)
    cur = cur !== null && typeof cur === "object" ? (cur as Record<PropertyKey, unknown>)[k] : undefined;
  return cur;
};

interface PydanticError {
  loc: string;
  type: string;
  msg: string;
  input: unknown;
}

function toPydantic(issue: z.core.$ZodIssue, root: unknown): PydanticError[] {
  const loc = issue.path.map(String);
  const at = (extra: string[] = []): string => [...loc, ...extra].join(".");
  const input = "input" in issue ? issue.input : valueAt(root, issue.path);
  switch (issue.code) {
    case "unrecognized_keys": {
      const parent = valueAt(root, issue.path) as Record<string, unknown>;
      return issue.keys.map((k) => ({
        loc: at([k]),
        type: "extra_forbidden",
        msg: "Extra inputs are not permitted",
        input: parent[k],
      }));
    }
    case "invalid_type":
      if (input === undefined) {
        return [
          {
            loc: at(),
            type: "missing",
            msg: "Field required",
            input: valueAt(root, issue.path.slice(0, -1)),
          },
        ];
      }
      if (issue.expected === "string")
        return [{ loc: at(), type: "string_type", msg: "Input should be a valid string", input }];
      if (issue.expected === "array")
        return [{ loc: at(), type: "list_type", msg: "Input should be a valid list", input }];
      return [
        {
          loc: at(),
          type: "model_type",
          msg: "Input should be a valid dictionary or object to extract fields from",
          input,
        },
      ];
    case "invalid_value":
      return [{ loc: at(), type: "enum", msg: `Input should be ${choices(issue.values)}`, input }];
    case "custom":
      return [{ loc: at(), type: String(issue.params?.type ?? "value_error"), msg: issue.message, input }];
    default:
      return [{ loc: at(), type: "value_error", msg: issue.message, input }];
  }
}

const pyInputRepr = (v: unknown): string => pyRepr(v === undefined ? null : (v as PyValue));
const pyInputType = (v: unknown): string =>
  v instanceof PyFloat || typeof v !== "object" || v === null
    ? pyTypeName(v as PyValue)
    : Array.isArray(v)
      ? "list"
      : "dict";

/** pydantic's `str(ValidationError)`. */
export function validationErrorText(modelName: string, error: z.ZodError, input: unknown): string {
  const errors = error.issues.flatMap((i) => toPydantic(i, input));
  const n = errors.length;
  const lines = [`${n} validation error${n === 1 ? "" : "s"} for ${modelName}`];
  for (const e of errors) {
    lines.push(e.loc);
    lines.push(
      `  ${e.msg} [type=${e.type}, input_value=${pyInputRepr(e.input)}, input_type=${pyInputType(e.input)}]`,
    );
    lines.push(
      `    For further information visit https://errors.pydantic.dev/${PYDANTIC_VERSION}/v/${e.type}`,
    );
  }
  return lines.join("\n");
}

/** `Model(**input)`: the validated Python value, or a ToolError with pydantic's text. */
export function construct(schema: z.ZodType, modelName: string, input: unknown): PyDict {
  const r = schema.safeParse(input, { reportInput: true });
  if (!r.success) throw new ToolError(validationErrorText(modelName, r.error, input));
  return r.data as PyDict;
}
