/** zod schemas for values that are already Python-typed (see `typed-arguments.ts`); they only check shape. */
import { isPyDict, type PyDict, type PyValue } from "../py/value.ts";
import { z } from "../util/zod.ts";

/** Any present value; its types were fixed at parse time. */
export const pyValueSchema = z.custom<PyValue>((v) => v !== undefined, {
  message: "Invalid input: expected a value, received undefined",
});

/** A JSON object (Python dict). */
export const pyDictSchema = z.custom<PyDict>((v) => isPyDict(v), {
  message: "Invalid input: expected object",
});

export const requestorSchema = z.enum(["assistant", "user"]);
