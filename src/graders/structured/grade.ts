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
import { effectiveMessages } from "./effective.ts";
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
import {
  checkRequirements,
  type RequirementCheck,
  type RequirementViolation,
} from "./requirements/evaluate.ts";
import type { LoadedFixture, RequirementSet } from "./requirements/load.ts";
import { instructionField } from "./requirements/quote.ts";
import type { RequirementFixture, SourceField } from "./requirements/schema.ts";
import {
  EVERY_TASK_ID,
  type RuleProblem,
  type VerifiedCap,
  type VerifiedFact,
  type VerifiedPermission,
  type VerifiedRule,
  verifyFixture,
} from "./requirements/verify.ts";
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

type Verification = ReturnType<typeof verifyFixture>;

/**
 * A fixture verified once per task: simulations of one task object share it, and so do the equal
 * tasks other files embed (a verification reads only the task's id and the text fields its quotes name).
 */
const verifications = new WeakMap<
  RequirementFixture,
  {
    readonly byTask: WeakMap<Task, Verification>;
    readonly fields: readonly SourceField[];
    readonly byText: Map<string, { readonly texts: readonly (string | null)[]; readonly v: Verification }[]>;
  }
>();

function verifiedFor(
  hit: { readonly path: string; readonly fixture: RequirementFixture },
  input: StructuredInput,
  reqSet: RequirementSet,
): Verification {
  let cache = verifications.get(hit.fixture);
  if (cache === undefined) {
    const reqs = hit.fixture.user_preflight_requirements;
    const fields = [
      ...new Set(
        [...reqs.action_preconditions, ...reqs.permissions, ...hit.fixture.task_facts].map(
          (r) => r.source_field,
        ),
      ),
    ];
    cache = { byTask: new WeakMap(), fields, byText: new Map() };
    verifications.set(hit.fixture, cache);
  }
  const known = cache.byTask.get(input.task);
  if (known !== undefined) return known;
  const texts = cache.fields.map((f) => instructionField(input.task, f));
  const same = cache.byText.get(input.task.id) ?? [];
  if (same.length === 0) cache.byText.set(input.task.id, same);
  let v = same.find((e) => e.texts.every((t, i) => t === texts[i]))?.v;
  if (v === undefined) {
    v = verifyFixture(hit.path, hit.fixture, input.task, input.domain, reqSet.vocabulary(input.domain.name));
    same.push({ texts, v });
  }
  cache.byTask.set(input.task, v);
  return v;
}

/** A task's verified fixtures (its own, then the every-task one) under the version that gave them. */
interface TaskFixtures {
  readonly fixture: string;
  /** The fixtures that gave a rule, permission or fact (an every-task one is silent where no quote is). */
  readonly paths: readonly string[];
  readonly verified: readonly VerifiedRule[];
  readonly rejected: readonly RuleProblem[];
  readonly permissions: readonly VerifiedPermission[];
  readonly facts: readonly VerifiedFact[];
  readonly caps: readonly VerifiedCap[];
}

/** A fixture written for this task id that did not grade this simulation, and why. */
export interface SkippedFixture {
  /** Null when there is no fixture for this task at all. */
  readonly fixture: string | null;
  readonly reason: string;
}

export const NO_FIXTURE_REASON = "no fixture for this task";

interface FixtureLookup {
  readonly hit: TaskFixtures | null;
  readonly skipped: readonly SkippedFixture[];
}

/**
 * The domains whose fixtures a simulation may use: a variant's own (`requirements/<variant>/…`) first,
 * then its base's; quotes are checked against the simulation's own task text either way.
 */
const fixtureDomains = (input: StructuredInput): readonly string[] =>
  input.domain.variant === undefined ? [input.domain.name] : [input.domain.variant, input.domain.name];

/** `head` first, then its subsets, then the versions newest name first (the task-set listing's order). */
function versionOrder(a: string, b: string): number {
  const tier = (v: string) => (v === "head" ? 0 : v.startsWith("head/") ? 1 : 2);
  return tier(a) - tier(b) || (tier(a) === 2 ? b.localeCompare(a) : a.localeCompare(b));
}

/** The task versions a domain has fixtures for, per requirement set. */
const fixtureVersionCache = keyedCache<RequirementSet, string, readonly string[]>();
const fixtureVersions = (reqs: RequirementSet, domain: string): readonly string[] =>
  fixtureVersionCache(reqs, domain, () =>
    [
      ...new Set(reqs.fixtures.filter((f) => f.fixture.domain === domain).map((f) => f.fixture.task_version)),
    ].sort(versionOrder),
  );

/**
 * Fixtures follow the task's text, not its label. A fixture written for the task's id applies when every
 * quote it relies on stands verbatim in this simulation's task (and nothing else in it is rejected),
 * whatever the task set, variant or fork; one that misses a quote is skipped with the reason. Looked up
 * under the task sets the file's tasks equal first, then every other version with fixtures, a variant's
 * own folder before its base's. The every-task fixture of the version that applied comes with it (each
 * of its rules only where its quote is); without one, the first every-task fixture found applies alone.
 */
