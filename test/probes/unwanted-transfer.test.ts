/** An unwanted transfer is invisible to τ³ and caught by the requirement fixture. */
import { describe, expect, it } from "vitest";
import { causeLabel } from "../../src/graders/causes.ts";
import type { StructuredVerdict } from "../../src/graders/structured/grade.ts";
import { probe, taskSets } from "./helpers.ts";

const gating = (s: StructuredVerdict | null) => s?.causes.filter((c) => c.gates).map(causeLabel);

describe("unwanted-transfer", () => {
  it.each(taskSets("airline").map((s) => [s.name, s] as const))(
    "airline %s: probes only tasks whose fixture forbids transfers; 47 passes τ³ and fails structured",
    async (_name, set) => {
      const run = await probe(set, "unwanted-transfer");
      expect(run.verdicts.map((v) => v.task_id).sort()).toEqual(["35", "45", "47", "6"]);
      const v47 = run.verdicts.find((v) => v.task_id === "47");
      expect(v47?.verdicts.tau3?.reward).toBe(1);
      expect(v47?.verdicts.structured?.pass).toBe(false);
      expect(gating(v47?.verdicts.structured ?? null)).toEqual(["requirement:airline.47.no_transfer"]);
      for (const v of run.verdicts) {
        expect(v.verdicts.tau3?.reward).toBe(1);
        expect(gating(v.verdicts.structured ?? null)).toEqual([
          `requirement:airline.${v.task_id}.no_transfer`,
        ]);
      }
    },
  );

  it("banking head: only task_052, whose user declines a transfer; τ³ passes it, the structured grader fails it", async () => {
    const [head] = taskSets("banking_knowledge");
    if (head === undefined) throw new Error("no banking task set");
    const run = await probe(head, "unwanted-transfer");
    expect(
      run.verdicts.map((v) => [v.task_id, v.verdicts.tau3?.reward, gating(v.verdicts.structured ?? null)]),
    ).toEqual([["task_052", 1, ["requirement:banking_knowledge.task_052.no_transfer"]]]);
  });

  it("applies to no task of a domain without transfer prohibitions", async () => {
    for (const set of taskSets("telecom")) {
      const run = await probe(set, "unwanted-transfer");
      expect(run.verdicts).toEqual([]);
      expect(run.skipped.length).toBeGreaterThan(0);
    }
  });
});
