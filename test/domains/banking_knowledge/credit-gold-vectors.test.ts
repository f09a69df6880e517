/**
 * The credit/dispute tools against tau2's own gold replays (tau2-banking-vectors.json): every gold
 * call of one of these tools must give tau2's exact output text, and where we can rebuild the DB
 * state exactly it must also leave tau2's exact DB hash. The state is exact while every earlier gold
 * action is one of ours, an unlock, a plain log write (verified by the hash), or an action the
 * vectors show changed nothing; other parts' writes (open_bank_account, user tools, ...) end it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { creditDiscoverableTools } from "../../../src/domains/banking_knowledge/agent-tools/credit.ts";
import { addToDb } from "../../../src/domains/banking_knowledge/db-query.ts";
import type { DiscoverableTool } from "../../../src/domains/banking_knowledge/discoverable.ts";
import { bankingDbFromPlain } from "../../../src/domains/banking_knowledge/schema.ts";
import {
  generateAgentDiscoverableToolId,
  generateUserDiscoverableToolId,
  generateVerificationId,
} from "../../../src/domains/banking_knowledge/utils.ts";
import { DbState } from "../../../src/domains/db-state.ts";
import { bindArguments, renderToolOutput, type ToolEnv } from "../../../src/domains/toolkit.ts";
import { PyException, PyTypeError } from "../../../src/py/errors.ts";
import { parsePyJson } from "../../../src/py/parse.ts";
import { deepClone, isPyDict, type PyDict, type PyValue } from "../../../src/py/value.ts";
import { DATA_DIR, SHARED_DIR } from "../../helpers/data.ts";
import { floatNumbers, newEnv } from "./credit-helpers.ts";

interface BankingGold {
  readonly after_init: { agent: string };
  readonly gold_action_outputs: readonly string[];
  readonly gold_action_agent_hash_after: readonly string[];
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
/** Tools no gold action calls (tested by the ported unit tests only). */
const NOT_IN_GOLD = [
  "example_agent_tool_0000",
  "set_debit_card_recurring_block_7382",
  "get_atm_deposit_images_8473",
];
const mine = new Map(creditDiscoverableTools.map((t) => [t.name, t]));

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
 * What `call_discoverable_agent_tool` does around the tool (the core part owns the real one): a
 * TypeError, from binding or from the body, becomes "Invalid arguments"; anything else propagates
 * (tau2's get_response renders it `Error: <message>`). Only a call that returned is logged.
 */
function dispatch(tool: DiscoverableTool, db: DbState, argsJson: string, env: ToolEnv) {
  const args = floatNumbers(parsePyJson(argsJson));
  let bound: ReturnType<typeof bindArguments>;
  try {
    bound = bindArguments("KnowledgeTools", tool, args);
  } catch (e) {
    return { content: `Error: Invalid arguments: ${(e as Error).message}`, returned: false };
  }
  try {
    return { content: renderToolOutput(tool.run(db, bound, env)), returned: true };
  } catch (e) {
    if (e instanceof PyTypeError)
      return { content: `Error: Invalid arguments: ${e.message}`, returned: false };
    if (e instanceof PyException) return { content: `Error: ${e.message}`, returned: false };
    throw e;
  }
}

/**
 * The DB write of a gold action from another part of the port, where it is a plain log record:
 * log_verification, give_discoverable_user_tool, and the dispatcher's record of another part's
 * discoverable tool. Whether it was the whole effect is decided by the vectors' hash.
 */
function logWrite(action: PyDict, db: DbState): void {
  const a = action.arguments as PyDict;
  if (action.name === "log_verification") {
    const fields = ["name", "user_id", "address", "email", "phone_number", "date_of_birth", "time_verified"];
    const record: PyDict = Object.fromEntries(fields.map((f) => [f, a[f] as PyValue]));
    addToDb("verification_history", generateVerificationId(a.user_id, a.time_verified), record, db);
  } else if (action.name === "give_discoverable_user_tool") {
    const name = a.discoverable_tool_name as string;
    addToDb(
      "user_discoverable_tools",
      generateUserDiscoverableToolId(name),
      { tool_name: name, status: "GIVEN" },
      db,
    );
  } else if (action.name === "call_discoverable_agent_tool") {
    const name = a.agent_tool_name as string;
    addToDb(
      "agent_discoverable_tools",
      generateAgentDiscoverableToolId(name),
      { tool_name: name, status: "CALLED" },
      db,
    );
  }
}

describe("credit/dispute tools against tau2's gold vectors", () => {
  it("reproduce the output text of every gold call, and the DB hash wherever the state is exact", () => {
    const problems: string[] = [];
    let checked = 0;
    let unchecked = 0;
    const seenTools = new Set<string>();
    for (const file of taskFiles) {
      const task = parsePyJson(readFileSync(join(domainDir, "tasks", file), "utf8")) as PyDict;
      const id = task.id as string;
      const gold = vectors.gold[`head/banking_knowledge/${id}`];
      if (gold === undefined) {
        problems.push(`${id}: no vector`);
        continue;
      }
      let db = initialState(task);
      expect(db.hash(), `${id} after init`).toBe(gold.after_init.agent);
      const env = newEnv();
      let exact = true;
      let previous = gold.after_init.agent;
      const actions = ((task.evaluation_criteria as PyDict).actions ?? []) as PyDict[];
      actions.forEach((action, i) => {
        const expectedHash = gold.gold_action_agent_hash_after[i] as string;
        const args = action.arguments as PyDict;
        const toolName =
          action.name === "call_discoverable_agent_tool" ? (args.agent_tool_name as string) : "";
        const tool = mine.get(toolName);
        if (tool !== undefined) {
          const out = dispatch(tool, db, (args.arguments as string | undefined) ?? "{}", env);
          // The dispatcher's log record, written only after the tool returned.
          if (out.returned && (tool.mutates === true || gold.read_log_allowlist.includes(toolName))) {
            const record = { tool_name: toolName, status: "CALLED" };
            addToDb("agent_discoverable_tools", generateAgentDiscoverableToolId(toolName), record, db);
          }
          if (exact) checked++;
          else unchecked++;
          seenTools.add(toolName);
          if (out.content !== gold.gold_action_outputs[i])
            problems.push(
              `${id}#${i} ${toolName}: output\n${out.content}\n--- expected ---\n${gold.gold_action_outputs[i]}`,
            );
          if (exact && db.hash() !== expectedHash) problems.push(`${id}#${i} ${toolName}: DB hash differs`);
        } else if (expectedHash !== previous) {
          const trial = db.fork();
          logWrite(action, trial);
          // Another part's write we cannot rebuild: from here on only output texts are compared.
          if (trial.hash() !== expectedHash) exact = false;
          db = trial;
        }
        previous = expectedHash;
      });
    }
    expect(problems).toEqual([]);
    // Coverage: all 184 gold calls of these tools, 110 of them with an exact (hash-checked) state.
    expect({ checked, unchecked, tools: [...seenTools].sort() }).toEqual({
      checked: 110,
      unchecked: 74,
      tools: creditDiscoverableTools
        .map((t) => t.name)
        .filter((n) => !NOT_IN_GOLD.includes(n))
        .sort(),
    });
  });
});
