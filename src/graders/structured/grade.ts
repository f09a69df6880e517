/**
 * The structured grader (grader B): τ³'s verdict AND the user's typed requirements AND the field-level
 * delta gate; policy rules, format errors, the curated NL list, task consistency and attempted
 * violations (`attempts.ts`) are always reported as causes and gate only when configured to. Pure:
 * (task, trajectory, context) → verdict.
 */
import { existsSync, readFileSync } from "node:fs";
import type { DomainDef } from "../../domains/domain.ts";
import type { Message, Simulation, Task } from "../../formats/model.ts";
import { groupBy } from "../../util/group-by.ts";
import { keyedCache } from "../../util/keyed-cache.ts";
import { type Cause, type CauseKind, cause } from "../causes.ts";
import { CONSISTENCY_CODE, type ConsistencyResult, checkConsistency } from "../consistency.ts";
import type { GradingContext } from "../context.ts";
import { actorAt, type Evidence } from "../evidence.ts";
import type { Tau3Verdict } from "../tau3/evaluate.ts";
import { tau3Causes } from "../tau3/grader.ts";
import { type Attempt, callEffect, clauseAttemptCauses, requirementAttemptCauses } from "./attempts.ts";
import type { AttributedField } from "./attribution.ts";
import { chargeCapCauses } from "./charges.ts";
import { policyPath } from "./clauses/documents.ts";
import { type ClauseFinding, policyFileFor } from "./clauses/evaluate.ts";
import type { ClauseSet } from "./clauses/load.ts";
import { type ClauseProblem, type VerifiedClause, verifyClauses } from "./clauses/verify.ts";
import type { TaskFactValue } from "./conditions/evaluate.ts";
import { NO_EXTRA_GATES, type StructuredGates } from "./gates.ts";
import { didTransfer, type HandoffLabel, type HandoffOverrides, labelTask } from "./handoff.ts";
import {
  findFormatErrors,
  POLICY_RULE_IDS,
  POLICY_RULES,
  type PolicyInput,
  type PolicyRuleId,
  runPolicyRules,
} from "./policy/index.ts";
import type { RequirementCheck, RequirementViolation } from "./requirements/evaluate.ts";
import type { RequirementSet } from "./requirements/load.ts";
import type { RuleProblem } from "./requirements/verify.ts";
import { requirementsFor, type SkippedFixture } from "./task-fixtures.ts";
import { clauseCauses, fieldCauses, noReferenceCause, undecidedClauseCauses } from "./write-causes.ts";
import { type DeltaGateOutcome, type GatedWrites, gateWrites, writesNotGated } from "./write-gate.ts";

/** The structured grader's loaded configuration. */
export interface StructuredOptions {
  readonly requirements: RequirementSet | null;
  /** Domain policy clauses (`policies/`), verified per domain and task version on first use. */
  readonly clauses: ClauseSet | null;
  readonly handoffOverrides: HandoffOverrides | null;
  readonly gates: StructuredGates;
}

export const DEFAULT_STRUCTURED_OPTIONS: StructuredOptions = {
  requirements: null,
  clauses: null,
  handoffOverrides: null,
  gates: NO_EXTRA_GATES,
};

export interface StructuredVerdict {
  /** Null when τ³'s verdict (or a gated curated NL list) is unknown and nothing else fails. */
  readonly pass: boolean | null;
  readonly tau3_pass: boolean | null;
  /** τ³'s DB match, carried for the store's `db_match` column. */
  readonly db_match: boolean | null;
  /** `pass` and `violations` count calls that took effect; `attempts` the rest (see `attempts.ts`). */
  readonly requirements: RequirementCheck & {
    readonly attempts: readonly RequirementAttempt[];
    readonly fixture: string | null;
    readonly rejected: readonly RuleProblem[];
  };
  readonly delta_gate: DeltaGateOutcome;
  /**
   * Every delta-gate field with the calls that wrote it (empty when nothing was replayed; without a
   * reference solution, every field the trajectory wrote, unjudged).
   */
  readonly fields: readonly AttributedField[];
  /** Policy clauses each replayed call broke or was licensed by. */
  readonly clauses: readonly ClauseFinding[];
  /** Clauses rejected for this domain and task version (they never grade). */
  readonly rejected_clauses: readonly ClauseProblem[];
  /** The task's verified facts (its requirement fixture's `task_facts`), which clauses and caps read. */
  readonly task_facts: readonly TaskFactValue[];
  readonly policy: Record<PolicyRuleId, Evidence[]>;
  readonly format_errors: readonly Evidence[];
  readonly transfer: { readonly should: 0 | 1; readonly did: boolean; readonly rule: HandoffLabel["rule"] };
  /** Whether the conversation is about the task's own user (see `consistency.ts`). */
  readonly consistency: ConsistencyResult;
  /** Every finding as a cause: the ones that fail the verdict first (`gates`), then the reported ones. */
  readonly causes: readonly Cause[];
  /** What was configured to fail the verdict. */
  readonly gates: StructuredGates;
  /** What this simulation could be checked against: the grader had less to check where these are few. */
  readonly coverage: StructuredCoverage;
}

