/**
 * Declaring `KnowledgeTools`' discoverable methods with their exact `__doc__`, and the history reads,
 * which tau2 writes to one pattern.
 */
import { pyStr, pyTruthy } from "../../../py/builtins.ts";
import type { PyValue } from "../../../py/value.ts";
import type { DbState } from "../../db-state.ts";
import type { ToolEnv, ToolOutput } from "../../toolkit.ts";
import { type DiscoverableKind, type DiscoverableTool, discoverable } from "../discoverable.ts";
import { noMatch, queryByField } from "../records.ts";
import { ACCOUNT_DOCS } from "./account-docs.ts";
import { CREDIT_DOCS } from "./credit-docs.ts";
import { DEBIT_DOCS } from "./debit-docs.ts";

const AGENT_DOCS = { ...CREDIT_DOCS, ...ACCOUNT_DOCS, ...DEBIT_DOCS };

/** A discoverable agent tool: `discoverable` with the docstring tau2's method carries. */
export const agentTool = <const K extends string>(
  name: keyof typeof AGENT_DOCS,
  kind: DiscoverableKind,
  specs: readonly (K | readonly [K, PyValue])[],
  run: (db: DbState, a: Readonly<Record<K, PyValue>>, env: ToolEnv) => ToolOutput,
): DiscoverableTool => discoverable(name, kind, AGENT_DOCS[name], specs, run);

/**
 * A READ tool listing one table's records whose `param` field equals its one argument: the
 * success line, the `Executed:` line and `<label> <value>:`, then the query result or, when
 * nothing matched, a blank line and `empty`.
 */
export const historyTool = (spec: {
  name: keyof typeof AGENT_DOCS;
  param: string;
  table: string;
  title: string;
  label: string;
  empty: string;
}): DiscoverableTool =>
  agentTool(spec.name, "read", [spec.param], (db, a) => {
    const value = a[spec.param];
    if (!pyTruthy(value)) return `Error: Missing required parameter: ${spec.param}`;
    const result = queryByField(db, spec.table, spec.param, value);
    const header = [spec.title, "", `Executed: ${spec.name}`, `${spec.label} ${pyStr(value)}:`];
    return [...header, noMatch(result) ? `\n${spec.empty}` : result].join("\n");
  });