function fixturesFor(input: StructuredInput, reqs: RequirementSet): FixtureLookup {
  const skipped: SkippedFixture[] = [];
  let everyAlone: LoadedFixture | undefined;
  for (const name of fixtureDomains(input)) {
    const others = fixtureVersions(reqs, name).filter((v) => !input.taskVersions.includes(v));
    for (const version of [...input.taskVersions, ...others]) {
      const own = reqs.find(name, version, input.task.id);
      const every = reqs.find(name, version, EVERY_TASK_ID);
      if (own !== undefined) {
        const problem = verifiedFor(own, input, reqs).problems[0];
        if (problem === undefined) return { hit: combined([own, every], input, reqs), skipped };
        skipped.push({ fixture: own.path, reason: `${problem.ruleId}: ${problem.message}` });
      }
      everyAlone ??= every;
    }
  }
  if (skipped.length === 0) skipped.push({ fixture: null, reason: NO_FIXTURE_REASON });
  return { hit: everyAlone === undefined ? null : combined([everyAlone], input, reqs), skipped };
}

/** Fixtures' verified rules, permissions, facts and caps, in order (the task's own fixture first). */
function combined(
  hits: readonly (LoadedFixture | undefined)[],
  input: StructuredInput,
  reqs: RequirementSet,
): TaskFixtures {
  const paths: string[] = [];
  const contributing: string[] = [];
  const verified: VerifiedRule[] = [];
  const rejected: RuleProblem[] = [];
  const permissions: VerifiedPermission[] = [];
  const facts: VerifiedFact[] = [];
  const caps: VerifiedCap[] = [];
  for (const hit of hits) {
    if (hit === undefined) continue;
    const v = verifiedFor(hit, input, reqs);
    paths.push(hit.path);
    if (v.verified.length + v.permissions.length + v.facts.length > 0) contributing.push(hit.path);
    verified.push(...v.verified);
    rejected.push(...v.problems);
    permissions.push(...v.permissions);
    // The task's own fixture states a fact first; an every-task one fills in the rest.
    for (const f of v.facts) if (!facts.some((x) => x.fact.name === f.fact.name)) facts.push(f);
    caps.push(...v.caps);
  }
  return { fixture: paths.join(", "), paths: contributing, verified, rejected, permissions, facts, caps };
}

/** Fixtures per requirement set and task object (a file's simulations share it and its versions). */
const taskFixtures = keyedCache<
  RequirementSet,
  Task,
  { readonly versions: readonly string[]; readonly found: FixtureLookup }
>(() => new WeakMap());

function requirementsFor(
  input: StructuredInput,
  reqs: RequirementSet | null,
): Omit<StructuredVerdict["requirements"], "attempts"> & {
  readonly permissions: readonly VerifiedPermission[];
  readonly facts: ReadonlyMap<string, TaskFactValue>;
  readonly caps: readonly VerifiedCap[];
  readonly applied: readonly string[];
  readonly skipped: readonly SkippedFixture[];
} {
  const none = {
    pass: true,
    violations: [],
    checked: [],
    fixture: null,
    rejected: [],
    permissions: [],
    facts: NO_FACTS,
    caps: [],
    applied: [],
  };
  if (reqs === null) return { ...none, skipped: [] };
  let known = taskFixtures(reqs, input.task, () => ({
    versions: input.taskVersions,
    found: fixturesFor(input, reqs),
  }));
  // The same task object under other versions (a caller grading one task set as several): look again.
  if (known.versions !== input.taskVersions)
    known = { versions: input.taskVersions, found: fixturesFor(input, reqs) };
  const { hit, skipped } = known.found;
  if (hit === null) return { ...none, skipped };
  const check = checkRequirements(hit.verified, effectiveMessages(input.domain, input.sim.messages));
  return {
    pass: check.pass,
    violations: check.violations,
    checked: check.checked,
    fixture: hit.fixture,
    rejected: hit.rejected,
    permissions: hit.permissions,
    facts: factValues(hit.facts),
    caps: hit.caps,
    applied: hit.paths,
    skipped,
  };
}

const NO_FACTS: ReadonlyMap<string, TaskFactValue> = new Map();

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

/** Verified facts by name, as conditions read them (worked out once per verified list). */
const factMaps = new WeakMap<readonly VerifiedFact[], ReadonlyMap<string, TaskFactValue>>();
function factValues(facts: readonly VerifiedFact[]): ReadonlyMap<string, TaskFactValue> {
  if (facts.length === 0) return NO_FACTS;
  let m = factMaps.get(facts);
  if (m === undefined) {
    m = new Map(
      facts.map(({ fact }) => [
        fact.name,
        { id: fact.id, name: fact.name, value: fact.value, quote: fact.source_quote },
      ]),
    );
    factMaps.set(facts, m);
  }
  return m;
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