export interface StructuredCoverage {
  /** Requirement fixtures that applied (the task's own, then the every-task one). */
  readonly fixtures: readonly string[];
  /** Verified task facts the clauses and caps read. */
  readonly facts: number;
  /** Policy clauses verified for the domain and task version. */
  readonly clauses: number;
  /** Fixtures for this task that did not apply, with why; or that there is none. */
  readonly skipped: readonly SkippedFixture[];
}

export interface StructuredInput {
  readonly ctx: GradingContext;
  readonly domain: DomainDef;
  readonly task: Task;
  /** Task-set names the file's tasks equal (fixtures are looked up under each, in order). */
  readonly taskVersions: readonly string[];
  readonly sim: Simulation;
  readonly solo: boolean;
  readonly tau3: Tau3Verdict;
  /** The curated NL list's score when an overlay curates this task (null score = unknown); null = not curated. */
  readonly nlCurated?: { readonly score: number | null } | null;
}

/** A requirement violation whose call failed or changed nothing. */
export interface RequirementAttempt {
  readonly v: RequirementViolation;
  readonly effect: Attempt;
}

type ClausesFor = { verified: readonly VerifiedClause[]; problems: readonly ClauseProblem[] };

/** The policy text the agent works under, read once per data dir, domain, file and task version; undefined when missing. */
const policyTexts = new Map<string, string | undefined>();
function agentPolicyText(input: StructuredInput): string | undefined {
  const file = policyFileFor(input.domain, input.solo);
  const key = `${input.ctx.data.dataDir}\u0000${input.domain.name}\u0000${file}\u0000${input.taskVersions[0] ?? ""}`;
  if (!policyTexts.has(key)) {
    const path = policyPath(input.ctx.data.dataDir, input.domain.name, file, input.taskVersions[0]);
    policyTexts.set(key, existsSync(path) ? readFileSync(path, "utf8") : undefined);
  }
  return policyTexts.get(key);
}

/** Clauses verified once per clause set, then data dir, domain and task version. */
const verifiedCache = keyedCache<ClauseSet, string, ClausesFor>();

/** The last answer: a file's simulations ask with the same set, data, domain and version in a row. */
let lastClauses: {
  readonly set: ClauseSet;
  readonly dataDir: string;
  readonly domain: string;
  readonly version: string | undefined;
  readonly hit: ClausesFor;
} | null = null;

function clausesFor(input: StructuredInput, set: ClauseSet | null): ClausesFor {
  if (set === null) return { verified: [], problems: [] };
  const version = input.taskVersions[0];
  const { dataDir } = input.ctx.data;
  const domain = input.domain.name;
  const last = lastClauses;
  if (last?.set === set && last.dataDir === dataDir && last.domain === domain && last.version === version)
    return last.hit;
  const hit = verifiedCache(set, `${dataDir}\u0000${domain}\u0000${version ?? ""}`, () =>
    verifyClauses(set, input.ctx.data, dataDir, version),
  );
  lastClauses = { set, dataDir, domain, version, hit };
  return hit;
}

/** What a call charged, for the policy rules: 0 for a write that took effect and charged nothing. */
function chargeLookup(writes: GatedWrites): PolicyInput["charges"] {
  let byCall: Map<string, number> | null = null;
  return (messageIndex, callId) => {
    if (writes.wroteOf(messageIndex, callId) !== true) return undefined;
    byCall ??= new Map(
      writes.charges().map((c) => [`${c.call.messageIndex}\u0000${c.call.callId}`, c.amount]),
    );
    return byCall.get(`${messageIndex}\u0000${callId}`) ?? 0;
  };
}

function requirementCauses(violations: readonly RequirementViolation[]): Cause[] {
  return [...groupBy(violations, (v) => v.ruleId)].map(([ruleId, hits]) => {
    const first = hits[0] as RequirementViolation;
    const times = hits.length === 1 ? "" : ` (${hits.length} calls)`;
    return cause("requirement", ruleId, { gates: true, message: `${first.message}${times}`, evidence: hits });
  });
}

