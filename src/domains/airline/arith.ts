/**
 * Python arithmetic on raw tool arguments: int/float typing is preserved (it is part of the DB
 * hash) and non-numbers raise Python's TypeError texts.
 */
import { isNum, numOf, pyAdd, pyMul, pySub } from "../../formats/py/number.ts";
import type { PyFloat, PyValue } from "../../formats/py/value.ts";
import { operandTypeError } from "./python.ts";

export type PyNum = number | PyFloat | boolean;

/** A bigint (ints beyond 2^53, only from absurd arguments) is approximated by a double. */
const numeric = (v: PyValue): PyValue => (typeof v === "bigint" ? Number(v) : v);

function checked(op: string, a: PyValue, b: PyValue): [PyNum, PyNum] {
  const x = numeric(a);
  const y = numeric(b);
  if (!isNum(x) || !isNum(y)) throw operandTypeError(op, a, b);
  return [x, y];
}

export const add = (a: PyValue, b: PyValue, op = "+"): number | PyFloat => pyAdd(...checked(op, a, b));
export const sub = (a: PyValue, b: PyValue, op = "-"): number | PyFloat => pySub(...checked(op, a, b));
export const mul = (a: PyValue, b: PyValue, op = "*"): number | PyFloat => pyMul(...checked(op, a, b));

/** Python `max(0, x)`: the first maximal argument, so `max(0, 0.0)` is the int 0. */
export const maxZero = (x: number | PyFloat): number | PyFloat => (numOf(x) > 0 ? x : 0);

/** Python `a < b` between numbers. */
export const lessThan = (a: PyNum, b: PyNum): boolean => numOf(a) < numOf(b);

/** Python `a != 0`. */
export const isNonZero = (a: PyNum): boolean => numOf(a) !== 0;
