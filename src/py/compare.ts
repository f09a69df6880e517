/**
 * Python's comparison operators on raw values: the orderings `<` `<=` `>` `>=` (numbers across
 * int/float/bool, strs by code point, lists item by item) and `in`, each raising the TypeError
 * CPython raises for operand types it refuses (checked against CPython 3.11).
 */
import { compareError, requireHashable } from "./builtins.ts";
import { PyTypeError } from "./errors.ts";
import { compareCodePoints } from "./json.ts";
import { isPyDict, numericValue, type PyValue, pyEquals, pyTypeName } from "./value.ts";

type Value = PyValue | undefined;

export type OrderOp = "<" | "<=" | ">" | ">=";

/** `-1`, `0` or `1` as `a` sorts before, with or after `b`. */
function order(op: OrderOp, a: Value, b: Value): number {
  const x = a === undefined ? undefined : numericValue(a);
  const y = b === undefined ? undefined : numericValue(b);
  if (x !== undefined && y !== undefined) return x < y ? -1 : x > y ? 1 : x === y ? 0 : Number.NaN;
  if (typeof a === "string" && typeof b === "string") return compareCodePoints(a, b);
  if (Array.isArray(a) && Array.isArray(b)) {
    // The first unequal items decide (compared with the same operator), else the lengths.
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) if (!pyEquals(a[i], b[i])) return order(op, a[i], b[i]);
    return a.length - b.length;
  }
  throw compareError(op, a, b);
}

/** Python `a <op> b` for an ordering operator (every comparison with NaN is false). */
export function pyCompare(a: Value, op: OrderOp, b: Value): boolean {
  const c = order(op, a, b);
  if (op === "<") return c < 0;
  if (op === "<=") return c <= 0;
  if (op === ">") return c > 0;
  return c >= 0;
}

/** Python `needle in haystack`: list items by `==`, substrings of a str, keys of a str-keyed dict. */
export function pyIn(needle: Value, haystack: Value): boolean {
  if (Array.isArray(haystack)) return haystack.some((x) => pyEquals(x, needle));
  if (typeof haystack === "string") {
    if (typeof needle !== "string") {
      throw new PyTypeError(`'in <string>' requires string as left operand, not ${pyTypeName(needle)}`);
    }
    return haystack.includes(needle);
  }
  if (isPyDict(haystack)) {
    requireHashable(needle);
    return typeof needle === "string" && Object.hasOwn(haystack, needle);
  }
  throw new PyTypeError(`argument of type '${pyTypeName(haystack)}' is not iterable`);
}

/**
 * `sorted(items, key=key, reverse=True)`: stable, so equal keys keep their order. Where Python's
 * sort raises (keys it cannot order), which pair's TypeError text comes first is approximate.
 */
export function pySortedDesc<T>(items: readonly T[], key: (item: T) => PyValue): T[] {
  const keyed = items.map((item) => ({ item, k: key(item) }));
  keyed.sort((x, y) => (pyCompare(y.k, "<", x.k) ? -1 : pyCompare(x.k, "<", y.k) ? 1 : 0));
  return keyed.map((e) => e.item);
}
