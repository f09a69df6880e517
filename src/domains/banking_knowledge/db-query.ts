/**
 * tau2's banking_knowledge `db_query.py`: constraint queries over the `TransactionalDB` tables
 * (`field__op` keys) and the `query_database` tool text. Comparisons follow Python's operators;
 * one that Python would reject with a TypeError counts as "no match", as tau2 swallows it.
 */
import { pyStr, pyTruthy } from "../../py/builtins.ts";
import { pyCompare, pyIn } from "../../py/compare.ts";
import { PyException, PyTypeError } from "../../py/errors.ts";
import { PyValueError } from "../../py/format.ts";
import { PyJsonDecodeError, pyJsonLoads } from "../../py/json-loads.ts";
import { pyListRepr } from "../../py/repr.ts";
import {
  isPyDict,
  type PyDict,
  type PyValue,
  pyEquals,
  pyKeys,
  pyTypeName,
  recordKeyOrder,
  setKey,
} from "../../py/value.ts";
import type { DbState } from "../db-state.ts";
import { BANKING_TABLES } from "./schema.ts";

/** The tables `_load_databases` exposes, in its order (all 23, not in `TransactionalDB` order). */
export const QUERYABLE_TABLES: readonly string[] = [
  "users",
  "accounts",
  "referrals",
  "credit_card_applications",
  "user_discoverable_tools",
  "user_discoverable_tool_calls",
  "agent_discoverable_tools",
  "task_config",
  "verification_history",
  "credit_card_transaction_history",
  "cash_back_disputes",
  "bank_account_transaction_history",
  "credit_card_accounts",
  "human_transfer_requests",
  "transaction_disputes",
  "credit_card_orders",
  "credit_card_closure_reasons",
  "credit_card_account_flags",
  "debit_cards",
  "debit_card_orders",
  "debit_card_disputes",
  "credit_limit_increase_requests",
  "payment_history",
];

const TABLES: ReadonlySet<string> = new Set(BANKING_TABLES);
const isTable = (name: PyValue | undefined): name is string => typeof name === "string" && TABLES.has(name);

/** `_get_comparison_op`: an unknown operator name compares for equality. */
function compare(op: string, actual: PyValue | undefined, expected: PyValue | undefined): boolean {
  switch (op) {
    case "ne":
      return !pyEquals(actual, expected);
    case "gt":
      return pyCompare(actual, ">", expected);
    case "gte":
      return pyCompare(actual, ">=", expected);
    case "lt":
      return pyCompare(actual, "<", expected);
    case "lte":
      return pyCompare(actual, "<=", expected);
    case "contains":
      return actual !== null && actual !== undefined && pyIn(expected, actual);
    case "startswith":
      return actual !== null && actual !== undefined && pyStr(actual).startsWith(pyStr(expected));
    case "endswith":
      return actual !== null && actual !== undefined && pyStr(actual).endsWith(pyStr(expected));
    case "in":
      return pyIn(actual, expected);
    case "nin":
      return !pyIn(actual, expected);
    default:
      return pyEquals(actual, expected);
  }
}

/** `_parse_constraint`: `a__b__gt` is field `a__b`, operator `gt`; no `__` means `eq`. */
function parseConstraint(key: string): [field: string, op: string] {
  const at = key.lastIndexOf("__");
  return at < 0 ? [key, "eq"] : [key.slice(0, at), key.slice(at + 2)];
}

/**
 * `_record_matches`: every constraint holds; a comparison that raises TypeError or ValueError (one
 * Python cannot make) fails the record.
 */
export function recordMatches(record: PyDict, constraints: PyDict): boolean {
  for (const key of pyKeys(constraints)) {
    const [field, op] = parseConstraint(key);
    const actual = Object.hasOwn(record, field) ? record[field] : null;
    try {
      if (!compare(op, actual, constraints[key])) return false;
    } catch (e) {
      if (e instanceof PyTypeError || e instanceof PyValueError) return false;
      throw e;
    }
  }
  return true;
}

// ---- queries ----

/** `list_databases`. */
export const listDatabases = (_db: DbState): string[] => [...QUERYABLE_TABLES];

/** `get_database`: a table's records as one dict (read-only), or null for an unknown name. */
export function getDatabase(name: PyValue | undefined, db: DbState): PyDict | null {
  if (!isTable(name)) return null;
  const out: PyDict = {};
  const ids = db.keys(name);
  for (const id of ids) setKey(out, id, db.get(name, id) as PyValue);
  recordKeyOrder(out, ids);
  return out;
}

export interface QueryOptions {
  readonly returnIds?: boolean;
  /** Python's `limit`: any value; a non-number raises `>=`'s TypeError once a record matches. */
  readonly limit?: PyValue;
}

