/**
 * Pydantic lax-mode field validators as zod schemas (only what the retail models need): a float
 * field stores a Python float whatever number form it is given, a bool field accepts pydantic's
 * bool-like inputs, a str field accepts strings only.
 */
import { z } from "zod";
import { PyFloat } from "../../formats/py/value.ts";

/** `float` field: int, float, bool or a numeric string become a `PyFloat` (pydantic lax mode). */
export const pyFloatField = z.unknown().transform((v, ctx): PyFloat => {
  if (v instanceof PyFloat) return v;
  if (typeof v === "number") return new PyFloat(v);
  if (typeof v === "boolean") return new PyFloat(v ? 1 : 0);
  if (typeof v === "string" && v.trim() !== "") {
    const n = Number(v.trim());
    if (!Number.isNaN(n)) return new PyFloat(n);
  }
  ctx.issues.push({ code: "custom", message: "Input should be a valid number", input: v });
  return z.NEVER;
});

const TRUE_STRINGS = new Set(["1", "on", "t", "true", "y", "yes"]);
const FALSE_STRINGS = new Set(["0", "off", "f", "false", "n", "no"]);

/** `bool` field: booleans, 0/1 and pydantic's yes/no style strings. */
export const pyBoolField = z.unknown().transform((v, ctx): boolean => {
  if (typeof v === "boolean") return v;
  if (v === 0 || v === 1) return v === 1;
  if (v instanceof PyFloat && (v.v === 0 || v.v === 1)) return v.v === 1;
  if (typeof v === "string") {
    const s = v.toLowerCase();
    if (TRUE_STRINGS.has(s)) return true;
    if (FALSE_STRINGS.has(s)) return false;
  }
  ctx.issues.push({ code: "custom", message: "Input should be a valid boolean", input: v });
  return z.NEVER;
});
