/**
 * The credit/dispute tools against tau2's own gold replays (tau2-banking-vectors.json): every gold
 * call of one of these tools must give tau2's exact output text, and where we can rebuild the DB
 * state exactly it must also leave tau2's exact DB hash. The state is exact while every earlier gold
 * action is one of ours, an unlock, a plain log write (verified by the hash), or an action the
 * vectors show changed nothing; other parts' writes (open_bank_account, user tools, ...) end it.
 */
import { describe, expect, it } from "vitest";
import { creditDiscoverableTools } from "../../../src/domains/banking_knowledge/agent-tools/credit.ts";
import { dispatchedArgs, dispatchedName, dispatchGold, goldReplays, logWrite } from "./gold-replay.ts";

/** Tools no gold action calls (tested by the ported unit tests only). */
const NOT_IN_GOLD = [
  "example_agent_tool_0000",
  "set_debit_card_recurring_block_7382",
  "get_atm_deposit_images_8473",
];
const mine = new Map(creditDiscoverableTools.map((t) => [t.name, t]));

describe("credit/dispute tools against tau2's gold vectors", () => {
  it("reproduce the output text of every gold call, and the DB hash wherever the state is exact", () => {
    const problems: string[] = [];
    let checked = 0;
    let unchecked = 0;
    const seenTools = new Set<string>();
    for (const replay of goldReplays(problems)) {
      const { id, gold, actions, env } = replay;
      let db = replay.db;
      let exact = true;
      let previous = gold.after_init.agent;
      actions.forEach((action, i) => {
        const expectedHash = gold.gold_action_agent_hash_after[i] as string;
        const toolName = dispatchedName(action);
        const tool = mine.get(toolName);
        if (tool !== undefined) {
          // The dispatcher's log record is written only after the tool returned.
          const out = dispatchGold(tool, db, dispatchedArgs(action), gold.read_log_allowlist, env);
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
