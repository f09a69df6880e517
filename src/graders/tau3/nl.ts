/**
 * NL assertions are judged by an LLM in tau2. The port never guesses: a judgement comes from a
 * judge (recorded verdicts, an HTTP endpoint) or the component is `unknown`.
 */
import type { Simulation, Task } from "../../formats/model.ts";

export interface NlAssertionResult {
  readonly assertion: string;
  readonly met: boolean;
  readonly justification: string | null;
}

export type NlJudgement =
  | { readonly status: "judged"; readonly source: string; readonly results: readonly NlAssertionResult[] }
  | { readonly status: "unknown"; readonly reason: string };

export interface NlJudge {
  readonly mode: "recorded" | "http" | "none";
  /** Judges `assertions` for one simulation. Async so a remote judge fits the same interface. */
  judge(task: Task, sim: Simulation, assertions: readonly string[]): Promise<NlJudgement>;
}

export const noJudge: NlJudge = {
  mode: "none",
  judge: async () => ({ status: "unknown", reason: "no NL judge configured (--judge none)" }),
};

/** Re-uses the verdicts stored in the trajectory's `reward_info.nl_assertions`. */
export const recordedJudge: NlJudge = {
  mode: "recorded",
  async judge(_task, sim) {
    const recorded = sim.reward_info?.nl_assertions ?? null;
    if (recorded === null)
      return { status: "unknown", reason: "the trajectory has no recorded NL assertion verdicts" };
    return {
      status: "judged",
      source: "recorded",
      results: recorded.map((r) => ({
        assertion: r.nl_assertion,
        met: r.met,
        justification: r.justification ?? null,
      })),
    };
  },
};

/** tau2's NL reward: 1 iff every returned result is met (an empty result list scores 1). */
export const nlReward = (j: NlJudgement): number | null =>
  j.status === "judged" ? (j.results.every((r) => r.met) ? 1 : 0) : null;
