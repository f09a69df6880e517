/** Shared shapes of the credit/dispute tools: single-field lookups and their "history" reports. */
import type { PyValue } from "../../../py/value.ts";
import type { DbState } from "../../db-state.ts";
import type { Args, Param } from "../../toolkit.ts";
import { queryDatabaseTool } from "../db-query.ts";
import type { DiscoverableTool } from "../discoverable.ts";
import { CREDIT_DOCS } from "./credit-docs.ts";
import { pyStr } from "./credit-py.ts";

/**
 * `query_database_tool(table, f'{{"<field>": "{value}"}}')`.
 * tau2 quirk: the constraint JSON is built by string interpolation, so a value with a quote or
 * backslash gives an "Error: Invalid JSON" text, which the history reads append as their result
 * and the existence checks take for a match.
 */
export const queryByField = (table: string, fieldName: string, value: PyValue, db: DbState): string =>
  queryDatabaseTool(table, `{"${fieldName}": "${pyStr(value)}"}`, db);

/** Whether a `query_database_tool` result reports no match (tau2 checks both phrasings). */
export const noMatch = (result: string): boolean =>
  result.includes("No results found") || result.includes("No records found");

/**
 * The read tools that list one table's records for a value: a fixed header, then the query result
 * or, when nothing matched, a blank line and `empty`.
 */
export function historyReport(
  db: DbState,
  spec: { table: string; field: string; value: PyValue; header: readonly string[]; empty: string },
): string {
  const result = queryByField(spec.table, spec.field, spec.value, db);
  return [...spec.header, noMatch(result) ? `\n${spec.empty}` : result].join("\n");
}

type DecoratorType = "read" | "write" | "generic";

/**
 * A discoverable tool with its exact docstring. `specs` are the Python parameters in order, a
 * `[name, default]` pair for an optional one; `run` sees every parameter bound (Python's binding
 * already ran). `mutates` is tau2's `is_discoverable_tool` default (`tool_type == WRITE`): no tool
 * of this part overrides it.
 */
export function discoverable<const K extends string>(
  name: keyof typeof CREDIT_DOCS,
  kind: DecoratorType,
  specs: readonly (K | readonly [K, PyValue])[],
  run: (db: DbState, a: Readonly<Record<K, PyValue>>) => string,
): DiscoverableTool {
  const toolParams: Param[] = specs.map((s) =>
    typeof s === "string" ? { name: s } : { name: s[0], default: s[1] },
  );
  return {
    name,
    kind,
    mutates: kind === "write",
    params: toolParams,
    docstring: CREDIT_DOCS[name],
    run: (db: DbState, args: Args) => run(db, args as Readonly<Record<K, PyValue>>),
  };
}
