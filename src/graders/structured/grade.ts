/**
 * The structured grader (grader B): τ³'s verdict AND the user's typed requirements AND the field-level
 * delta gate; policy rules, format errors, the curated NL list and task consistency are always
 * reported as causes and gate only when configured to. Pure: (task, trajectory, context) → verdict.
 */
import type { DomainDef } from "../../domains/domain.ts";
import type { Simulation, Task } from "../../formats/model.ts";
import { canonicalJson } from "../../py/json.ts";
import type { PyValue } from "../../py/value.ts";
import { replayMessages } from "../../replay/replay.ts";
import { type Cause, cause } from "../causes.ts";
import { CONSISTENCY_CODE, type ConsistencyResult, checkConsistency } from "../consistency.ts";
import type { GradingContext } from "../context.ts";
import { actorAt, type Evidence } from "../evidence.ts";
import type { Tau3Verdict } from "../tau3/evaluate.ts";
import { tau3Causes } from "../tau3/grader.ts";
import { type DeltaGateResult, deltaGate, type FieldDeviation, type GateStates } from "./delta-gate.ts";
import { didTransfer, type HandoffLabel, type HandoffOverrides, labelTask } from "./handoff.ts";
import {
  findFormatErrors,
  POLICY_RULE_IDS,
  POLICY_RULES,
  type PolicyRuleId,
  runPolicyRules,
} from "./policy/index.ts";
import {
  checkRequirements,
  type RequirementCheck,
  type RequirementViolation,
} from "./requirements/evaluate.ts";
import type { RequirementSet } from "./requirements/load.ts";
import { type RuleProblem, verifyFixture } from "./requirements/verify.ts";

/** What fails the verdict beyond τ³, requirements and the delta gate (those always gate). */
export interface StructuredGates {
  /** Policy rules whose hits fail the verdict (all are reported either way). */
  readonly policy_rules: readonly PolicyRuleId[];
  readonly format_errors: boolean;
  /** Fail when the curated NL list (corrections overlay) is judged and not met. */
  readonly nl_curated: boolean;
  /** Fail a simulation whose conversation belongs to another task. */
  readonly consistency: boolean;
}

export const NO_EXTRA_GATES: StructuredGates = {
  policy_rules: [],
  format_errors: false,
  nl_curated: false,
  consistency: false,
};

/** The structured grader's loaded configuration. */
export interface StructuredOptions {
  readonly requirements: RequirementSet | null;
  readonly handoffOverrides: HandoffOverrides | null;
  readonly gates: StructuredGates;
}

export const DEFAULT_STRUCTURED_OPTIONS: StructuredOptions = {
  requirements: null,
  handoffOverrides: null,
  gates: NO_EXTRA_GATES,
};

export interface StructuredVerdict {
  /** Null when τ³'s verdict (or a gated curated NL list) is unknown and nothing else fails. */
  readonly pass: boolean | null;
  readonly tau3_pass: boolean | null;
  /** τ³'s DB match, carried for the store's `db_match` column. */
  readonly db_match: boolean | null;
  readonly requirements: RequirementCheck & {
    readonly fixture: string | null;
    readonly rejected: readonly RuleProblem[];
  };
  readonly delta_gate:
    | (DeltaGateResult & { readonly ran: true })
    | { readonly ran: false; readonly pass: true; readonly note: string };
  readonly policy: Record<PolicyRuleId, Evidence[]>;
  readonly format_errors: readonly Evidence[];
  readonly transfer: { readonly should: 0 | 1; readonly did: boolean; readonly rule: HandoffLabel["rule"] };
  /** Whether the conversation is about the task's own user (see `consistency.ts`). */
  readonly consistency: ConsistencyResult;
  /** Every finding as a cause: the ones that fail the verdict first (`gates`), then the reported ones. */
  readonly causes: readonly Cause[];
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

/** The three states the delta gate compares, reusing τ³'s replay when it ran one. */
function gateStates(input: StructuredInput): { agent: GateStates; user: GateStates | null } {
  const env = input.tau3.env;
  // The gold target is synced after each action (tau2 skips that, quirk noGoldSync), so fields that
  // sync writes in a live run are not mistaken for deviations.
  const { gold, setup } = input.ctx.taskArtifacts(input.task, true);
  let predicted = env?.predicted ?? null;
  if (predicted === null) {
    predicted = setup.fork(input.solo);
    replayMessages(predicted, input.sim.messages, { strict: false, compareOutputs: false });
  }
  const agent = { initial: gold.initial.agent, gold: gold.env.agent, predicted: predicted.agent };
  const sharedUserDb = predicted.user === predicted.agent || predicted.user === null;
  const user =
    sharedUserDb || gold.initial.user === null || gold.env.user === null || predicted.user === null
      ? null
      : { initial: gold.initial.user, gold: gold.env.user, predicted: predicted.user };
  return { agent, user };
}

function requirementsFor(
  input: StructuredInput,
  reqs: RequirementSet | null,
): StructuredVerdict["requirements"] {
  const none = { pass: true, violations: [], checked: [], fixture: null, rejected: [] };
  if (reqs === null) return none;
  for (const version of input.taskVersions) {
    const hit = reqs.find(input.domain.name, version, input.task.id);
    if (hit === undefined) continue;
    const v = verifyFixture(hit.path, hit.fixture, input.task, input.domain);
    return { ...checkRequirements(v.verified, input.sim.messages), fixture: hit.path, rejected: v.problems };
  }
  return none;
}

/** Groups items by key, keeping first-seen order. */
function grouped<T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const it of items) {
    const list = out.get(key(it));
    if (list === undefined) out.set(key(it), [it]);
    else list.push(it);
  }
  return out;
}

