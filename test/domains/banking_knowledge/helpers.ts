/**
 * What the banking tests share: the reference vectors, task set and data dir; calling a tool as
 * tau2's tests do (a discoverable agent tool directly or through the dispatcher's error handling, a
 * user tool, or any tool through the full environment); and reading records back.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { DiscoverableTool } from "../../../src/domains/banking_knowledge/discoverable.ts";
import { agentDiscoverableTools, bankingDomain } from "../../../src/domains/banking_knowledge/index.ts";
import { BankingSession } from "../../../src/domains/banking_knowledge/session.ts";
import { bankingUserTools } from "../../../src/domains/banking_knowledge/user-tools.ts";
import { generateUserDiscoverableToolId } from "../../../src/domains/banking_knowledge/utils.ts";
import { type DbBase, DbState } from "../../../src/domains/db-state.ts";
import { type Quirks, TAU2_QUIRKS } from "../../../src/domains/quirks.ts";
import { loadDomainData } from "../../../src/domains/registry.ts";
import {
  bindArguments,
  type CallOutcome,
  invoke,
  renderToolOutput,
  type ToolEnv,
} from "../../../src/domains/toolkit.ts";
import type { Task } from "../../../src/formats/model.ts";
import { listTaskSets, loadTaskFile } from "../../../src/formats/tasks.ts";
import { GradingContext } from "../../../src/graders/context.ts";
import { PyException, PyTypeError } from "../../../src/py/errors.ts";
import { pyDumps } from "../../../src/py/json.ts";
import { pyJsonLoads } from "../../../src/py/json-loads.ts";
import { isPyDict, type PyDict, PyFloat, type PyValue } from "../../../src/py/value.ts";
import { Environment } from "../../../src/replay/environment.ts";
import { DATA_DIR, SHARED_DIR } from "../../helpers/data.ts";

export { DATA_DIR };

// ---- reference data ----

export interface BankingGoldVector {
  readonly after_init: { readonly agent: string; readonly user: string };
  readonly gold_target: { readonly agent: string; readonly user: string };
  readonly gold_action_results: readonly string[];
  readonly gold_action_outputs: readonly string[];
  readonly gold_action_requestors: readonly string[];
  readonly gold_action_agent_hash_after: readonly string[];
  readonly gold_action_tool_meta: readonly {
    readonly tool_type: string;
    readonly mutates_state: boolean;
    readonly discoverable: boolean;
  }[];
  readonly read_log_allowlist: readonly string[];
  readonly reward_basis: readonly string[];
}

export interface BankingVectors {
  readonly initial_db_hashes: Record<string, { readonly agent: string; readonly user: string }>;
  readonly gold: Record<string, BankingGoldVector>;
  readonly gold_tasks_json_variants: Record<string, BankingGoldVector>;
}

let vectors: BankingVectors | undefined;
/** tau2-banking-vectors.json: tau2's own replays of every task's gold actions. */
export function bankingVectors(): BankingVectors {
  vectors ??= JSON.parse(
    readFileSync(join(SHARED_DIR, "vectors/tau2-banking-vectors.json"), "utf8"),
  ) as BankingVectors;
  return vectors;
}

export const bankingData = () => loadDomainData(DATA_DIR, bankingDomain);

/** The domain's folder in tau2's data dir (db.json, tasks/). */
export const DOMAIN_DIR = join(DATA_DIR, "domains", "banking_knowledge");

/** The flat `tasks.json` tau2 does not load (four tasks differ from `tasks/`). */
export const FLAT_TASKS_PATH = join(DOMAIN_DIR, "tasks.json");

export function taskSetPath(name: string): string {
  const ref = listTaskSets(DATA_DIR, "banking_knowledge").find((s) => s.name === name);
  if (ref === undefined) throw new Error(`no banking task set ${name}`);
  return ref.path;
}

let tasks: readonly Task[] | undefined;
/** tau2's `get_tasks("banking_knowledge")`: `tasks/task_*.json`. */
export function bankingTasks(): readonly Task[] {
  tasks ??= loadTaskFile(taskSetPath("head"));
  return tasks;
}

export const bankingContext = (quirks: Quirks = TAU2_QUIRKS): GradingContext =>
  new GradingContext(bankingData(), quirks);

// ---- calling tools ----

export const newEnv = (): ToolEnv => ({ shared: new Map(), quirks: TAU2_QUIRKS });

const AGENT_DISCOVERABLE = new Map(agentDiscoverableTools.map((t) => [t.name, t]));

/** One of `KnowledgeTools`' discoverable tools, by name. */
export function discoverableTool(name: string): DiscoverableTool {
  const t = AGENT_DISCOVERABLE.get(name);
  if (t === undefined) throw new Error(`no discoverable agent tool ${name}`);
  return t;
}

/** `json.loads(json.dumps(v), parse_int=float)`: every number becomes a float. */
export function floatNumbers(v: PyValue): PyValue {
  if (typeof v === "number" || typeof v === "bigint") return new PyFloat(Number(v));
  if (Array.isArray(v)) return v.map(floatNumbers);
  if (isPyDict(v)) {
    const out: PyDict = {};
    for (const k of Object.keys(v)) out[k] = floatNumbers(v[k] as PyValue);
    return out;
  }
  return v;
}

