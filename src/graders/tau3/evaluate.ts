/**
 * The τ³ component grader: a port of tau2's `evaluate_simulation(ALL, strict_replay=False)`.
 * Every component is computed (and reported) whatever the basis; the reward multiplies only the
 * basis members, in tau2's fixed order.
 */
import type { AcceptableOutcome, RewardType, Simulation, Task } from "../../formats/model.ts";
import { ReplayAbort } from "../../replay/errors.ts";
import type { GradingContext } from "../context.ts";
import { type ActionResult, evaluateActions } from "./action.ts";
import { type CommunicateResult, evaluateCommunicate } from "./communicate.ts";
import { type EnvironmentResult, evaluateEnvironment } from "./environment.ts";
import { type NlJudgement, nlReward } from "./nl.ts";
import {
  chooseOutcome,
  NO_OUTCOME_MATCHED,
  type OutcomeChoice,
  type OutcomeEvaluation,
  outcomeLabel,
  outcomeTasks,
  recordedRuleNotes,
} from "./outcomes.ts";

export type ComponentScores = Record<RewardType, number | null>;

export interface Tau3Verdict {
  /**
   * 0 or 1; null when a basis component could not be judged (NL with no judge). A task with acceptable
   * outcomes scores its matched outcome's reward, which may lie between.
   */
  readonly reward: number | null;
  readonly basis: readonly RewardType[] | null;
  /** tau2's `reward_breakdown`, reproduced key for key. */
  readonly breakdown: Partial<Record<RewardType, number>>;
  /** Every component, in or out of the basis; null = not computable (see notes). */
  readonly components: ComponentScores;
  /** Components scored 1.0 only because there was nothing to check (tau2 gives these no evidence). */
  readonly vacuous: Readonly<Record<RewardType, boolean>>;
  readonly db_match: boolean | null;
  /** The termination reason when the simulation ended prematurely (reward 0, nothing else computed). */
  readonly premature: string | null;
  readonly notes: readonly string[];
  readonly env: EnvironmentResult | null;
  readonly action: ActionResult | null;
  readonly communicate: CommunicateResult | null;
  readonly nl: NlJudgement | null;
  /**
   * The task's acceptable outcomes, each evaluated, and the one matched (null for a task without
   * them). Where one matched, the fields above are its evaluation's, with its reward.
   */
  readonly outcomes: OutcomeChoice<Tau3Verdict> | null;
}

const NO_COMPONENTS: ComponentScores = {
  DB: null,
  ENV_ASSERTION: null,
  COMMUNICATE: null,
  ACTION: null,
  NL_ASSERTION: null,
};
const NONE_VACUOUS: Record<RewardType, boolean> = {
  DB: false,
  ENV_ASSERTION: false,
  COMMUNICATE: false,
  ACTION: false,
  NL_ASSERTION: false,
};

export interface Tau3Options {
  readonly solo: boolean;
  /** The NL judgement for this simulation, fetched beforehand (judges may be remote). */
  readonly nl: NlJudgement | null;
  /** Record the replay's write journal (for graders that attribute DB changes). Default false. */
  readonly recordWrites?: boolean;
  /** The NL judgement of each acceptable outcome's task copy (`outcomeTasks`), fetched beforehand. */
  readonly nlOf?: (outcomeTask: Task) => NlJudgement | null;
}

export function gradeTau3(ctx: GradingContext, task: Task, sim: Simulation, opts: Tau3Options): Tau3Verdict {
  const empty = {
    env: null,
    action: null,
    communicate: null,
    nl: null,
    components: NO_COMPONENTS,
    vacuous: NONE_VACUOUS,
    breakdown: {},
    outcomes: null,
  };
  if (sim.termination_reason !== "agent_stop" && sim.termination_reason !== "user_stop") {
    const note = `Simulation terminated prematurely. Termination reason: ${sim.termination_reason}`;
    return {
      ...empty,
      reward: 0,
      basis: null,
      db_match: null,
      premature: sim.termination_reason,
      notes: [note],
    };
  }
  const criteria = task.evaluation_criteria;
  if (criteria === null)
    return {
      ...empty,
      reward: 1,
      basis: null,
      db_match: null,
      premature: null,
      notes: ["No evaluation criteria"],
    };
  if (criteria.acceptable_outcomes != null)
    return gradeOutcomes(ctx, task, sim, opts, criteria.acceptable_outcomes);

  const messages = sim.messages;
  const env = evaluateEnvironment(ctx, task, messages, opts.solo, opts.recordWrites ?? false);
  const action = evaluateActions(task, messages);
  const communicate = evaluateCommunicate(task, messages);
  const basis = new Set(criteria.reward_basis);
  const notes: string[] = [];

  const nlAssertions = criteria.nl_assertions ?? [];
  let nl: NlJudgement | null = null;
  let nlScore: number | null = null;
  if (nlAssertions.length === 0) {
    nlScore = 1; // tau2: "No nl_assertions to evaluate"
  } else if (opts.nl !== null) {
    nl = opts.nl;
    nlScore = nlReward(nl);
    if (nl.status === "unknown") notes.push(`NL_ASSERTION unknown: ${nl.reason}`);
    else if (nl.provenance?.degenerate != null)
      notes.push(`degenerate_judge_reply: ${nl.provenance.degenerate}`);
  } else if (basis.has("NL_ASSERTION")) {
    notes.push("NL_ASSERTION not judged");
  }

  const dbScore = env.dbMatch ? 1 : 0;
  const components: ComponentScores = {
    DB: dbScore,
    ENV_ASSERTION: env.envAssertionReward,
    COMMUNICATE: communicate.reward,
    ACTION: action.reward,
    NL_ASSERTION: nlScore,
  };

  const vacuous: Record<RewardType, boolean> = {
    // No gold actions and no env assertions: tau2 skips the replay and scores the environment 1.
    DB: env.vacuous,
    ENV_ASSERTION: (criteria.env_assertions ?? []).length === 0,
    COMMUNICATE: communicate.checks === null,
    ACTION: action.checks === null,
    NL_ASSERTION: nlAssertions.length === 0,
  };

  // Combine in tau2's order: env (DB, ENV_ASSERTION), ACTION, NL_ASSERTION, COMMUNICATE. An unknown
  // component leaves the reward unknown only if it could change it: a known 0 decides it.
  const breakdown: Partial<Record<RewardType, number>> = {};
  let known = 1;
  let unknown = false;
  const multiply = (r: number | null) => {
    if (r === null) unknown = true;
    else known *= r;
  };
  if (basis.has("DB") || basis.has("ENV_ASSERTION")) {
    // A vacuous env result carries no breakdown in tau2 (DB is then missing from the breakdown).
    if (!env.vacuous) {
      if (basis.has("DB")) breakdown.DB = dbScore;
      if (basis.has("ENV_ASSERTION")) breakdown.ENV_ASSERTION = env.envAssertionReward;
    }
    multiply(
      env.vacuous
        ? 1
        : (basis.has("DB") ? dbScore : 1) * (basis.has("ENV_ASSERTION") ? env.envAssertionReward : 1),
    );
  }
  if (basis.has("ACTION")) {
    breakdown.ACTION = action.reward;
    multiply(action.reward);
  }
  if (basis.has("NL_ASSERTION")) {
    if (nlScore !== null) breakdown.NL_ASSERTION = nlScore;
    multiply(nlScore);
  }
  if (basis.has("COMMUNICATE")) {
    breakdown.COMMUNICATE = communicate.reward;
    multiply(communicate.reward);
  }
  const reward = known === 0 ? 0 : unknown ? null : known;
  if (env.replay !== null && env.replay.skippedUnknown.length > 0) {
    notes.push(`replay skipped ${env.replay.skippedUnknown.length} call(s) to unknown tools`);
  }
  notes.push(...internalFaultNotes(env));
  return {
    reward,
    basis: criteria.reward_basis,
    breakdown,
    components,
    vacuous,
    db_match: env.dbMatch,
    premature: null,
    notes,
    env,
    action,
    communicate,
    nl,
    outcomes: null,
  };
}

