/** The τ³ component grader as a registry value: tau2's `evaluate_simulation`, ported exactly. */
import type { RewardType } from "../../formats/model.ts";
import { z } from "../../util/zod.ts";
import { type Cause, cause } from "../causes.ts";
import type { Evidence } from "../evidence.ts";
import { type ComponentRecord, defineGrader, type VerdictRecord } from "../grader.ts";
import { causesJson } from "../json.ts";
import { gradeTau3, type Tau3Verdict } from "./evaluate.ts";
import type { NlJudgement } from "./nl.ts";
import { judgeWithOutcomes, NO_OUTCOME_MATCHED, type OutcomeEvaluation, outcomeLabel } from "./outcomes.ts";

/** Why a basis component scored 0, one evidence item per failed check. */
function componentEvidence(v: Tau3Verdict, component: RewardType): Evidence[] {
  switch (component) {
    case "DB": {
      const out: Evidence[] = [];
      if (v.env?.agentDbMatch === false)
        out.push({ code: "db.agent", message: "the agent DB after replay differs from the gold end state" });
      if (v.env?.userDbMatch === false)
        out.push({ code: "db.user", message: "the user DB after replay differs from the gold end state" });
      return out;
    }
    case "ENV_ASSERTION":
      return (v.env?.envAssertions ?? [])
        .filter((a) => !a.met)
        .map((a) => ({
          code: "env_assertion.unmet",
          message: `env assertion ${a.index} (${a.func_name} on the ${a.env_type} environment) was not met`,
        }));
    case "ACTION":
      return (v.action?.checks ?? [])
        .filter((c) => !c.met)
        .map((c) => ({
          code: "action.unmatched",
          message: `gold action ${c.action.action_id} (${c.action.name}) was never called with matching arguments`,
          toolName: c.action.name,
          arguments: c.action.arguments,
        }));
    case "COMMUNICATE":
      return (v.communicate?.checks ?? [])
        .filter((c) => !c.met)
        .map((c) => ({ code: "communicate.missing", message: `the agent never said "${c.info}"` }));
    case "NL_ASSERTION":
      return v.nl?.status === "judged"
        ? v.nl.results
            .filter((r) => !r.met)
            .map((r) => ({
              code: "nl_assertion.unmet",
              message: `NL assertion not met: "${r.assertion}"`,
              ...(r.justification === null ? {} : { excerpt: r.justification }),
            }))
        : [];
  }
}

/** Why one outcome was not met: a line naming it, then its evaluation's evidence, each naming it too. */
function unmetOutcomeEvidence(e: OutcomeEvaluation<Tau3Verdict>): Evidence[] {
  const id = e.outcome.outcome_id;
  const failed = tau3Causes(e.verdict);
  const why =
    e.met === true
      ? "met, but a reward of 0 scores nothing"
      : failed.length > 0
        ? failed.map((c) => c.message).join("; ")
        : `its evaluation scored ${e.verdict.reward}`;
  const out: Evidence[] = [
    { code: "acceptable_outcome.unmet", message: `outcome ${outcomeLabel(e.outcome)} not matched: ${why}` },
  ];
  for (const c of failed)
    for (const ev of c.evidence) out.push({ ...ev, message: `outcome ${id}: ${ev.message}` });
  return out;
}

/** The reference of the `acceptable_outcome` cause when no outcome matched. */
export const NONE_MATCHED = "none_matched";

/**
 * A task graded by acceptable outcomes fails τ³ when none matched, or when the one matched scores below
 * 1; the evidence says why each outcome worth more was not met.
 */
function outcomeCauses(v: Tau3Verdict): Cause[] {
  const choice = v.outcomes;
  if (choice === null || choice.undecided.length > 0) return [];
  const { matched, evaluations } = choice;
  if (matched === null) {
    const evidence = evaluations.flatMap(unmetOutcomeEvidence);
    return [
      cause("acceptable_outcome", NONE_MATCHED, { gates: true, message: NO_OUTCOME_MATCHED, evidence }),
    ];
  }
  if (matched.outcome.reward === 1) return [];
  const better = evaluations.filter((e) => e !== matched && e.outcome.reward > matched.outcome.reward);
  return [
    cause("acceptable_outcome", matched.outcome.outcome_id, {
      gates: true,
      message: `matched acceptable outcome ${outcomeLabel(matched.outcome)}: below 1, so not a pass`,
      evidence: better.flatMap(unmetOutcomeEvidence),
    }),
  ];
}

