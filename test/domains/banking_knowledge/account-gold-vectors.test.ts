/**
 * The bank-account and debit-card tools against tau2's own gold replays (tau2-banking-vectors.json):
 * every gold call of one of these tools reached with an exactly rebuilt DB state must give tau2's
 * exact output text and leave tau2's exact DB hash (dispatcher log record included).
 *
 * The state stays exact while each earlier gold action is one of ours, a log_verification, an action
 * the vectors show changed nothing, or a credit/dispute tool call or plain user tool call (other parts
 * of the port) whose resulting hash matches tau2's; a task stops being checked at the first other write.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { accountDiscoverableTools } from "../../../src/domains/banking_knowledge/agent-tools/accounts.ts";
import { creditDiscoverableTools } from "../../../src/domains/banking_knowledge/agent-tools/credit.ts";
import { addToDb } from "../../../src/domains/banking_knowledge/db-query.ts";
import type { DiscoverableTool } from "../../../src/domains/banking_knowledge/discoverable.ts";
import { bankingDbFromPlain } from "../../../src/domains/banking_knowledge/schema.ts";
import { bankingUserTools } from "../../../src/domains/banking_knowledge/user-tools.ts";
import {
  generateAgentDiscoverableToolId,
  generateVerificationId,
} from "../../../src/domains/banking_knowledge/utils.ts";
import { DbState } from "../../../src/domains/db-state.ts";
import { bindArguments, invoke, renderToolOutput, type ToolEnv } from "../../../src/domains/toolkit.ts";
import { PyException, PyTypeError } from "../../../src/py/errors.ts";
import { pyJsonLoads } from "../../../src/py/json-loads.ts";
import { parsePyJson } from "../../../src/py/parse.ts";
import { deepClone, isPyDict, type PyDict, type PyValue } from "../../../src/py/value.ts";
import { DATA_DIR, SHARED_DIR } from "../../helpers/data.ts";
import { newEnv } from "./account-helpers.ts";

interface BankingGold {
  readonly after_init: { agent: string };
  readonly gold_action_results: readonly string[];
  readonly gold_action_outputs: readonly string[];
  readonly gold_action_agent_hash_after: readonly string[];
  readonly gold_action_tool_meta: readonly { tool_type: string; mutates_state: boolean }[];
  readonly read_log_allowlist: readonly string[];
}

const vectors = JSON.parse(readFileSync(join(SHARED_DIR, "vectors/tau2-banking-vectors.json"), "utf8")) as {
  gold: Record<string, BankingGold>;
};
const domainDir = join(DATA_DIR, "domains", "banking_knowledge");
const basePlain = parsePyJson(readFileSync(join(domainDir, "db.json"), "utf8"));
const taskFiles = readdirSync(join(domainDir, "tasks"))
  .filter((f) => /^task_.*\.json$/.test(f))
  .sort();
const mine = new Map(accountDiscoverableTools.map((t) => [t.name, t]));
const others = new Map(creditDiscoverableTools.map((t) => [t.name, t]));

/** addict's `Dict.update`: nested dicts merge key by key, anything else replaces. */
function addictMerge(target: PyDict, update: PyDict): void {
  for (const k of Object.keys(update)) {
    const v = update[k] as PyValue;
    const cur = target[k];
    if (isPyDict(cur) && isPyDict(v)) addictMerge(cur, v);
    else target[k] = deepClone(v);
  }
}

function initialState(task: PyDict): DbState {
  const plain = deepClone(basePlain) as PyDict;
  const agentData = ((task.initial_state as PyDict | null)?.initialization_data as PyDict | null)?.agent_data;
  if (isPyDict(agentData)) addictMerge(plain, agentData);
  return DbState.of(bankingDbFromPlain(plain));
}

/**
 * `call_discoverable_agent_tool` after its unlock check (the core part owns the real one): arguments
 * via `json.loads(..., parse_int=float)`, a TypeError (binding or body) → "Invalid arguments", another
 * exception → tau2's `Error: <message>` result; a call that returned is logged when it mutates or is
 * in the task's read-log allow-list.
 */
