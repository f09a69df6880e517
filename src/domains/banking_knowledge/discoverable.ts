/**
 * banking_knowledge's discoverable tools: methods the agent must unlock (or give to the user) before
 * they can be called through `call_discoverable_agent_tool` / `call_discoverable_user_tool`. Their
 * type and builder, and what those two dispatchers share.
 */
import { pyIter, pyStr, requireHashable } from "../../py/builtins.ts";
import { PyJsonDecodeError, pyJsonLoads } from "../../py/json-loads.ts";
import { isPyDict, type PyValue, pyKeys } from "../../py/value.ts";
import type { DbState } from "../db-state.ts";
import type { Args, Param, ToolDef, ToolEnv, ToolOutput } from "../toolkit.ts";
import { queryDatabaseTool } from "./db-query.ts";

export interface DiscoverableTool extends ToolDef {
  /**
   * The method's docstring exactly as Python's `method.__doc__` holds it (leading newline
   * and indentation included): the unlock and give outputs are parsed from it, as in tau2.
   */
  readonly docstring: string;
}

/** The `ToolType` of tau2's `@is_discoverable_tool(...)` decorator. */
export type DiscoverableKind = "read" | "write" | "generic";

/**
 * A discoverable tool. `specs` are the Python parameters in order, a `[name, default]` pair for an
 * optional one; `run` sees every parameter bound (Python's binding already ran). `mutates` is
 * `is_discoverable_tool`'s default (`tool_type == WRITE`): no banking tool overrides it.
 */
export function discoverable<const K extends string>(
  name: string,
  kind: DiscoverableKind,
  docstring: string,
  specs: readonly (K | readonly [K, PyValue])[],
  run: (db: DbState, a: Readonly<Record<K, PyValue>>, env: ToolEnv) => ToolOutput,
): DiscoverableTool {
  const params: Param[] = specs.map((s) =>
    typeof s === "string" ? { name: s } : { name: s[0], default: s[1] },
  );
  return {
    name,
    kind,
    mutates: kind === "write",
    params,
    docstring,
    run: (db: DbState, args: Args, env: ToolEnv) => run(db, args as Readonly<Record<K, PyValue>>, env),
  };
}

// ---- what the agent's and the user's dispatchers share ----

export type Outcome<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly text: string };

/** `json.loads(arguments)`: a decode error is the tool's answer, anything else (a TypeError) is raised. */
export function loadArguments(text: PyValue | undefined, parseIntAsFloat: boolean): Outcome<PyValue> {
  try {
    return { ok: true, value: pyJsonLoads(text, { parseIntAsFloat }) };
  } catch (e) {
    if (e instanceof PyJsonDecodeError)
      return { ok: false, text: `Error: Invalid JSON in arguments: ${e.message}` };
    throw e;
  }
}

/**
 * `for arg_name in args_dict: if arg_name not in <parameters>: return "Error: Unexpected parameter: ..."`:
 * any iterable passes through here (a dict's keys in Python order); an unhashable name raises.
 */
export function unexpectedParameter(args: PyValue, allowed: ReadonlySet<string>): string | null {
  for (const name of isPyDict(args) ? pyKeys(args) : pyIter(args)) {
    requireHashable(name);
    if (typeof name !== "string" || !allowed.has(name)) return `Error: Unexpected parameter: ${pyStr(name)}`;
  }
  return null;
}

/**
 * The list tools: `query_database_tool(table, "{}")`, or `empty` when that says "No results found".
 * tau2 quirk: the query says "No records found", so `empty` never shows; an empty table is listed.
 */
export function listTable(db: DbState, table: string, heading: string, empty: string): string {
  const result = queryDatabaseTool(table, "{}", db);
  return result.includes("No results found") ? empty : `${heading}\n${result}`;
}
