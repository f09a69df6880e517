/** Tools that several tau2 toolkits declare identically (GENERIC: they change no state). */
import { pyIter } from "../py/builtins.ts";
import { floatRepr, pyRoundFloat } from "../py/number.ts";
import { type PyValue, pyTypeName } from "../py/value.ts";
import { evalExpression, PyExprError, pyFloatOf } from "./generic/expression.ts";
import { type ToolDef, ToolError } from "./toolkit.ts";

/** Tells the orchestrator to hand the user over. */
export const transferToHumanAgents: ToolDef = {
  name: "transfer_to_human_agents",
  kind: "generic",
  params: [{ name: "summary" }],
  run: () => "Transfer successful",
};

const CALCULATOR_ALPHABET = "0123456789+-*/(). ";

/** Python `c in CALCULATOR_ALPHABET` (a substring test; a non-string raises). */
function allowed(c: PyValue): boolean {
  if (typeof c !== "string") {
    throw new ToolError(`'in <string>' requires string as left operand, not ${pyTypeName(c)}`);
  }
  return CALCULATOR_ALPHABET.includes(c);
}

/** `str(round(float(eval(expression)), 2))` after tau2's character whitelist. */
function calculateText(expression: string): string {
  try {
    return floatRepr(pyRoundFloat(pyFloatOf(evalExpression(expression)), 2));
  } catch (e) {
    if (e instanceof PyExprError) throw new ToolError(e.message);
    throw e;
  }
}

/** Replay skips it (no DB access); its texts matter for strict replay only. */
export const calculate: ToolDef = {
  name: "calculate",
  kind: "generic",
  params: [{ name: "expression" }],
  run(_db, { expression }) {
    // tau2 iterates the argument before eval: a non-string fails here or in eval.
    const chars = pyIter(expression ?? null);
    if (!chars.every(allowed)) {
      throw new ToolError("Invalid characters in expression");
    }
    if (typeof expression !== "string") {
      // Only a list/dict of allowed strings gets here; Python's eval refuses it.
      throw new ToolError("eval() arg 1 must be a string, bytes or code object");
    }
    return calculateText(expression);
  },
};
