/**
 * tau2's banking test environment (`_create_test_environment` / conftest `create_environment`): the
 * agent and user toolkits over one DB, a fresh toolkit session, and `call` = `env.get_response`.
 */
import { bankingDomain } from "../../../src/domains/banking_knowledge/index.ts";
import { BankingSession } from "../../../src/domains/banking_knowledge/session.ts";
import { type DbBase, DbState } from "../../../src/domains/db-state.ts";
import { type Quirks, TAU2_QUIRKS } from "../../../src/domains/quirks.ts";
import type { CallOutcome } from "../../../src/domains/toolkit.ts";
import { pyDumps } from "../../../src/py/json.ts";
import type { PyDict, PyValue } from "../../../src/py/value.ts";
import { Environment } from "../../../src/replay/environment.ts";

export function createEnvironment(
  base: DbBase,
  session = new BankingSession(),
  quirks: Quirks = TAU2_QUIRKS,
): Environment {
  const db = DbState.of(base);
  return new Environment(bankingDomain, db, db, false, { shared: new Map(), quirks, session });
}

/** tau2's `ToolCall` + `get_response`. */
export const call = (
  env: Environment,
  name: string,
  args: PyDict,
  requestor: "assistant" | "user" = "assistant",
): CallOutcome => env.respond(name, requestor, args);

/** Python `json.dumps(arguments)` (what the tests pass as the `arguments` string). */
export const jsonArgs = (args: PyValue): string => pyDumps(args);

/** `len(db.<table>.data)`. */
export const tableSize = (env: Environment, table: string): number => env.agent.keys(table).length;

export const record = (env: Environment, table: string, id: string): PyDict =>
  env.agent.get(table, id) as PyDict;

/** tau2's `call_discoverable_agent` helper: unlock, then call. */
export function callDiscoverableAgent(env: Environment, tool: string, args: PyDict): CallOutcome {
  const unlocked = call(env, "unlock_discoverable_agent_tool", { agent_tool_name: tool });
  if (unlocked.error) throw new Error(`Failed to unlock ${tool}: ${unlocked.content}`);
  return call(env, "call_discoverable_agent_tool", { agent_tool_name: tool, arguments: jsonArgs(args) });
}
