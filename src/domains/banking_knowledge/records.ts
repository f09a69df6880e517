/**
 * How banking's tools read the DB and print what they read. Records are plain dicts read with
 * `.get(key, default)`; a raw argument used as a key is hashed first (a list or dict raises
 * TypeError, which the dispatchers turn into "Invalid arguments"). General Python lives in src/py.
 */
import { attributeError, pyKeyIn, pyStr, requireHashable } from "../../py/builtins.ts";
import { pyFormatFixed } from "../../py/format.ts";
import { pyTitle, strReceiver } from "../../py/str-methods.ts";
import { isPyDict, type PyDict, PyFloat, type PyValue } from "../../py/value.ts";
import type { DbState } from "../db-state.ts";
import { queryDatabaseTool } from "./db-query.ts";

/** A raw tool argument: tau2 passes JSON-decoded arguments to its tools unchecked. */
export type Value = PyValue | undefined;

/** `record.get(key, dflt)`: a stored None is returned as None, not as the default. */
export function field(record: Value, key: string, dflt: PyValue = null): PyValue {
  if (!isPyDict(record)) throw attributeError(record, "get");
  return Object.hasOwn(record, key) ? (record[key] as PyValue) : dflt;
}

/** `key in db.<table>.data`. */
export const hasRecord = (db: DbState, table: string, key: Value): key is string =>
  pyKeyIn(key, (k) => db.has(table, k));

/** `db.<table>.data.get(key)`: the record, or undefined (None). */
export const getRecord = (db: DbState, table: string, key: Value): PyDict | undefined =>
  hasRecord(db, table, key) ? (db.get(table, key) as PyDict) : undefined;

/** `dict.get(key)` on a literal str-keyed dict (a fee table, say) with a raw key. */
export function lookup<T>(table: Readonly<Record<string, T>>, key: Value): T | undefined {
  requireHashable(key);
  return typeof key === "string" && Object.hasOwn(table, key) ? table[key] : undefined;
}

/** `x in ["a", "b"]`: list membership by `==`, so only an equal str matches. */
export const inStrs = (x: Value, options: readonly string[]): x is string =>
  typeof x === "string" && options.includes(x);

/** `f"{x:.2f}"` of a Python float. */
export const money = (x: number): string => pyFormatFixed(new PyFloat(x), 2);

/** `v.replace("_", " ").title()`, how the tools print a reason or enum code. */
export const titled = (v: Value): string => pyTitle(strReceiver(v, "replace").replaceAll("_", " "));

/**
 * `query_database_tool(table, f'{{"<field>": "{value}"}}')`.
 * tau2 quirk: the constraint JSON is built by string interpolation, so a value with a quote or
 * backslash gives an "Error: Invalid JSON" text, which the history reads append as their result
 * and the existence checks take for a match.
 */
export const queryByField = (db: DbState, table: string, fieldName: string, value: Value): string =>
  queryDatabaseTool(table, `{"${fieldName}": "${pyStr(value)}"}`, db);

/** Whether a `query_database_tool` result reports no match (tau2 checks both phrasings). */
export const noMatch = (result: string): boolean =>
  result.includes("No results found") || result.includes("No records found");

/**
 * tau2's credit-card-account existence check: a `query_database_tool` on the `account_id` field, not a
 * key lookup. tau2 quirk: a write that follows goes by key, so a record whose key differs from its
 * `account_id` passes the check and then fails (close) or is not cancelled (replacement).
 */
export const ccAccountMissing = (db: DbState, id: Value): boolean =>
  noMatch(queryByField(db, "credit_card_accounts", "account_id", id));
