/** The paired views are per comparison: each reads its two sides by the grader ids the run stores. */
import { afterEach, describe, expect, it } from "vitest";
import type { VerdictStore } from "../../src/store/store.ts";
import { query, type SyntheticSim, syntheticStore } from "./synthetic-store.ts";

let store: VerdictStore | undefined;
afterEach(() => store?.close());

const sim = (
  model: string,
  task: string,
  tau3: boolean,
  structured: boolean,
  recorded?: number,
): SyntheticSim => ({
  model,
  task,
  tau3,
  structured,
  ...(recorded === undefined ? {} : { recorded }),
});

const BOTH = [
  { baseline: "tau3", candidate: "structured" },
  { baseline: "recorded", candidate: "tau3" },
];

describe("comparisons", () => {
  it("count each comparison's flips from its own two sides, the recorded reward as a verdict", async () => {
    store = await syntheticStore(
      [
        sim("A", "t1", true, false, 1), // tau3 → structured: pass → fail
        sim("A", "t2", true, true, 0), // recorded → tau3: fail → pass
        sim("A", "t3", false, false, 1), // recorded → tau3: pass → fail
        sim("A", "t4", true, true, 1),
      ],
      { comparisons: BOTH },
    );
    expect(
      await query(
        store,
        "SELECT comparison, task_id, direction, failing_grader FROM flips ORDER BY comparison, task_id",
      ),
    ).toEqual([
      {
        comparison: "recorded-vs-tau3",
        task_id: "t2",
        direction: "fail_to_pass",
        failing_grader: "recorded",
      },
      { comparison: "recorded-vs-tau3", task_id: "t3", direction: "pass_to_fail", failing_grader: "tau3" },
      {
        comparison: "tau3-vs-structured",
        task_id: "t1",
        direction: "pass_to_fail",
        failing_grader: "structured",
      },
    ]);
    expect(
      await query(
        store,
        `SELECT comparison, comparison_seq, paired, pass_to_fail, fail_to_pass, with_baseline_reward, same_reward
         FROM comparison_summary WHERE domain = 'all' ORDER BY comparison_seq`,
      ),
    ).toEqual([
      {
        comparison: "tau3-vs-structured",
        comparison_seq: 1,
        paired: 4,
        pass_to_fail: 1,
        fail_to_pass: 0,
        with_baseline_reward: 4,
        same_reward: 3,
      },
      {
        comparison: "recorded-vs-tau3",
        comparison_seq: 2,
        paired: 4,
        pass_to_fail: 1,
        fail_to_pass: 1,
        with_baseline_reward: 4,
        same_reward: 2,
      },
    ]);
    // A flip's causes are the failing side's: the structured grader's requirement for t1, none of the
    // recorded reward's, and τ³ (which has no causes in this store) for t3.
    expect(await query(store, "SELECT comparison, task_id, grader, cause_kind FROM flip_causes")).toEqual([
      { comparison: "tau3-vs-structured", task_id: "t1", grader: "structured", cause_kind: "requirement" },
    ]);
    expect(await query(store, "SELECT comparison, b, c FROM mcnemar ORDER BY comparison")).toEqual([
      { comparison: "recorded-vs-tau3", b: 1, c: 1 },
      { comparison: "tau3-vs-structured", b: 1, c: 0 },
    ]);
  });

  it("rank under each comparison's sides and give each its own τ-b", async () => {
    // tau3: A 1.0 > B 0.5; structured: A 0.0 < B 0.5 (swapped); recorded: A 1.0 > B 0.0 (agrees with tau3).
    store = await syntheticStore(
      [
        sim("A", "t1", true, false, 1),
        sim("A", "t2", true, false, 1),
        sim("B", "t1", true, true, 0),
        sim("B", "t2", false, false, 0),
      ],
      { comparisons: BOTH },
    );
    expect(await query(store, "SELECT comparison, tau_b FROM kendall_tau_b ORDER BY comparison")).toEqual([
      { comparison: "recorded-vs-tau3", tau_b: 1 },
      { comparison: "tau3-vs-structured", tau_b: -1 },
    ]);
    expect(await query(store, "SELECT comparison, model_a, model_b FROM swapped_pairs")).toEqual([
      { comparison: "tau3-vs-structured", model_a: "A [agent]", model_b: "B [agent]" },
    ]);
    expect(await query(store, "SELECT DISTINCT grader FROM ranking ORDER BY grader")).toEqual([
      { grader: "recorded" },
      { grader: "structured" },
      { grader: "tau3" },
    ]);
  });

  it("leave an excluded task out of every headline number and ranking, and list it with its reason", async () => {
    const sims = [sim("A", "t1", true, false), sim("A", "t2", true, true), sim("B", "t1", true, false)];
    const reason = "gold actions contradict the policy";
    store = await syntheticStore(sims, { excludeTasks: [{ task: "t1", reason }] });
    expect(await query(store, "SELECT task_id, reason, simulations FROM excluded_tasks")).toEqual([
      { task_id: "t1", reason, simulations: 2 },
    ]);
    expect(
      await query(store, "SELECT paired, pass_to_fail FROM comparison_summary WHERE domain = 'all'"),
    ).toEqual([{ paired: 1, pass_to_fail: 0 }]);
    expect(await query(store, "SELECT DISTINCT task_id FROM ranking_tasks")).toEqual([{ task_id: "t2" }]);
    // The flips stay listed, marked excluded with the task's reason, as an excluded file's are.
    expect(
      await query(store, "SELECT task_id, excluded, exclusion_reason FROM flips ORDER BY model"),
    ).toEqual([
      { task_id: "t1", excluded: true, exclusion_reason: reason },
      { task_id: "t1", excluded: true, exclusion_reason: reason },
    ]);
  });
});
