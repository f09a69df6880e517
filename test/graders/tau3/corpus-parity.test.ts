/**
 * The τ³ port against tau2's own evaluator on every recorded corpus simulation: reward, db_match,
 * reward breakdown and every per-check boolean must equal the oracle's `corpus_verdicts`.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TAU2_QUIRKS } from "../../../src/domains/quirks.ts";
import { loadTrajectoryFile } from "../../../src/formats/load.ts";
import { detectTaskVersion } from "../../../src/formats/task-version.ts";
import { recordedJudge } from "../../../src/graders/tau3/nl.ts";
import { ContextPool } from "../../../src/pipeline/contexts.ts";
import { gradeFile } from "../../../src/pipeline/grade.ts";
import { CORPUS_DIR, type CorpusVerdict, DATA_DIR, referenceVectors } from "../../helpers/data.ts";

const vectors = referenceVectors();
// One pool for the whole corpus in file order, like one tau2 process re-grading file after file.
const pool = new ContextPool(DATA_DIR, TAU2_QUIRKS);

describe.each(Object.keys(vectors.corpus_verdicts))("τ³ parity %s", (rel) => {
  it("reproduces tau2's verdict for every simulation", async () => {
    const expected = vectors.corpus_verdicts[rel] as CorpusVerdict[];
    const file = loadTrajectoryFile(join(CORPUS_DIR, rel));
    const version = detectTaskVersion(file, DATA_DIR);
    const got = new Map<string, unknown>();
    for await (const g of gradeFile(file, version, pool, {
      judge: recordedJudge,
      fallbackTaskVersion: "head",
    })) {
      const v = g.tau3;
      got.set(g.row.simulation_id ?? "?", {
        error: g.row.error ?? null,
        reward: v?.reward ?? null,
        db_match: v?.db_match ?? null,
        reward_breakdown: v === null ? null : v.breakdown,
        env_assertions: v?.env?.envAssertions.map((c) => c.met) ?? [],
        communicate_checks: v?.communicate?.checks?.map((c) => c.met) ?? [],
        action_checks: v?.action?.checks?.map((c) => c.met) ?? [],
      });
    }
    const diffs: string[] = [];
    for (const e of expected) {
      const want = {
        error: e.error,
        reward: e.reward,
        db_match: e.db_match,
        reward_breakdown: e.reward_breakdown ?? {},
        env_assertions: e.env_assertions ?? [],
        communicate_checks: e.communicate_checks ?? [],
        action_checks: e.action_checks ?? [],
      };
      const have = got.get(e.id);
      if (JSON.stringify(have) !== JSON.stringify(want))
        diffs.push(`${e.id} (task ${e.task_id}): got ${JSON.stringify(have)} want ${JSON.stringify(want)}`);
    }
    expect(diffs).toEqual([]);
    expect(got.size).toBe(expected.length);
  });
});