const shown = (v: PyValue | undefined): string => {
  if (v === undefined) return "absent";
  const text = canonicalJson(v);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
};

function fieldCause(f: FieldDeviation): Cause {
  const reference = f.db === "user" ? `user:${f.path}` : f.path;
  const values = { initial: f.initial, gold: f.gold, predicted: f.predicted };
  const message =
    `${f.db} DB ${f.path} is ${shown(f.predicted)} where the gold end state has ${shown(f.gold)} ` +
    `(initially ${shown(f.initial)}); the reference solution does not write it`;
  return cause("delta_gate_field", reference, {
    gates: true,
    message,
    evidence: [
      {
        code: "delta_gate.field",
        message: "outside the reference footprint",
        db: f.db,
        path: f.path,
        values,
      },
    ],
  });
}

function requirementCauses(violations: readonly RequirementViolation[]): Cause[] {
  return [...grouped(violations, (v) => v.ruleId)].map(([ruleId, hits]) => {
    const first = hits[0] as RequirementViolation;
    const times = hits.length === 1 ? "" : ` (${hits.length} calls)`;
    return cause("requirement", ruleId, { gates: true, message: `${first.message}${times}`, evidence: hits });
  });
}

export function gradeStructured(
  input: StructuredInput & { readonly options?: StructuredOptions },
): StructuredVerdict {
  const options = input.options ?? DEFAULT_STRUCTURED_OPTIONS;
  const gates = options.gates;
  const { tau3, sim, task, domain } = input;
  const messages = sim.messages;
  const located = (e: Evidence): Evidence => {
    const actor = e.actor ?? actorAt(messages, e.messageIndex);
    return actor === undefined || e.actor !== undefined ? e : { ...e, actor };
  };
  const tau3Pass = tau3.reward === null ? null : tau3.reward === 1;
  const requirements = requirementsFor(input, options.requirements);
  const premature = sim.termination_reason !== "agent_stop" && sim.termination_reason !== "user_stop";
  const delta: StructuredVerdict["delta_gate"] =
    premature || task.evaluation_criteria === null
      ? {
          ran: false,
          pass: true,
          note: premature ? "premature termination: τ³ already fails it" : "task has no evaluation criteria",
        }
      : (() => {
          const s = gateStates(input);
          // Without sync_tools the synced gold is the gold τ³ compared with: a DB match settles it.
          const settled = domain.sync === undefined && tau3.env?.vacuous === false && tau3.env.dbMatch;
          return { ran: true as const, ...deltaGate(s.agent, s.user, settled) };
        })();
  const policyInput = { domain, task, messages, terminationReason: sim.termination_reason, solo: input.solo };
  const policy = runPolicyRules(policyInput);
  const formatErrors = findFormatErrors(policyInput);
  const label = labelTask(task, domain.name, options.handoffOverrides);
  const consistency = checkConsistency({ data: input.ctx.data, task, messages });

  const found: Cause[] = [];
  if (tau3Pass === false) {
    const failed = tau3Causes(tau3);
    found.push(
      cause("tau3", failed.map((c) => c.reference).join("+") || "reward 0", {
        gates: true,
        message: `τ³ fails: ${failed.map((c) => c.message).join("; ") || "reward 0"}`,
      }),
    );
  }
  found.push(...requirementCauses(requirements.violations));
  if (delta.ran) for (const f of delta.fields) found.push(fieldCause(f));
  for (const id of POLICY_RULE_IDS) {
    const hits = policy[id];
    if (hits.length === 0) continue;
    found.push(
      cause("policy_rule", id, {
        gates: gates.policy_rules.includes(id),
        message: `${POLICY_RULES[id].description}${hits.length === 1 ? "" : ` (${hits.length} hits)`}`,
        evidence: hits.map(located),
      }),
    );
  }
  for (const [code, hits] of grouped(formatErrors, (e) => e.code))
    found.push(
      cause("format_error", code, {
        gates: gates.format_errors,
        message: (hits[0] as Evidence).message + (hits.length === 1 ? "" : ` (${hits.length} hits)`),
        evidence: hits.map(located),
      }),
    );
  const nl = input.nlCurated ?? null;
  if (nl !== null && nl.score === 0)
    found.push(
      cause("nl_curated", "NL_CURATED", {
        gates: gates.nl_curated,
        message: "the curated NL assertion list was judged and not met",
      }),
    );
  if (consistency.status === "foreign")
    found.push(
      cause("consistency", CONSISTENCY_CODE, {
        gates: gates.consistency,
        message: consistency.note,
        evidence: consistency.evidence.map(located),
      }),
    );
  const causes = [...found.filter((c) => c.gates), ...found.filter((c) => !c.gates)];
  const unknown = tau3Pass === null || (gates.nl_curated && nl !== null && nl.score === null);
  return {
    pass: causes.some((c) => c.gates) ? false : unknown ? null : true,
    tau3_pass: tau3Pass,
    db_match: tau3.db_match,
    requirements,
    delta_gate: delta,
    policy,
    format_errors: formatErrors,
    transfer: { should: label.should_transfer, did: didTransfer(messages), rule: label.rule },
    consistency,
    causes,
  };
}
