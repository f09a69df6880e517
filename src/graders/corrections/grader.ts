/**
 * τ³ over the corrections overlay, as a registry value: the same port on corrected gold actions, plus
 * the curated NL list scored on its own as NL_CURATED (reported, never part of the reward).
 */
import type { FolderSource } from "../../util/layers.ts";
import { z } from "../../util/zod.ts";
import { type Cause, cause } from "../causes.ts";
import { contentRefSchema, folderRef, refLayers } from "../fingerprint.ts";
import { defineGrader, type VerdictRecord } from "../grader.ts";
import { causesJson } from "../json.ts";
import type { Tau3Verdict } from "../tau3/evaluate.ts";
import { judgeFailureOf, tau3Causes, tau3Components, tau3Json } from "../tau3/grader.ts";
import type { CorrectedTask } from "./apply.ts";
import type { NlCuratedResult } from "./nl-curated.ts";
import type { CorrectionsFile } from "./schema.ts";

export interface CorrectedVerdict {
  readonly task: CorrectedTask;
  readonly tau3: Tau3Verdict;
  /** Null when the overlay does not curate this task's NL assertions. */
  readonly nlCurated: NlCuratedResult | null;
}

export const correctionsConfig = z.strictObject({
  /** The overlay folder (`corrections/<domain>.json`) and the sha256 of its files. */
  overlays: contentRefSchema,
});
export type CorrectionsConfig = z.infer<typeof correctionsConfig>;

/** The overlay folder's content fingerprint (only `.json` files are overlays). */
export const overlaysRef = (source: FolderSource) => folderRef(source, (name) => name.endsWith(".json"));

function nlCuratedCauses(v: CorrectedVerdict): Cause[] {
  const nl = v.nlCurated;
  if (nl === null || nl.score !== 0 || nl.judgement.status !== "judged") return [];
  const unmet = nl.judgement.results.filter((r) => !r.met);
  return [
    cause("nl_curated", "NL_CURATED", {
      // Informational here: only the structured grader may gate on it.
      gates: false,
      message: `${unmet.length} curated NL assertion(s) not met`,
      evidence: unmet.map((r) => ({
        code: "nl_assertion.unmet",
        message: `curated NL assertion not met: "${r.assertion}"`,
        ...(r.justification === null ? {} : { excerpt: r.justification }),
      })),
    }),
  ];
}

const record = (v: CorrectedVerdict): VerdictRecord => {
  const nl = v.nlCurated;
  return {
    pass: v.tau3.reward === null ? null : v.tau3.reward === 1,
    reward: v.tau3.reward,
    dbMatch: v.tau3.db_match,
    notes: v.tau3.notes,
    judgeFailure: judgeFailureOf(v.tau3),
    components: [
      ...tau3Components(v.tau3),
      ...(nl === null
        ? []
        : [{ name: "NL_CURATED", score: nl.score, inBasis: false, vacuous: nl.assertions.length === 0 }]),
    ],
    causes: [...tau3Causes(v.tau3), ...nlCuratedCauses(v)],
  };
};

/** The overlays by domain, with the grading code that applies them (imported when the grader is selected). */
export interface LoadedCorrections {
  readonly overlays: ReadonlyMap<string, CorrectionsFile>;
  readonly engine: typeof import("./engine.ts");
}

export const tau3CorrectedGrader = defineGrader({
  id: "tau3_corrected",
  version: "tau3-port@tau2-a2c0247/2+corrections",
  label: "τ³ corrected",
  description:
    "τ³ with policy-violating gold actions dropped and NL assertions curated (corrections overlay)",
  config: correctionsConfig,
  requires: ["tau3"],
  comparedWith: { baseline: "tau3", order: 2 },
  reads: ["tau3"],
  configFrom: (c) => ({ overlays: overlaysRef(c.correctionsDir) }),
  load: async (config: CorrectionsConfig): Promise<LoadedCorrections> => {
    const engine = await import("./engine.ts");
    return { overlays: engine.loadCorrectionsDir(refLayers(config.overlays)), engine };
  },
  async grade(input, loaded, prior: { readonly tau3: Tau3Verdict }): Promise<CorrectedVerdict | null> {
    const overlay = loaded.overlays.get(input.domain.name);
    if (overlay === undefined) return null;
    const { correctTask, evaluateNlCurated, gradeTau3 } = loaded.engine;
    const fixed = correctTask(input.task, input.taskVersion, overlay);
    const tau3 =
      fixed.task === input.task
        ? prior.tau3
        : gradeTau3(input.ctx, fixed.task, input.sim, { solo: input.solo, nl: prior.tau3.nl });
    const nlCurated =
      fixed.curatedNl === null
        ? null
        : await evaluateNlCurated(input.judge, input.task, input.sim, fixed.curatedNl);
    return { task: fixed, tau3, nlCurated };
  },
  record,
  json: (v: CorrectedVerdict) => ({
    ...tau3Json(v.tau3),
    overlay_version: v.task.overlayVersion,
    dropped_actions: v.task.droppedActions,
    /** The curated NL list's score (never part of `reward`); null = unknown. */
    nl_curated:
      v.nlCurated === null
        ? null
        : {
            score: v.nlCurated.score,
            assertions: v.nlCurated.assertions.map((a) => a.assertion),
            note: v.nlCurated.judgement.status === "unknown" ? v.nlCurated.judgement.reason : null,
          },
    causes: causesJson(record(v).causes),
  }),
});
