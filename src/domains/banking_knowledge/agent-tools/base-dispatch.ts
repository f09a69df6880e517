/**
 * `KnowledgeTools`' discoverable-tool infrastructure: give a user tool, unlock and call an agent
 * tool, list the called ones. Unlocks and gifts live in the environment's `BankingSession` (tau2
 * keeps them in the toolkit instance); only gifts and logged calls reach the DB.
 */

import { dictKey, pyStr, pyTruthy } from "../../../py/builtins.ts";
import { PyException, PyTypeError } from "../../../py/errors.ts";
import { pyDumpsIndent } from "../../../py/format.ts";
import { isPyDict, type PyValue, pyTypeName } from "../../../py/value.ts";
import type { DbState } from "../../db-state.ts";
import {
  type Args,
  bindArguments,
  mutatesState,
  type ToolDef,
  type ToolEnv,
  type ToolOutput,
} from "../../toolkit.ts";
import { addToDb } from "../db-query.ts";
import {
  type DiscoverableTool,
  listTable,
  loadArguments,
  type Outcome,
  unexpectedParameter,
} from "../discoverable.ts";
import { formatDiscoverableToolForAgent, toolInfoOf } from "../docstring.ts";
import { bankingSession } from "../session.ts";
import { generateAgentDiscoverableToolId, generateUserDiscoverableToolId, getNowIso } from "../utils.ts";

/** The class whose `__qualname__` CPython puts in a discoverable method's TypeError texts. */
const AGENT_CLASS = "KnowledgeTools";

const byName = (tools: readonly DiscoverableTool[]): ReadonlyMap<string, DiscoverableTool> =>
  new Map(tools.map((t) => [t.name, t]));

/**
 * `method(**args_dict)` on a bound method: CPython's binding TypeErrors. A `self` key is bound
 * already ("multiple values"), which the generic binder would call unexpected.
 */
function bindBound(tool: DiscoverableTool, raw: PyValue): Args {
  if (isPyDict(raw)) {
    const known = new Set(tool.params.map((p) => p.name));
    const first = Object.keys(raw).find((k) => k === "self" || !known.has(k));
    if (first === "self") {
      throw new PyTypeError(`${AGENT_CLASS}.${tool.name}() got multiple values for argument 'self'`);
    }
  }
  return bindArguments(AGENT_CLASS, tool, raw);
}

/** Runs a discoverable agent tool; a Python TypeError (binding or body) is `Error: Invalid arguments`. */
function callBound(tool: DiscoverableTool, raw: PyValue, db: DbState, env: ToolEnv): Outcome<ToolOutput> {
  let args: Args;
  try {
    args = bindBound(tool, raw);
  } catch (e) {
    // Every binding failure is a TypeError in Python.
    if (e instanceof PyException) return { ok: false, text: `Error: Invalid arguments: ${e.message}` };
    throw e;
  }
  try {
    return { ok: true, value: tool.run(db, args, env) };
  } catch (e) {
    if (e instanceof PyTypeError) return { ok: false, text: `Error: Invalid arguments: ${e.message}` };
    throw e;
  }
}