/**
 * Decisive first: what the structured grader itself found, then the τ³ failure it includes. A rank per
 * kind, so a new cause kind does not compile until it is placed. The stored order of causes depends
 * on these numbers: the 50s keep the place those kinds always had (after every ranked kind).
 */
const KIND_RANK: { readonly [K in CauseKind]: number } = {
  policy_clause: 0,
  requirement: 1,
  attempted_violation: 2,
  undecided_clause: 2,
  unlicensed_write: 3,
  user_state: 4,
  policy_rule: 5,
  format_error: 6,
  consistency: 7,
  nl_curated: 8,
  tau3: 9,
  licensed_write: 10,
  no_reference: 10,
  component: 50,
  premature_termination: 50,
  acceptable_outcome: 50,
  degenerate_judge_reply: 50,
};
const rank = (c: Cause) => (c.gates ? 0 : 100) + KIND_RANK[c.kind];

/**
 * The task whose reference solution the write side reads: where τ³ matched an acceptable outcome, that
 * outcome's task copy (its actions are the footprint); else the task itself.
 */
function referenceTask(task: Task, tau3: Tau3Verdict): Task {
  const choice = tau3.outcomes;
  if (choice === null || choice.matched === null || choice.undecided.length > 0) return task;
  return referenceTask(choice.matched.task, choice.matched.verdict);
}

/** τ³'s failure, which the structured grader includes (named by the components it failed). */
function tau3FailureCause(tau3: Tau3Verdict): Cause {
  const failed = tau3Causes(tau3);
  let reference = "";
  let message = "";
  for (let i = 0; i < failed.length; i++) {
    const c = failed[i] as (typeof failed)[number];
    reference += i === 0 ? c.reference : `+${c.reference}`;
    message += i === 0 ? c.message : `; ${c.message}`;
  }
  return cause("tau3", reference || "reward 0", {
    gates: true,
    message: `τ³ fails: ${message || "reward 0"}`,
  });
}

/** Evidence with the actor of the message it points at (when it names none). */
function located(e: Evidence, messages: readonly Message[]): Evidence {
  const actor = e.actor ?? actorAt(messages, e.messageIndex);
  return actor === undefined || e.actor !== undefined ? e : { ...e, actor };
}

/** The findings that gate only when configured to: policy rules, format errors, NL, consistency. */
function pushReportedCauses(
  found: Cause[],
  r: {
    readonly gates: StructuredGates;
    readonly messages: Simulation["messages"];
    readonly policy: Record<PolicyRuleId, Evidence[]>;
    readonly formatErrors: readonly Evidence[];
    readonly nl: { readonly score: number | null } | null;
    readonly tau3: Tau3Verdict;
    readonly consistency: ConsistencyResult;
  },
): void {
  const { gates, messages } = r;
  for (const id of POLICY_RULE_IDS) {
    const hits = r.policy[id];
    if (hits.length === 0) continue;
    found.push(
      cause("policy_rule", id, {
        gates: gates.policy_rules.includes(id),
        message: `${POLICY_RULES[id].description}${hits.length === 1 ? "" : ` (${hits.length} hits)`}`,
        evidence: hits.map((e) => located(e, messages)),
      }),
    );
  }
  for (const [code, hits] of groupBy(r.formatErrors, (e) => e.code))
    found.push(
      cause("format_error", code, {
        gates: gates.format_errors,
        message: (hits[0] as Evidence).message + (hits.length === 1 ? "" : ` (${hits.length} hits)`),
        evidence: hits.map((e) => located(e, messages)),
      }),
    );
  const nl = r.nl;
  if (nl !== null && nl.score === 0)
    found.push(
      cause("nl_curated", "NL_CURATED", {
        gates: gates.nl_curated,
        message: "the curated NL assertion list was judged and not met",
      }),
    );
  const judged = r.tau3.nl?.status === "judged" ? r.tau3.nl : null;
  const degenerate = judged?.provenance?.degenerate ?? null;
  if (degenerate !== null)
    found.push(
      cause("degenerate_judge_reply", "NL_ASSERTION", {
        gates: gates.degenerate_judge,
        message: `the NL judge (${judged?.source}) ${degenerate.replace(/^the reply /, "replied with less than asked: ")}`,
      }),
    );
  if (r.consistency.status === "foreign")
    found.push(
      cause("consistency", CONSISTENCY_CODE, {
        gates: gates.consistency,
        message: r.consistency.note,
        evidence: r.consistency.evidence.map((e) => located(e, messages)),
      }),
    );
}

