/**
 * Python arithmetic on raw values: int/float typing is preserved (it is part of the DB hash) and a
 * non-number raises Python's TypeError text.
 */
import { operandTypeError } from "./builtins.ts";
import { isNum, numOf, pyAdd, pyMul, pySub } from "./number.ts";
import type { PyFloat, PyValue } from "./value.ts";

export type PyNum = number | PyFloat | boolean;

/** A bigint (ints beyond 2^53, only from absurd arguments) is approximated by a double. */
const numeric = (v: PyValue | undefined): PyValue | undefined => (typeof v === "bigint" ? Number(v) : v);

function operands(op: string, a: PyValue | undefined, b: PyValue | undefined): [PyNum, PyNum] {
  const x = numeric(a);
  const y = numeric(b);
  if (!isNum(x) || !isNum(y)) throw operandTypeError(op, a, b);
  return [x, y];
}

/** Python `a + b` (`op` names the operator in the error text, e.g. `+=`). */
export const checkedAdd = (a: PyValue | undefined, b: PyValue | undefined, op = "+"): number | PyFloat =>
  pyAdd(...operands(op, a, b));
export const checkedSub = (a: PyValue | undefined, b: PyValue | undefined, op = "-"): number | PyFloat =>
  pySub(...operands(op, a, b));
export const checkedMul = (a: PyValue | undefined, b: PyValue | undefined, op = "*"): number | PyFloat =>
  pyMul(...operands(op, a, b));

/** Python `max(0, x)`: the first maximal argument, so `max(0, 0.0)` is the int 0. */
export const maxWithZero = (x: number | PyFloat): number | PyFloat => (numOf(x) > 0 ? x : 0);

/** Python `a < b` between numbers. */
export const lessThan = (a: PyNum, b: PyNum): boolean => numOf(a) < numOf(b);

/** Python `a != 0`. */
export const isNonZero = (a: PyNum): boolean => numOf(a) !== 0;
