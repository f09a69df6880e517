/**
 * A null agent passes τ³ on airline exactly where the gold writes nothing (computed here from the
 * gold replay hashes), except where the task asks the agent to say something.
 */
import { describe, expect, it } from "vitest";
import { ctxOf, probe, taskSets, tasksOf } from "./helpers.ts";

/** Tasks without a DB write where a null agent still fails τ³: the reason, pinned. */
const SAYS_SOMETHING: Record<string, string> = {
  "3": 'COMMUNICATE: communicate_info ["4"] is never said',
};

describe("null-agent on airline", () => {
  it.each(taskSets("airline").map((s) => [s.name, s] as const))("%s", async (_name, set) => {
    const ctx = ctxOf("airline");
    const tasks = tasksOf(set);
    const noWrite = [...tasks.values()]
      .filter((t) => {
        const { gold } = ctx.taskArtifacts(t);
        return gold.env.agent.hash() === gold.initial.agent.hash();
      })
      .map((t) => t.id);
    const run = await probe(set, "null-agent");
    const passing = run.verdicts.filter((v) => v.verdicts.tau3?.reward === 1).map((v) => v.task_id);
    expect(passing.sort()).toEqual(noWrite.filter((id) => !(id in SAYS_SOMETHING)).sort());
    for (const id of Object.keys(SAYS_SOMETHING)) {
      expect(noWrite).toContain(id);
      const v = run.verdicts.find((x) => x.task_id === id);
      expect(v?.verdicts.tau3?.components.DB).toBe(1);
      expect(v?.verdicts.tau3?.components.COMMUNICATE).toBe(0);
    }
    // The structured grader agrees with τ³ here: doing nothing breaks no prohibition and writes nothing.
    expect(
      run.verdicts
        .filter((v) => v.verdicts.structured?.pass === true)
        .map((v) => v.task_id)
        .sort(),
    ).toEqual(passing.sort());
  });
});