export function makeDispatchTools(
  agentDiscoverable: readonly DiscoverableTool[],
  userDiscoverable: readonly DiscoverableTool[],
): ToolDef[] {
  const agentTools = byName(agentDiscoverable);
  const userTools = byName(userDiscoverable);
  /** `self.has_discoverable_tool(name)`: a dict lookup (an unhashable name raises). */
  const agentTool = (name: PyValue): DiscoverableTool | undefined => {
    const k = dictKey(name);
    return k === null ? undefined : agentTools.get(k);
  };
  const unknownAgentTool = (name: PyValue): string =>
    `Error: Unknown agent tool '${pyStr(name)}'. This tool is not available.`;

  const give: ToolDef = {
    name: "give_discoverable_user_tool",
    kind: "generic",
    mutates: true,
    params: [{ name: "discoverable_tool_name" }, { name: "arguments", default: "{}" }],
    run(db, { discoverable_tool_name: name, arguments: argsText }, env) {
      // `hasattr(KnowledgeUserTools, name)` then its discoverable flag: only user discoverable methods pass.
      if (typeof name !== "string") {
        throw new PyTypeError(`attribute name must be string, not '${pyTypeName(name)}'`);
      }
      const tool = userTools.get(name);
      if (tool === undefined) return `Error: Unknown discoverable tool '${name}'.`;
      const loaded = loadArguments(argsText as PyValue, false);
      if (!loaded.ok) return loaded.text;
      const args = loaded.value;
      // Checked against the unbound signature (`self` included).
      const unexpected = unexpectedParameter(args, new Set(["self", ...tool.params.map((p) => p.name)]));
      if (unexpected !== null) return unexpected;
      const toolInfo = toolInfoOf(tool);
      bankingSession(env).given.set(name, { arguments: args, givenAt: getNowIso(), toolInfo });
      // add_to_db's result is ignored: a second gift of the same tool keeps the first record.
      addToDb(
        "user_discoverable_tools",
        generateUserDiscoverableToolId(name),
        { tool_name: name, status: "GIVEN" },
        db,
      );
      const argsStr = pyTruthy(args) ? pyDumpsIndent(args) : "(no arguments)";
      return (
        `Tool given to user: ${name}\nDescription: ${toolInfo.description}\nArguments: ${argsStr}\n\n` +
        "The user can now execute this action by calling `call_discoverable_user_tool` " +
        `with discoverable_tool_name='${name}' and the same arguments.`
      );
    },
  };

  const unlock: ToolDef = {
    name: "unlock_discoverable_agent_tool",
    kind: "generic",
    mutates: true,
    params: [{ name: "agent_tool_name" }],
    run(_db, { agent_tool_name: name }, env) {
      const tool = agentTool(name as PyValue);
      if (tool === undefined) return unknownAgentTool(name as PyValue);
      const toolInfo = toolInfoOf(tool);
      // In memory only: the DB write happens when the tool is called.
      bankingSession(env).unlocked.set(tool.name, { unlockedAt: getNowIso(), toolInfo });
      return (
        `Tool unlocked: ${tool.name}\nDescription: ${toolInfo.description}\n\n` +
        `${formatDiscoverableToolForAgent(toolInfo)}\n\n` +
        "You can now use this tool by calling `call_discoverable_agent_tool` with " +
        `agent_tool_name='${tool.name}' and the required arguments.`
      );
    },
  };

  const call: ToolDef = {
    name: "call_discoverable_agent_tool",
    kind: "write",
    params: [{ name: "agent_tool_name" }, { name: "arguments", default: "{}" }],
    run(db, { agent_tool_name: name, arguments: argsText }, env) {
      const tool = agentTool(name as PyValue);
      if (tool === undefined) return unknownAgentTool(name as PyValue);
      const session = bankingSession(env);
      if (!session.unlocked.has(tool.name)) {
        return (
          `Error: Tool '${tool.name}' has not been unlocked. ` +
          "You must first use `unlock_discoverable_agent_tool` to unlock this tool before calling it."
        );
      }
      // parse_int=float: 33 and 33.0 reach the tool alike.
      const loaded = loadArguments(argsText as PyValue, true);
      if (!loaded.ok) return loaded.text;
      const result = callBound(tool, loaded.value, db, env);
      if (!result.ok) return result.text;
      // Writes are always logged; reads only when the task's gold calls them (the allow-list).
      if (mutatesState(tool) || session.readLogAllowlist.has(tool.name)) {
        const record = { tool_name: tool.name, status: "CALLED" };
        addToDb("agent_discoverable_tools", generateAgentDiscoverableToolId(tool.name), record, db);
      }
      return result.value;
    },
  };

  const list: ToolDef = {
    name: "list_discoverable_agent_tools",
    kind: "read",
    params: [],
    run: (db) =>
      listTable(
        db,
        "agent_discoverable_tools",
        "Your called agent tools:",
        "No agent tools have been called yet. Search the knowledge base to discover available tools.",
      ),
  };

  return [give, unlock, call, list];
}
