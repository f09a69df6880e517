/**
 * A fork's evaluation rule, `evaluation_criteria.acceptable_outcomes` (docs/tau2.md, "Acceptable
 * outcomes"): the simulation is evaluated against each outcome as if the outcome were the task's
 * criteria; an outcome is met when that evaluation's reward is above 0, and the match is the met
 * outcome with the highest `reward` (the first in list order on ties). Here: the task copies, the
 * choice of the match, and what the recorded reward says about the rule the file was graded by.
 */

import { isRecord } from "../../formats/loaders/raw.ts";
import type { AcceptableOutcome, Simulation, Task } from "../../formats/model.ts";
import { assertionsToJudge, type NlJudge, type NlJudgement } from "./nl.ts";

/** What tau2's `RewardInfo` says when no outcome is met (the fork's note, verbatim). */
export const NO_OUTCOME_MATCHED = "No acceptable outcome matched";

/** One outcome's evaluation: the whole τ³ verdict of the task copy whose criteria are the outcome. */
export interface OutcomeEvaluation<V> {
  readonly outcome: AcceptableOutcome;
  readonly task: Task;
  readonly verdict: V;
  /** The fork's test: the evaluation's reward is above 0; null when that reward is unknown. */
  readonly met: boolean | null;
}

export interface OutcomeChoice<V> {
  readonly evaluations: readonly OutcomeEvaluation<V>[];
  /** The met outcome with the highest reward, the first on ties; null when none is. */
  readonly matched: OutcomeEvaluation<V> | null;
  /** Outcomes of unknown evaluation that would have been the match had they been met. */
  readonly undecided: readonly OutcomeEvaluation<V>[];
}

const copies = new WeakMap<Task, readonly Task[]>();

/**
 * The task once per outcome, with the outcome as its evaluation criteria (as the fork builds it). One
 * list per task object: graders and the grading context key their caches on task objects.
 */
export function outcomeTasks(task: Task): readonly Task[] {
  const outcomes = task.evaluation_criteria?.acceptable_outcomes ?? null;
  if (outcomes === null) return [];
  let hit = copies.get(task);
  if (hit === undefined) {
    hit = outcomes.map((outcome) => ({ ...task, evaluation_criteria: outcome }));
    copies.set(task, hit);
  }
  return hit;
}

/**
 * The fork's choice: a met outcome replaces the best so far only with a strictly higher reward, and
 * the best starts at 0 (so a met outcome whose reward is 0 is never the match). An outcome whose
 * evaluation is unknown leaves the choice open when, met, it would have won.
 */
export function chooseOutcome<V>(evaluations: readonly OutcomeEvaluation<V>[]): OutcomeChoice<V> {
  let matched: OutcomeEvaluation<V> | null = null;
  for (const e of evaluations)
    if (e.met === true && e.outcome.reward > (matched?.outcome.reward ?? 0)) matched = e;
  const at = matched === null ? evaluations.length : evaluations.indexOf(matched);
  const undecided = evaluations.filter((e, i) => {
    if (e.met !== null || e.outcome.reward <= 0) return false;
    if (matched === null) return true;
    return (
      e.outcome.reward > matched.outcome.reward || (e.outcome.reward === matched.outcome.reward && i < at)
    );
  });
  return { evaluations, matched, undecided };
}

const shownReward = (r: number): string => String(r);

/** `8_outcome_A (reward 1): Optimal outcome: …`. */
export const outcomeLabel = (o: AcceptableOutcome): string =>
  `${o.outcome_id} (reward ${shownReward(o.reward)})${o.description === null ? "" : `: ${o.description}`}`;

/**
 * The recorded verdict's matched outcome: its `info.matched_outcome_id`, null where it records the
 * fork's "none matched" note, undefined where it says neither.
 */
function recordedMatch(sim: Simulation): string | null | undefined {
  const raw = sim.reward_info?.raw;
  const info = isRecord(raw) && isRecord(raw.info) ? raw.info : null;
  if (info === null) return undefined;
  if (typeof info.matched_outcome_id === "string") return info.matched_outcome_id;
  return info.note === NO_OUTCOME_MATCHED ? null : undefined;
}

/**
 * Notes where the file's recorded verdict shows that another rule (or other data) graded it: it names
 * another matched outcome, says nothing of outcomes, or records a reward no outcome gives.
 */
export function recordedRuleNotes(
  sim: Simulation,
  outcomes: readonly AcceptableOutcome[],
  matched: AcceptableOutcome | null,
): string[] {
  const recorded = sim.reward_info;
  if (recorded === null) return [];
  const notes: string[] = [];
  const found = matched?.outcome_id ?? null;
  const match = recordedMatch(sim);
  if (match === undefined)
    notes.push(
      "the recorded verdict names no matched acceptable outcome (nor that none matched): the file was graded by another rule",
    );
  else if (match !== found)
    notes.push(
      `the recorded verdict matched ${match === null ? "no outcome" : `outcome ${match}`} where τ³ matches ${found === null ? "none" : found}: the file was graded by another rule or against other data`,
    );
  const reward = recorded.reward;
  if (reward !== null && reward !== 0 && !outcomes.some((o) => o.reward === reward))
    notes.push(
      `the recorded reward ${shownReward(reward)} is neither 0 nor the reward of any acceptable outcome: the file was graded by another rule`,
    );
  return notes;
}

/**
 * The NL judgement of the task and of every outcome's task copy, nested outcomes included, asked where
 * τ³ asks for the task (`assertionsToJudge`). Recorded verdicts are the matched outcome's at best: an
 * outcome whose assertions are not the recorded ones is unknown, never judged with another's.
 */
export async function judgeWithOutcomes(
  judge: NlJudge,
  task: Task,
  sim: Simulation,
): Promise<Map<Task, NlJudgement | null>> {
  const out = new Map<Task, NlJudgement | null>();
  const visit = async (t: Task, outcome: AcceptableOutcome | null): Promise<void> => {
    const assertions = assertionsToJudge(judge, t, sim);
    let nl = assertions === null ? null : await judge.judge(t, sim, assertions);
    if (outcome !== null && nl?.status === "judged" && judge.mode === "recorded") {
      const judged = nl.results.map((r) => r.assertion);
      if (judged.length !== assertions?.length || judged.some((a, i) => a !== assertions[i]))
        nl = {
          status: "unknown",
          reason: `the recorded NL assertion verdicts are not for outcome ${outcome.outcome_id}'s assertions`,
        };
    }
    out.set(t, nl);
    const outcomes = t.evaluation_criteria?.acceptable_outcomes ?? [];
    const copies = outcomeTasks(t);
    for (let i = 0; i < copies.length; i++) await visit(copies[i] as Task, outcomes[i] as AcceptableOutcome);
  };
  await visit(task, null);
  return out;
}