export function gradeStructured(
  input: StructuredInput & { readonly options?: StructuredOptions },
): StructuredVerdict {
  const options = input.options ?? DEFAULT_STRUCTURED_OPTIONS;
  const gates = options.gates;
  const { tau3, sim, task, domain } = input;
  const messages = sim.messages;
  const tau3Pass = tau3.reward === null ? null : tau3.reward === 1;
  const requirements = requirementsFor(input, options.requirements);
  const premature = sim.termination_reason !== "agent_stop" && sim.termination_reason !== "user_stop";
  const clauseSet = clausesFor(input, options.clauses);
  // What reads the reference solution reads the matched outcome's (the same task but for its criteria).
  const reference = referenceTask(task, tau3);
  const writes =
    premature || task.evaluation_criteria === null
      ? writesNotGated(
          premature ? "premature termination: τ³ already fails it" : "task has no evaluation criteria",
        )
      : gateWrites({ ...input, task: reference }, requirements, clauseSet.verified);
  const { delta, fields, clauses, licenseOf } = writes;
  // One rule for requirements and clauses: a violating call that did not take effect is an attempt.
  const violations: RequirementViolation[] = [];
  const attempts: RequirementAttempt[] = [];
  for (const v of requirements.violations) {
    const at = v.messageIndex ?? -1;
    const id = v.toolCallId ?? "";
    const effect = callEffect(messages, at, id, writes.wroteOf(at, id));
    if (effect.took) violations.push(v);
    else attempts.push({ v, effect });
  }
  const label = labelTask(reference, domain.name, options.handoffOverrides);
  const policyInput = {
    domain,
    task: reference,
    messages,
    terminationReason: sim.termination_reason,
    solo: input.solo,
    charges: chargeLookup(writes),
    movements: (messageIndex: number, callId: string) =>
      writes.wroteOf(messageIndex, callId) === true ? writes.movements(messageIndex, callId) : undefined,
    shouldTransfer: label.should_transfer,
    policyText: agentPolicyText(input),
  };
  const policy = runPolicyRules(policyInput);
  const formatErrors = findFormatErrors(policyInput);
  const consistency = checkConsistency({ data: input.ctx.data, task: reference, messages });

  const found: Cause[] = [];
  if (tau3Pass === false) found.push(tau3FailureCause(tau3));
  // Loops, not push(...spread): a trajectory may differ in hundreds of fields.
  for (const c of requirementCauses(violations)) found.push(c);
  for (const c of clauseCauses(clauses, gates.policy_clauses)) found.push(c);
  for (const c of requirementAttemptCauses(attempts, gates.attempted_violation)) found.push(c);
  // An attempted breach of a clause gates only where a broken one would.
  const clauseAttempts = gates.attempted_violation && gates.policy_clauses;
  for (const c of clauseAttemptCauses(clauses, messages, clauseAttempts)) found.push(c);
  for (const c of undecidedClauseCauses(clauses)) found.push(c);
  const capCauses = chargeCapCauses(requirements.caps, writes.charges);
  for (const c of capCauses) found.push(c);
  if (writes.noReference) {
    const listed = noReferenceCause(fields);
    if (listed !== null) found.push(listed);
  } else
    for (const c of fieldCauses(fields, licenseOf, {
      userState: gates.user_state,
      strict: gates.delta === "strict",
    }))
      found.push(c);
  const nl = input.nlCurated ?? null;
  pushReportedCauses(found, { gates, messages, policy, formatErrors, nl, tau3, consistency });
  // Array.prototype.sort is stable: causes of one kind keep the order they were found in.
  const causes = found.length > 1 ? found.sort((a, b) => rank(a) - rank(b)) : found;
  const unknown = tau3Pass === null || (gates.nl_curated && nl !== null && nl.score === null);
  return {
    pass: causes.some((c) => c.gates) ? false : unknown ? null : true,
    tau3_pass: tau3Pass,
    db_match: tau3.db_match,
    requirements: {
      pass: violations.length === 0 && capCauses.length === 0,
      violations,
      attempts,
      checked: requirements.checked,
      fixture: requirements.fixture,
      rejected: requirements.rejected,
    },
    delta_gate: delta,
    fields,
    clauses,
    rejected_clauses: clauseSet.problems,
    task_facts: [...requirements.facts.values()],
    policy,
    format_errors: formatErrors,
    transfer: { should: label.should_transfer, did: didTransfer(messages), rule: label.rule },
    consistency,
    causes,
    gates,
    coverage: {
      fixtures: requirements.applied,
      facts: requirements.facts.size,
      clauses: clauseSet.verified.length,
      skipped: requirements.skipped,
    },
  };
}