function dispatch(
  tool: DiscoverableTool,
  db: DbState,
  argsJson: string,
  allow: readonly string[],
  env: ToolEnv,
) {
  const args = pyJsonLoads(argsJson, { parseIntAsFloat: true });
  let content: string;
  let returned = false;
  try {
    const bound = bindArguments("KnowledgeTools", tool, args);
    content = renderToolOutput(tool.run(db, bound, env));
    returned = true;
  } catch (e) {
    if (!(e instanceof PyException)) throw e;
    const typeError = e instanceof PyTypeError || /^KnowledgeTools\.\w+\(\) /.test(e.message);
    content = typeError ? `Error: Invalid arguments: ${e.message}` : `Error: ${e.message}`;
  }
  if (returned && (tool.mutates === true || allow.includes(tool.name))) {
    const record = { tool_name: tool.name, status: "CALLED" };
    addToDb("agent_discoverable_tools", generateAgentDiscoverableToolId(tool.name), record, db);
  }
  return content;
}

function logVerification(a: PyDict, db: DbState): void {
  const record: PyDict = {};
  for (const k of ["name", "user_id", "address", "email", "phone_number", "date_of_birth", "time_verified"]) {
    record[k] = a[k] as PyValue;
  }
  addToDb("verification_history", generateVerificationId(a.user_id, a.time_verified), record, db);
}

describe("account/debit tools against tau2's gold vectors", () => {
  it("reproduce the output text and DB hash of every gold call reached with an exact state", () => {
    const problems: string[] = [];
    const checked = new Map<string, number>();
    const unreached = new Map<string, number>();
    for (const file of taskFiles) {
      const task = parsePyJson(readFileSync(join(domainDir, "tasks", file), "utf8")) as PyDict;
      const id = task.id as string;
      const gold = vectors.gold[`head/banking_knowledge/${id}`];
      if (gold === undefined) {
        problems.push(`${id}: no vector`);
        continue;
      }
      const db = initialState(task);
      expect(db.hash(), `${id} after init`).toBe(gold.after_init.agent);
      const env = newEnv();
      let exact = true;
      let previous = gold.after_init.agent;
      const actions = ((task.evaluation_criteria as PyDict).actions ?? []) as PyDict[];
      actions.forEach((action, i) => {
        const expectedHash = gold.gold_action_agent_hash_after[i] as string;
        const args = action.arguments as PyDict;
        const name = action.name === "call_discoverable_agent_tool" ? (args.agent_tool_name as string) : "";
        const argsJson = (args.arguments as string | undefined) ?? "{}";
        const own = mine.get(name);
        if (own !== undefined) {
          if (!exact) {
            unreached.set(name, (unreached.get(name) ?? 0) + 1);
          } else {
            const content = dispatch(own, db, argsJson, gold.read_log_allowlist, env);
            checked.set(name, (checked.get(name) ?? 0) + 1);
            if (content !== gold.gold_action_outputs[i]) {
              problems.push(
                `${id}#${i} ${name}: output\n${content}\n--- expected ---\n${gold.gold_action_outputs[i]}`,
              );
            }
            if (db.hash() !== expectedHash) {
              problems.push(`${id}#${i} ${name}: DB hash differs`);
              exact = false;
            }
          }
        } else if (exact && others.has(name)) {
          dispatch(others.get(name) as DiscoverableTool, db, argsJson, gold.read_log_allowlist, env);
          if (db.hash() !== expectedHash) exact = false;
        } else if (
          exact &&
          action.requestor === "user" &&
          bankingUserTools.tools.has(action.name as string)
        ) {
          const userTool = bankingUserTools.tools.get(action.name as string);
          if (userTool !== undefined) invoke("KnowledgeUserTools", userTool, db, args, env, false);
          if (db.hash() !== expectedHash) exact = false;
        } else if (exact && action.name === "log_verification") {
          logVerification(args, db);
          if (db.hash() !== expectedHash) exact = false;
        } else if (expectedHash !== previous) {
          exact = false;
        }
        previous = expectedHash;
      });
    }
    expect(problems).toEqual([]);
    const total = [...checked.values()].reduce((a, b) => a + b, 0);
    const coverage = JSON.stringify({
      checked: Object.fromEntries(checked),
      unreached: Object.fromEntries(unreached),
    });
    // Coverage guard: the bulk of these tools' gold calls run on an exact state.
    expect(total, coverage).toBeGreaterThanOrEqual(270);
  });
});