/**
 * Calls a discoverable tool directly (tau2's `get_response` on the method's name), with the
 * arguments `call_discoverable_agent_tool` would pass it: a raised TypeError is `error: true`, not
 * the dispatcher's "Invalid arguments" (for that, `dispatch`).
 */
export const callAgentTool = (db: DbState, name: string, args: PyDict, env = newEnv()): CallOutcome =>
  invoke("KnowledgeTools", discoverableTool(name), db, floatNumbers(args), env);

export interface Response {
  readonly content: string;
  /** tau2's ToolMessage.error: the call raised (a returned "Error: ..." string is not an error). */
  readonly error: boolean;
  /** How the call ended: returned, TypeError (caught by the dispatcher), or another exception. */
  readonly kind: "ok" | "typeerror" | "raised";
}

/**
 * The body of `call_discoverable_agent_tool` after the unlock check, on parsed arguments: a TypeError
 * (binding or body) becomes "Invalid arguments", any other exception is raised (rendered `Error: ...`).
 */
export function dispatch(name: string, db: DbState, args: PyValue, env = newEnv()): Response {
  const t = discoverableTool(name);
  try {
    const bound = bindArguments("KnowledgeTools", t, args);
    return { content: renderToolOutput(t.run(db, bound, env)), error: false, kind: "ok" };
  } catch (e) {
    if (!(e instanceof PyException)) throw e;
    // bindArguments raises CPython's binding TypeError texts as a plain PyException.
    if (e instanceof PyTypeError || /^KnowledgeTools\.\w+\(\) /.test(e.message)) {
      return { content: `Error: Invalid arguments: ${e.message}`, error: false, kind: "typeerror" };
    }
    return { content: `Error: ${e.message}`, error: true, kind: "raised" };
  }
}

/** `call_discoverable_agent_tool` on JSON argument text: `json.loads(arguments, parse_int=float)`. */
export const dispatchJson = (name: string, db: DbState, argumentsJson: string, env = newEnv()): Response =>
  dispatch(name, db, pyJsonLoads(argumentsJson, { parseIntAsFloat: true }), env);

/** tau2's test helper `call_discoverable_agent(env, tool, arguments)` (`json.dumps` of a dict), minus the unlock. */
export const callAgent = (
  db: DbState,
  name: string,
  args: Record<string, unknown>,
  env = newEnv(),
): Response => dispatchJson(name, db, JSON.stringify(args), env);

/** A user tool call (tau2 `get_response` with requestor "user"). */
export function callUser(db: DbState, name: string, args: PyValue, env: ToolEnv = newEnv()): CallOutcome {
  const tool = bankingUserTools.tools.get(name);
  if (tool === undefined) return { content: `Error: Tool '${name}' not found.`, error: true };
  return invoke(bankingUserTools.className, tool, db, args, env);
}

/**
 * What the agent's `give_discoverable_user_tool` writes to the DB (tau2 tools.py): one
 * `{tool_name, status: "GIVEN"}` record keyed by `generate_user_discoverable_tool_id(name)`.
 */
export function give(db: DbState, toolName: string): void {
  const id = generateUserDiscoverableToolId(toolName);
  if (!db.has("user_discoverable_tools", id)) {
    db.put("user_discoverable_tools", id, { tool_name: toolName, status: "GIVEN" });
  }
}

/** tau2's `call_discoverable_user` test helper: give, then call through the dispatcher. */
export function callDiscoverableUser(db: DbState, toolName: string, argumentsJson: string): CallOutcome {
  give(db, toolName);
  return callUser(db, "call_discoverable_user_tool", {
    discoverable_tool_name: toolName,
    arguments: argumentsJson,
  });
}

// ---- the full environment (`_create_test_environment` / conftest `create_environment`) ----

/** The agent and user toolkits over one DB and a fresh toolkit session. */
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

/** tau2's `call_discoverable_agent` helper: unlock, then call. */
export function callDiscoverableAgent(env: Environment, tool: string, args: PyDict): CallOutcome {
  const unlocked = call(env, "unlock_discoverable_agent_tool", { agent_tool_name: tool });
  if (unlocked.error) throw new Error(`Failed to unlock ${tool}: ${unlocked.content}`);
  return call(env, "call_discoverable_agent_tool", { agent_tool_name: tool, arguments: jsonArgs(args) });
}

// ---- reading back ----

/** A record as the DB holds it now (read-only). */
export const rec = (db: DbState, table: string, id: string): PyDict => db.get(table, id) as PyDict;

/** `environment.tools.db.<table>.data[id]`. */
export const record = (env: Environment, table: string, id: string): PyDict => rec(env.agent, table, id);

/** `len(db.<table>.data)`. */
export const tableSize = (env: Environment, table: string): number => env.agent.keys(table).length;

/** `environment.tools.db.<table>.data[id][field] = value` in a test's setup. */
export function setField(db: DbState, table: string, id: string, field: string, value: PyValue): void {
  db.mut(table, id)[field] = value;
}

/** A record as a plain comparable value (floats as `{float: v}` so int/float differences show). */
export function typed(v: PyValue | undefined): unknown {
  if (v instanceof PyFloat) return { float: v.v };
  if (Array.isArray(v)) return v.map(typed);
  if (isPyDict(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, typed(x)]));
  return v;
}