/** `query_db`: matching records (read-only views) in table order, or `[id, record]` pairs. */
export function queryDb(
  table: PyValue | undefined,
  constraints: PyDict,
  db: DbState,
  opts?: QueryOptions & { readonly returnIds?: false },
): PyDict[];
export function queryDb(
  table: PyValue | undefined,
  constraints: PyDict,
  db: DbState,
  opts: QueryOptions & { readonly returnIds: true },
): [string, PyDict][];
export function queryDb(
  table: PyValue | undefined,
  constraints: PyDict,
  db: DbState,
  opts: QueryOptions = {},
): PyDict[] | [string, PyDict][] {
  if (!isTable(table)) return [];
  const limit = opts.limit ?? null;
  const records: PyDict[] = [];
  const pairs: [string, PyDict][] = [];
  for (const id of db.keys(table)) {
    const record = db.get(table, id) as PyDict;
    if (!recordMatches(record, constraints)) continue;
    records.push(record);
    pairs.push([id, record]);
    if (limit !== null && pyCompare(records.length, ">=", limit)) break;
  }
  return opts.returnIds === true ? pairs : records;
}

/**
 * `remove_from_db`: deletes the matching records and returns them. An unknown table removes nothing
 * (tau2's `getattr(db, name, None)`).
 */
export function removeFromDb(table: PyValue | undefined, constraints: PyDict, db: DbState): PyDict[] {
  if (!isTable(table)) return [];
  const removed: [string, PyDict][] = [];
  for (const id of db.keys(table)) {
    const record = db.get(table, id) as PyDict;
    if (recordMatches(record, constraints)) removed.push([id, record]);
  }
  for (const [id] of removed) db.remove(table, id);
  return removed.map(([, r]) => r);
}

/**
 * `add_to_db`: false when the table does not exist or the id is taken.
 * tau2 quirk: a misspelt or missing table name (e.g. `interest_discrepancy_reports`) silently stores nothing.
 */
export function addToDb(table: string, recordId: string, record: PyDict, db: DbState): boolean {
  if (!isTable(table)) return false;
  if (db.has(table, recordId)) return false;
  db.put(table, recordId, record);
  return true;
}

/** `update_record_in_db`: sets the fields in place; the updated (writable) record, or null. */
export function updateRecordInDb(
  table: string,
  recordId: string,
  updates: PyDict,
  db: DbState,
): PyDict | null {
  if (!isTable(table) || !db.has(table, recordId)) return null;
  const record = db.mut(table, recordId);
  for (const k of pyKeys(updates)) setKey(record, k, updates[k] as PyValue);
  return record;
}

// ---- the query_database tool ----

const QUERY_DB_QUALNAME = "tau2.domains.banking_knowledge.db_query.query_db()";
/** `query_db`'s own parameters, which a constraint key would collide with under `**constraints`. */
const BOUND_BY_CALLER = new Set(["db", "return_ids"]);

/** Python's `query_db(name, db=db, return_ids=True, **constraint_dict)` call binding. */
function bindConstraints(parsed: PyValue): { constraints: PyDict; limit: PyValue } {
  if (!isPyDict(parsed)) {
    throw new PyTypeError(
      `${QUERY_DB_QUALNAME} argument after ** must be a mapping, not ${pyTypeName(parsed)}`,
    );
  }
  for (const k of pyKeys(parsed)) {
    if (BOUND_BY_CALLER.has(k)) {
      throw new PyTypeError(`${QUERY_DB_QUALNAME} got multiple values for keyword argument '${k}'`);
    }
  }
  if (Object.hasOwn(parsed, "db_name")) {
    throw new PyTypeError("query_db() got multiple values for argument 'db_name'");
  }
  const constraints: PyDict = {};
  let limit: PyValue = null;
  for (const k of pyKeys(parsed)) {
    // tau2 quirk: a "limit" key in the constraints JSON becomes query_db's limit, not a field filter.
    if (k === "limit") limit = parsed[k] as PyValue;
    else setKey(constraints, k, parsed[k] as PyValue);
  }
  return { constraints, limit };
}

/** The `Found N record(s) in '<table>':` listing of `[id, record]` pairs, as tau2 prints query results. */
export function formatRecords(table: string, results: readonly (readonly [string, PyDict])[]): string {
  const lines = [`Found ${results.length} record(s) in '${table}':\n`];
  results.forEach(([id, record], i) => {
    lines.push(`${i + 1}. Record ID: ${id}`);
    for (const field of pyKeys(record)) lines.push(`   ${field}: ${pyStr(record[field])}`);
    lines.push("");
  });
  return lines.join("\n");
}

/**
 * `query_database_tool`: the text both toolkits' `query_database` return. Every failure is a
 * returned `Error: ...` string, never a raised exception.
 */
export function queryDatabaseTool(
  databaseName: PyValue | undefined,
  constraintsJson: PyValue | undefined,
  db: DbState,
): string {
  try {
    const available = listDatabases(db);
    if (!available.some((n) => pyEquals(n, databaseName))) {
      return `Error: Database '${pyStr(databaseName)}' not found. Available: ${pyListRepr(available)}`;
    }
    const name = databaseName as string;
    let parsed: PyValue;
    try {
      parsed = pyTruthy(constraintsJson) ? pyJsonLoads(constraintsJson) : {};
    } catch (e) {
      if (e instanceof PyJsonDecodeError) return `Error: Invalid JSON: ${e.message}`;
      throw e;
    }
    const { constraints, limit } = bindConstraints(parsed);
    const results = queryDb(name, constraints, db, { returnIds: true, limit });
    if (results.length === 0) return `No records found in '${name}'.`;
    return formatRecords(name, results);
  } catch (e) {
    if (e instanceof PyException) return `Error querying database: ${e.message}`;
    throw e;
  }
}
