/**
 * NL assertions are judged by an LLM in tau2. The port never guesses: a judgement comes from a
 * judge (recorded verdicts, an HTTP endpoint) or the component is `unknown`.
 */
import type { Simulation, Task } from "../../formats/model.ts";
import type { JudgmentCache } from "./judge/cache.ts";
import type { JudgeStats } from "./judge/stats.ts";

export interface NlAssertionResult {
  readonly assertion: string;
  readonly met: boolean;
  readonly justification: string | null;
}

/** Where a live judgement came from, for audit and reproduction. */
export interface JudgeProvenance {
  readonly model: string;
  /** The `judgments` cache key of the reply (sha256 of the exact request). */
  readonly cacheKey: string;
  readonly cached: boolean;
  /** Why tau2 scored a reply that judged less than it was asked (`degenerate_judge_reply`), or null. */
  readonly degenerate: string | null;
}

export type NlJudgement =
  | {
      readonly status: "judged";
      readonly source: string;
      readonly results: readonly NlAssertionResult[];
      readonly provenance?: JudgeProvenance;
    }
  | {
      readonly status: "unknown";
      readonly reason: string;
      /** The judge was asked and failed (a re-run asks again), as opposed to never being asked. */
      readonly failed?: boolean;
    };

/** One simulation's assertions, to judge. */
export interface JudgeRequest {
  readonly task: Task;
  readonly sim: Simulation;
  readonly assertions: readonly string[];
}

/**
 * Which simulations a live judge is asked about: `tau2`, only where tau2 calls its judge (NL_ASSERTION
 * in the reward basis, the conversation ended normally); `all`, also outside the basis (for analysis).
 * Recorded verdicts cost nothing and are read wherever there are assertions.
 */
export type JudgeScope = "tau2" | "all";

export interface NlJudge {
  readonly mode: "recorded" | "http" | "none";
  readonly scope: JudgeScope;
  /** Judges `assertions` for one simulation. Async so a remote judge fits the same interface. */
  judge(task: Task, sim: Simulation, assertions: readonly string[]): Promise<NlJudgement>;
  /** Starts judging ahead, concurrently; `judge` then waits for the same request. */
  prefetch?(requests: readonly JudgeRequest[]): void;
  /** Counts for the end-of-command summary (live judges). */
  readonly stats?: JudgeStats;
  /** Replies by request (live judges): a run loads its store's into it and saves the new ones. */
  readonly cache?: JudgmentCache;
}

const NORMAL_END = new Set(["agent_stop", "user_stop"]);

/** The assertions to ask the judge about for one simulation, or null where it is not asked. */
export function assertionsToJudge(judge: NlJudge, task: Task, sim: Simulation): readonly string[] | null {
  const criteria = task.evaluation_criteria;
  const assertions = criteria?.nl_assertions ?? [];
  if (criteria == null || assertions.length === 0) return null;
  if (judge.mode === "recorded" || judge.mode === "none") return assertions; // free: read, not asked
  // A premature end scores 0 before any component (tau2 returns early): a judgement would go unread.
  if (!NORMAL_END.has(sim.termination_reason)) return null;
  return judge.scope === "all" || criteria.reward_basis.includes("NL_ASSERTION") ? assertions : null;
}

export const noJudge: NlJudge = {
  mode: "none",
  scope: "all",
  judge: async () => ({ status: "unknown", reason: "no NL judge configured (--judge none)" }),
};

/** Re-uses the verdicts stored in the trajectory's `reward_info.nl_assertions`. */
export const recordedJudge: NlJudge = {
  mode: "recorded",
  scope: "all",
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
