/** JSON projections of verdicts for `tau-rescore grade` output lines. */
import type { RewardType } from "../formats/model.ts";
import type { CorrectedTask } from "../graders/corrections/apply.ts";
import type { NlCuratedResult } from "../graders/corrections/nl-curated.ts";
import type { StructuredVerdict } from "../graders/structured/grade.ts";
import type { ComponentScores, Tau3Verdict } from "../graders/tau3/evaluate.ts";

export interface Tau3Json {
  readonly reward: number | null;
  readonly basis: readonly RewardType[] | null;
  readonly components: ComponentScores;
  readonly db_match: boolean | null;
  readonly breakdown: Partial<Record<RewardType, number>>;
  readonly notes: readonly string[];
}

export const tau3Json = (v: Tau3Verdict): Tau3Json => ({
  reward: v.reward,
  basis: v.basis,
  components: v.components,
  db_match: v.db_match,
  breakdown: v.breakdown,
  notes: v.notes,
});

export interface Tau3CorrectedJson extends Tau3Json {
  readonly overlay_version: string;
  readonly dropped_actions: readonly { readonly action_id: string; readonly reason: string }[];
  /** The curated NL list's score (never part of `reward`); null = unknown. */
  readonly nl_curated: {
    readonly score: number | null;
    readonly assertions: readonly string[];
    readonly note: string | null;
  } | null;
}

export const tau3CorrectedJson = (
  v: Tau3Verdict,
  c: CorrectedTask,
  nl: NlCuratedResult | null,
): Tau3CorrectedJson => ({
  ...tau3Json(v),
  overlay_version: c.overlayVersion,
  dropped_actions: c.droppedActions,
  nl_curated:
    nl === null
      ? null
      : {
          score: nl.score,
          assertions: nl.assertions.map((a) => a.assertion),
          note: nl.judgement.status === "unknown" ? nl.judgement.reason : null,
        },
});

/** The structured verdict as a JSON line: evidence kept, replayed environments left out. */
export const structuredJson = (v: StructuredVerdict) => ({
  pass: v.pass,
  causes: v.causes,
  preflight: {
    pass: v.preflight.pass,
    fixture: v.preflight.fixture,
    checked: v.preflight.checked,
    violations: v.preflight.violations,
    rejected_rules: v.preflight.rejected,
  },
  delta_gate: v.delta_gate.ran
    ? { pass: v.delta_gate.pass, fields: v.delta_gate.violations, in_footprint: v.delta_gate.inFootprint }
    : { pass: v.delta_gate.pass, fields: [], note: v.delta_gate.note },
  policy: v.policy,
  format_errors: v.format_errors,
  transfer: v.transfer,
  consistency: {
    status: v.consistency.status,
    note: v.consistency.note,
    task_users: v.consistency.taskUsers,
    conversation_users: v.consistency.conversationUsers,
    evidence: v.consistency.evidence,
  },
});
export type StructuredJson = ReturnType<typeof structuredJson>;