/** The basis components that scored 0, the premature termination, or the acceptable outcomes missed. */
export function tau3Causes(v: Tau3Verdict): Cause[] {
  if (v.premature !== null)
    return [
      cause("premature_termination", v.premature, {
        gates: true,
        message: v.notes[0] ?? `terminated: ${v.premature}`,
      }),
    ];
  const out: Cause[] = [];
  for (const c of outcomeCauses(v)) out.push(c);
  for (const [component, score] of Object.entries(v.breakdown) as [RewardType, number][]) {
    if (score !== 0) continue;
    out.push(
      cause("component", component, {
        gates: true,
        message: `${component} scored 0`,
        evidence: componentEvidence(v, component),
      }),
    );
  }
  return out;
}

export function tau3Components(v: Tau3Verdict): ComponentRecord[] {
  const basis = new Set(v.basis ?? []);
  return (Object.entries(v.components) as [RewardType, number | null][]).map(([name, score]) => ({
    name,
    score,
    inBasis: basis.has(name),
    vacuous: v.vacuous[name],
  }));
}

/** Why the live judge failed on this verdict (asked, no usable reply), or null. */
export const judgeFailureOf = (v: Tau3Verdict): string | null =>
  v.nl?.status === "unknown" && v.nl.failed === true ? v.nl.reason : null;

export const tau3Record = (v: Tau3Verdict): VerdictRecord => ({
  pass: v.reward === null ? null : v.reward === 1,
  reward: v.reward,
  dbMatch: v.db_match,
  notes: v.notes,
  judgeFailure: judgeFailureOf(v),
  components: tau3Components(v),
  causes: tau3Causes(v),
});

export const tau3Json = (v: Tau3Verdict) => ({
  reward: v.reward,
  basis: v.basis,
  components: v.components,
  vacuous: (Object.keys(v.vacuous) as RewardType[]).filter((k) => v.vacuous[k]),
  db_match: v.db_match,
  breakdown: v.breakdown,
  notes: v.notes,
  causes: causesJson(tau3Causes(v)),
  nl: nlJson(v.nl),
  // Only for a task graded by acceptable outcomes, so that every other verdict reads as it always did.
  ...(v.outcomes === null ? {} : outcomesJson(v.outcomes)),
});

/** The matched outcome (null when none, or when it is unknown) and each outcome's evaluation. */
function outcomesJson(choice: NonNullable<Tau3Verdict["outcomes"]>) {
  const matched = choice.undecided.length > 0 ? null : choice.matched;
  return {
    matched_outcome:
      matched === null
        ? null
        : {
            id: matched.outcome.outcome_id,
            description: matched.outcome.description,
            reward: matched.outcome.reward,
          },
    outcomes: choice.evaluations.map((e) => ({
      id: e.outcome.outcome_id,
      reward: e.outcome.reward,
      met: e.met,
      evaluation: { reward: e.verdict.reward, basis: e.verdict.basis, breakdown: e.verdict.breakdown },
    })),
  };
}

/** The NL judgement as `grade --format jsonl` shows it: every assertion's verdict and where it came from. */
function nlJson(nl: NlJudgement | null) {
  if (nl === null) return null;
  if (nl.status === "unknown") return { status: nl.status, reason: nl.reason, failed: nl.failed === true };
  return {
    status: nl.status,
    source: nl.source,
    ...(nl.provenance === undefined
      ? {}
      : {
          judge_model: nl.provenance.model,
          cache_key: nl.provenance.cacheKey,
          cached: nl.provenance.cached,
          degenerate_judge_reply: nl.provenance.degenerate,
        }),
    assertions: nl.results.map((r) => ({ assertion: r.assertion, met: r.met, reasoning: r.justification })),
  };
}

export const tau3Grader = defineGrader({
  id: "tau3",
  // 2: acceptable outcomes (a fork's rule) decide the verdict of the tasks that list them.
  version: "tau3-port@tau2-a2c0247/2",
  label: "τ³",
  description:
    "tau2's evaluate_simulation ported exactly: replay, DB hash and every component of the reward basis",
  // Its settings (judge, quirks, fallback task set) are the run's shared ones; see `spec.ts`.
  config: z.strictObject({}),
  requires: [],
  comparedWith: { baseline: "recorded", order: 3 },
  reads: [],
  load: () => null,
  async grade(input): Promise<Tau3Verdict> {
    const { task, sim, judge } = input;
    const judged = await judgeWithOutcomes(judge, task, sim);
    return gradeTau3(input.ctx, task, sim, {
      solo: input.solo,
      nl: judged.get(task) ?? null,
      nlOf: (t) => judged.get(t) ?? null,
      recordWrites: input.recordWrites,
    });
  },
  record: tau3Record,
  json: tau3Json,
});
