/** The airline port against tau2's own results: initial DB hash and every gold replay. */
import { describe, expect, it } from "vitest";
import { airlineDomain } from "../../../src/domains/airline/index.ts";
import { DbState } from "../../../src/domains/db-state.ts";
import { TAU2_QUIRKS } from "../../../src/domains/quirks.ts";
import { invoke } from "../../../src/domains/toolkit.ts";
import { airlineBase, loadTasks, referenceVectors, TASK_FILES } from "./data.ts";

const env = () => ({ shared: new Map<string, unknown>(), quirks: TAU2_QUIRKS });

describe("airline DB", () => {
  it("hashes the freshly loaded db.json like tau2", () => {
    expect(DbState.of(airlineBase()).hash()).toBe(referenceVectors().initial_db_hashes.airline?.agent);
  });

  it("re-validating its own dump changes nothing", () => {
    const state = DbState.of(airlineBase());
    const again = airlineDomain.agentDbFromPlain(JSON.parse(JSON.stringify(state.dump())));
    expect(DbState.of(again).hash()).toBe(state.hash());
  });
});

describe.each(Object.keys(TASK_FILES) as (keyof typeof TASK_FILES)[])("gold replay %s", (version) => {
  it("reproduces every gold action outcome and target hash", () => {
    const vectors = referenceVectors();
    const initial = DbState.of(airlineBase());
    const tasks = loadTasks(TASK_FILES[version]);
    const mismatches: string[] = [];
    let checked = 0;
    let changingTasks = 0;
    for (const task of tasks) {
      const expected = vectors.gold[`${version}/airline/${task.id}`];
      if (expected === undefined) continue;
      checked++;
      const state = initial.fork();
      const results = task.actions.map((a) => {
        const tool = airlineDomain.agentTools.tools.get(a.name);
        if (tool === undefined) return `Error: Tool '${a.name}' not found.`;
        const out = invoke("AirlineTools", tool, state, a.arguments, env());
        return out.error ? out.content : "ok";
      });
      const hash = state.hash();
      if (expected.gold_target.agent !== expected.after_init.agent) changingTasks++;
      if (JSON.stringify(results) !== JSON.stringify(expected.gold_action_results)) {
        mismatches.push(`${task.id} results ${JSON.stringify(results)}`);
      }
      if (hash !== expected.gold_target.agent) mismatches.push(`${task.id} hash`);
    }
    expect(mismatches).toEqual([]);
    expect(checked).toBe(50);
    // Spec §10.4: gold actions change the DB in 26 HEAD and 30 v0.2.0 tasks, so writes are exercised.
    expect(changingTasks).toBe(version === "head" ? 26 : 30);
  });
});