/**
 * The fork's rule: each outcome evaluated as the task's criteria (the task copy's premature end was
 * checked already), and the verdict of the one matched, with its reward; see `outcomes.ts`.
 */
function gradeOutcomes(
  ctx: GradingContext,
  task: Task,
  sim: Simulation,
  opts: Tau3Options,
  outcomes: readonly AcceptableOutcome[],
): Tau3Verdict {
  // The fork's evaluator raises on an empty list: tau2 would grade no simulation of such a task.
  if (outcomes.length === 0)
    throw new ReplayAbort(
      "no acceptable outcomes provided for relaxed evaluation (an empty acceptable_outcomes list)",
      "evaluation_criteria.acceptable_outcomes",
    );
  const evaluations = outcomeTasks(task).map((copy, i): OutcomeEvaluation<Tau3Verdict> => {
    const verdict = gradeTau3(ctx, copy, sim, { ...opts, nl: opts.nlOf?.(copy) ?? null });
    return {
      outcome: outcomes[i] as AcceptableOutcome,
      task: copy,
      verdict,
      met: verdict.reward === null ? null : verdict.reward > 0,
    };
  });
  const choice = chooseOutcome(evaluations);
  const { matched, undecided } = choice;
  if (undecided.length > 0) {
    const open = undecided.map((e) => `${e.outcome.outcome_id} (${e.verdict.notes.join("; ")})`).join(", ");
    return {
      ...noMatch(choice),
      reward: null,
      basis: null,
      notes: [`the acceptable outcome is unknown: the evaluation of ${open} is unknown and could decide it`],
    };
  }
  const recorded = recordedRuleNotes(sim, outcomes, matched?.outcome ?? null);
  if (matched === null) return { ...noMatch(choice), notes: [NO_OUTCOME_MATCHED, ...recorded] };
  return {
    ...matched.verdict,
    reward: matched.outcome.reward,
    notes: [
      ...matched.verdict.notes,
      `matched acceptable outcome ${outcomeLabel(matched.outcome)}`,
      ...recorded,
    ],
    outcomes: choice,
  };
}

/** The fork's verdict when no outcome matched: reward 0 over tau2's default `RewardInfo` basis, no DB check. */
const noMatch = (choice: OutcomeChoice<Tau3Verdict>): Tau3Verdict => ({
  reward: 0,
  basis: ["DB"],
  breakdown: {},
  components: NO_COMPONENTS,
  vacuous: NONE_VACUOUS,
  db_match: null,
  premature: null,
  notes: [NO_OUTCOME_MATCHED],
  env: null,
  action: null,
  communicate: null,
  nl: null,
  outcomes: choice,
});

/**
 * A JS fault inside a ported tool ends as an `Error: ...` result like a Python exception would, so the
 * replay goes on as tau2's would; the verdict still says so, because the result may be wrong.
 */
function internalFaultNotes(env: EnvironmentResult): string[] {
  const notes: string[] = [];
  for (const f of env.replay?.internalFaults ?? [])
    notes.push(
      `internal fault in tool ${f.name} (call ${f.callId}, messages[${f.messageIndex}]): ${f.replayed.slice(0, 300)}`,
    );
  for (const g of env.goldResults)
    if (g.internal)
      notes.push(
        `internal fault in gold action ${g.action.action_id} (${g.action.name}): ${g.result.slice(0, 300)}`,
      );
  return notes;
}
