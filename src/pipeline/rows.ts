/** JSON projections of verdicts for `tau-rescore grade` output lines. */
import type { RewardType } from "../formats/model.ts";
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
