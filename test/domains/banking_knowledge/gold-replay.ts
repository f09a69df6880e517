/**
 * Replaying tau2's gold actions tool by tool, outside the environment: each task's DB rebuilt from
 * db.json and its initialization data, and discoverable tools dispatched as
 * `call_discoverable_agent_tool` does after its unlock check. The account/debit and credit/dispute
 * gold-vector tests check their own tools on it; `dispatchGold` and `logWrite` advance the state.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { addToDb } from "../../../src/domains/banking_knowledge/db-query.ts";
import type { DiscoverableTool } from "../../../src/domains/banking_knowledge/discoverable.ts";
import { bankingAgentTools } from "../../../src/domains/banking_knowledge/index.ts";
import { bankingDbFromPlain } from "../../../src/domains/banking_knowledge/schema.ts";
import {
  generateAgentDiscoverableToolId,
  generateUserDiscoverableToolId,
} from "../../../src/domains/banking_knowledge/utils.ts";
import { DbState } from "../../../src/domains/db-state.ts";
import {
  bindArguments,
  invoke,
  mutatesState,
  renderToolOutput,
  type ToolDef,
  type ToolEnv,
} from "../../../src/domains/toolkit.ts";
import { PyException, PyTypeError } from "../../../src/py/errors.ts";
import { pyJsonLoads } from "../../../src/py/json-loads.ts";
import { parsePyJson } from "../../../src/py/parse.ts";
import { deepClone, isPyDict, type PyDict, type PyValue } from "../../../src/py/value.ts";
import { type BankingGoldVector, bankingVectors, DOMAIN_DIR, newEnv } from "./helpers.ts";

const LOG_VERIFICATION = bankingAgentTools.tools.get("log_verification") as ToolDef;

export interface GoldTask {
  readonly id: string;
  readonly task: PyDict;
  /** Undefined when the vectors lack the task (a test reports it). */
  readonly gold: BankingGoldVector | undefined;
  readonly actions: readonly PyDict[];
}

/** Every `tasks/task_*.json` in file-name order, with its gold vector. */
export function goldTasks(): GoldTask[] {
  const vectors = bankingVectors();
  return readdirSync(join(DOMAIN_DIR, "tasks"))
    .filter((f) => /^task_.*\.json$/.test(f))
    .sort()
    .map((file) => {
      const task = parsePyJson(readFileSync(join(DOMAIN_DIR, "tasks", file), "utf8")) as PyDict;
      const id = task.id as string;
      const actions = ((task.evaluation_criteria as PyDict).actions ?? []) as PyDict[];
      return { id, task, gold: vectors.gold[`head/banking_knowledge/${id}`], actions };
    });
}

export interface GoldReplay {
  readonly id: string;
  readonly gold: BankingGoldVector;
  readonly actions: readonly PyDict[];
  /** The task's initial state, checked against the vectors' `after_init` hash. */
  readonly db: DbState;
  readonly env: ToolEnv;
}

/**
 * `goldTasks` ready to replay, one at a time: a task without a vector is reported in `problems` and
 * skipped.
 */
export function* goldReplays(problems: string[]): Generator<GoldReplay> {
  for (const { id, task, gold, actions } of goldTasks()) {
    if (gold === undefined) {
      problems.push(`${id}: no vector`);
      continue;
    }
    const db = initialState(task);
    expect(db.hash(), `${id} after init`).toBe(gold.after_init.agent);
    yield { id, gold, actions, db, env: newEnv() };
  }
}

/** The discoverable tool a gold action dispatches (`agent_tool_name`), or "" for any other action. */
export const dispatchedName = (action: PyDict): string =>
  action.name === "call_discoverable_agent_tool"
    ? ((action.arguments as PyDict).agent_tool_name as string)
    : "";

/** The `arguments` JSON text of a dispatched call. */
export const dispatchedArgs = (action: PyDict): string =>
  ((action.arguments as PyDict).arguments as string | undefined) ?? "{}";

/** addict's `Dict.update`: nested dicts merge key by key, anything else replaces. */
function addictMerge(target: PyDict, update: PyDict): void {
  for (const k of Object.keys(update)) {
    const v = update[k] as PyValue;
    const cur = target[k];
    if (isPyDict(cur) && isPyDict(v)) addictMerge(cur, v);
    else target[k] = deepClone(v);
  }
}

let basePlain: PyValue | undefined;

/** db.json with the task's `initialization_data.agent_data` merged in. */
export function initialState(task: PyDict): DbState {
  basePlain ??= parsePyJson(readFileSync(join(DOMAIN_DIR, "db.json"), "utf8"));
  const plain = deepClone(basePlain) as PyDict;
  const agentData = ((task.initial_state as PyDict | null)?.initialization_data as PyDict | null)?.agent_data;
  if (isPyDict(agentData)) addictMerge(plain, agentData);
  return DbState.of(bankingDbFromPlain(plain));
}

/**
 * `call_discoverable_agent_tool` after its unlock check: arguments via `json.loads(..., parse_int=float)`,
 * a TypeError (binding or body) → "Invalid arguments", another exception → tau2's `Error: <message>`
 * result. A call that returned is logged when it mutates or is in the task's read-log allow-list.
 */
export function dispatchGold(
  tool: DiscoverableTool,
  db: DbState,
  argsJson: string,
  allow: readonly string[],
  env: ToolEnv,
): { readonly content: string; readonly returned: boolean } {
  const args = pyJsonLoads(argsJson, { parseIntAsFloat: true });
  let content: string;
  let returned = false;
  try {
    const bound = bindArguments("KnowledgeTools", tool, args);
    content = renderToolOutput(tool.run(db, bound, env));
    returned = true;
  } catch (e) {
    if (!(e instanceof PyException)) throw e;
    // bindArguments raises CPython's binding TypeError texts as a plain PyException.
    const typeError = e instanceof PyTypeError || /^KnowledgeTools\.\w+\(\) /.test(e.message);
    content = typeError ? `Error: Invalid arguments: ${e.message}` : `Error: ${e.message}`;
  }
  if (returned && (mutatesState(tool) || allow.includes(tool.name))) {
    const record = { tool_name: tool.name, status: "CALLED" };
    addToDb("agent_discoverable_tools", generateAgentDiscoverableToolId(tool.name), record, db);
  }
  return { content, returned };
}

/**
 * The DB write of a gold action from elsewhere in the port where it is a plain log record:
 * log_verification (the tool itself), give_discoverable_user_tool, and the dispatcher's record of a
 * discoverable tool. Whether it was the action's whole effect is for the vectors' hash to say.
 */
export function logWrite(action: PyDict, db: DbState): void {
  const a = action.arguments as PyDict;
  if (action.name === "log_verification") {
    invoke("KnowledgeTools", LOG_VERIFICATION, db, a, newEnv(), false);
  } else if (action.name === "give_discoverable_user_tool") {
    const name = a.discoverable_tool_name as string;
    const record = { tool_name: name, status: "GIVEN" };
    addToDb("user_discoverable_tools", generateUserDiscoverableToolId(name), record, db);
  } else if (action.name === "call_discoverable_agent_tool") {
    const name = a.agent_tool_name as string;
    const record = { tool_name: name, status: "CALLED" };
    addToDb("agent_discoverable_tools", generateAgentDiscoverableToolId(name), record, db);
  }
}
