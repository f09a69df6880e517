/**
 * A grader from outside the package: τ³ with some reward components ignored (by default the NL
 * assertions, the one component that needs a judge). It reads τ³'s verdict and recomputes the reward
 * over the rest of the reward basis, so nothing is graded twice. An experiment runs it with
 *
 *   "grader_modules": ["examples/graders/tau3-lenient.ts"],
 *   "graders": ["tau3", "tau3_lenient"],
 *   "grader_config": { "tau3_lenient": { "ignore": ["COMMUNICATE"] } }
 *
 * and, without `comparisons`, compares it with τ³ (`comparedWith`).
 */
import { z } from "zod";
import { defineGrader } from "../../src/graders/grader.ts";
import type { Tau3Verdict } from "../../src/graders/tau3/evaluate.ts";
import { tau3Causes, tau3Components } from "../../src/graders/tau3/grader.ts";

const COMPONENTS = ["DB", "ENV_ASSERTION", "ACTION", "COMMUNICATE", "NL_ASSERTION"] as const;

interface LenientVerdict {
  readonly reward: number | null;
  readonly ignored: readonly string[];
  readonly tau3: Tau3Verdict;
}

export default defineGrader({
  id: "tau3_lenient",
  version: "tau3-lenient/1",
  label: "τ³, components ignored",
  description: "τ³'s reward recomputed over its reward basis without the ignored components",
  config: z.strictObject({ ignore: z.array(z.enum(COMPONENTS)).min(1).default(["NL_ASSERTION"]) }),
  requires: ["tau3"],
  reads: ["tau3"],
  comparedWith: { baseline: "tau3", order: 10 },
  load: (config): readonly string[] => config.ignore,
  grade: (_input, ignored, prior: { readonly tau3: Tau3Verdict }): LenientVerdict => {
    const v = prior.tau3;
    const kept = Object.entries(v.breakdown).filter(([name]) => !ignored.includes(name));
    // A premature end scores 0 whatever the components say; only an unjudged NL assertion is unknown.
    const unknown = v.reward === null && !ignored.includes("NL_ASSERTION");
    const reward = v.premature !== null ? 0 : unknown ? null : kept.reduce((r, [, s]) => r * s, 1);
    return { reward, ignored, tau3: v };
  },
  record: (v) => ({
    pass: v.reward === null ? null : v.reward === 1,
    reward: v.reward,
    dbMatch: v.tau3.db_match,
    notes: [],
    judgeFailure: null,
    components: tau3Components(v.tau3).map((c) =>
      v.ignored.includes(c.name) ? { ...c, inBasis: false } : c,
    ),
    causes: tau3Causes(v.tau3).filter((c) => !(c.kind === "component" && v.ignored.includes(c.reference))),
  }),
  json: (v) => ({ reward: v.reward, ignored: v.ignored }),
});
