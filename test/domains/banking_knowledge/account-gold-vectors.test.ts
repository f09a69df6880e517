/**
 * The bank-account and debit-card tools against tau2's own gold replays (tau2-banking-vectors.json):
 * every gold call of one of these tools reached with an exactly rebuilt DB state must give tau2's
 * exact output text and leave tau2's exact DB hash (dispatcher log record included).
 *
 * The state stays exact while each earlier gold action is one of ours, a log_verification, an action
 * the vectors show changed nothing, or a credit/dispute tool call or plain user tool call (other parts
 * of the port) whose resulting hash matches tau2's; a task stops being checked at the first other write.
 */
import { describe, expect, it } from "vitest";
import { accountDiscoverableTools } from "../../../src/domains/banking_knowledge/agent-tools/accounts.ts";
import { creditDiscoverableTools } from "../../../src/domains/banking_knowledge/agent-tools/credit.ts";
import type { DiscoverableTool } from "../../../src/domains/banking_knowledge/discoverable.ts";
import { bankingUserTools } from "../../../src/domains/banking_knowledge/user-tools.ts";
import { invoke } from "../../../src/domains/toolkit.ts";
import type { PyDict } from "../../../src/py/value.ts";
import { dispatchedArgs, dispatchedName, dispatchGold, goldReplays, logWrite } from "./gold-replay.ts";

const mine = new Map(accountDiscoverableTools.map((t) => [t.name, t]));
const others = new Map(creditDiscoverableTools.map((t) => [t.name, t]));

describe("account/debit tools against tau2's gold vectors", () => {
  it("reproduce the output text and DB hash of every gold call reached with an exact state", () => {
    const problems: string[] = [];
    const checked = new Map<string, number>();
    const unreached = new Map<string, number>();
    for (const { id, gold, actions, db, env } of goldReplays(problems)) {
      let exact = true;
      let previous = gold.after_init.agent;
      actions.forEach((action, i) => {
        const expectedHash = gold.gold_action_agent_hash_after[i] as string;
        const args = action.arguments as PyDict;
        const name = dispatchedName(action);
        const argsJson = dispatchedArgs(action);
        const own = mine.get(name);
        if (own !== undefined) {
          if (!exact) {
            unreached.set(name, (unreached.get(name) ?? 0) + 1);
          } else {
            const { content } = dispatchGold(own, db, argsJson, gold.read_log_allowlist, env);
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
          dispatchGold(others.get(name) as DiscoverableTool, db, argsJson, gold.read_log_allowlist, env);
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
          logWrite(action, db);
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
