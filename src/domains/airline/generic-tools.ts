/**
 * tau2's GENERIC tools, identical in airline and retail: `calculate` and `transfer_to_human_agents`.
 * Neither touches the DB, so replay skips them (spec §4.3); their texts matter for strict replay.
 */
import { floatRepr, pyRoundFloat } from "../../formats/py/number.ts";
import { type PyValue, pyTypeName } from "../../formats/py/value.ts";
import { transferToHumanAgents } from "../shared-tools.ts";
import { type ToolDef, ToolError } from "../toolkit.ts";
import { evalExpression, PyExprError, pyFloatOf } from "./expression.ts";
import { pyIter } from "./python.ts";

const CALCULATOR_ALPHABET = "0123456789+-*/(). ";

/** Python `c in CALCULATOR_ALPHABET` (a substring test; a non-string raises). */
function allowed(c: PyValue): boolean {
  if (typeof c !== "string") {
    throw new ToolError(`'in <string>' requires string as left operand, not ${pyTypeName(c)}`);
  }
  return CALCULATOR_ALPHABET.includes(c);
}

/** `str(round(float(eval(expression)), 2))` after tau2's character whitelist. */
export function calculateText(expression: string): string {
  try {
    return floatRepr(pyRoundFloat(pyFloatOf(evalExpression(expression)), 2));
  } catch (e) {
    if (e instanceof PyExprError) throw new ToolError(e.message);
    throw e;
  }
}

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

export { transferToHumanAgents };

export const GENERIC_TOOLS: readonly ToolDef[] = [calculate, transferToHumanAgents];
