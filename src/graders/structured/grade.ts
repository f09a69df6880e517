/**
 * The structured grader (grader B): τ³'s verdict AND the user's typed prohibitions AND the
 * field-level delta gate; policy rules and format errors are always reported and gate only when
 * configured to. Pure: (task, trajectory, context) → verdict with evidence.
 */
import type { DomainDef } from "../../domains/domain.ts";
import type { Simulation, Task } from "../../formats/model.ts";
import { replayMessages } from "../../replay/replay.ts";
import { type ConsistencyResult, checkConsistency } from "../consistency.ts";
import type { GradingContext } from "../context.ts";
import type { Evidence } from "../evidence.ts";
import type { Tau3Verdict } from "../tau3/evaluate.ts";
import { type DeltaGateResult, deltaGate, type GateStates } from "./delta-gate.ts";
import { didTransfer, type HandoffLabel, type HandoffOverrides, labelTask } from "./handoff.ts";
import { findFormatErrors, type PolicyRuleId, runPolicyRules } from "./policy/index.ts";
import { evaluatePreflight, type PreflightResult } from "./requirements/evaluate.ts";
import type { RequirementSet } from "./requirements/load.ts";
import { type RuleProblem, verifyFixture } from "./requirements/verify.ts";

export interface StructuredConfig {
  readonly requirements: RequirementSet | null;
  /** Policy rules whose hits fail the verdict (all are reported either way). */
  readonly gateOnPolicy: readonly PolicyRuleId[];
  readonly gateOnFormatErrors: boolean;
  /** Fail when the curated NL list (corrections overlay) is judged and not met. */
  readonly gateOnNlCurated: boolean;
  readonly handoffOverrides: HandoffOverrides | null;
  /** Fail a simulation whose conversation belongs to another task (off by default: reported only). */
  readonly gateOnConsistency?: boolean;
}

export const DEFAULT_STRUCTURED_CONFIG: StructuredConfig = {
  requirements: null,
  gateOnPolicy: [],
  gateOnFormatErrors: false,
  gateOnNlCurated: false,
  handoffOverrides: null,
};

export interface StructuredVerdict {
  /** Null when τ³'s verdict is unknown (an unjudged NL assertion in the basis). */
  readonly pass: boolean | null;
  readonly tau3_pass: boolean | null;
  readonly preflight: PreflightResult & {
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
  /** Why the verdict failed: `tau3`, `preflight:<rule id>`, `delta_gate:<path>`, `policy:<rule>`, ... */
  readonly causes: readonly string[];
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
  /** The curated NL score when a corrections overlay is on (null = unknown or not curated). */
  readonly nlCuratedScore?: number | null;
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

function preflightFor(input: StructuredInput, reqs: RequirementSet | null): StructuredVerdict["preflight"] {
  const none = { pass: true, violations: [], checked: [], fixture: null, rejected: [] };
  if (reqs === null) return none;
  for (const version of input.taskVersions) {
    const hit = reqs.find(input.domain.name, version, input.task.id);
    if (hit === undefined) continue;
    const v = verifyFixture(hit.path, hit.fixture, input.task, input.domain);
    return { ...evaluatePreflight(v.verified, input.sim.messages), fixture: hit.path, rejected: v.problems };
  }
  return none;
}

export function gradeStructured(
  input: StructuredInput & { readonly config?: StructuredConfig },
): StructuredVerdict {
  const config = input.config ?? DEFAULT_STRUCTURED_CONFIG;
  const { tau3, sim, task, domain } = input;
  const tau3Pass = tau3.reward === null ? null : tau3.reward === 1;
  const preflight = preflightFor(input, config.requirements);
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
  const policyInput = {
    domain,
    task,
    messages: sim.messages,
    terminationReason: sim.termination_reason,
    solo: input.solo,
  };
  const policy = runPolicyRules(policyInput);
  const formatErrors = findFormatErrors(policyInput);
  const label = labelTask(task, domain.name, config.handoffOverrides);
  const consistency = checkConsistency({ data: input.ctx.data, task, messages: sim.messages });

  const causes = new Set<string>();
  if (tau3Pass === false) causes.add("tau3");
  for (const v of preflight.violations) causes.add(`preflight:${v.ruleId}`);
  if (delta.ran)
    for (const f of delta.violations) causes.add(`delta_gate:${f.db === "user" ? "user:" : ""}${f.path}`);
  for (const id of config.gateOnPolicy) if (policy[id].length > 0) causes.add(`policy:${id}`);
  if (config.gateOnFormatErrors && formatErrors.length > 0) causes.add("format_errors");
  if (config.gateOnNlCurated && input.nlCuratedScore === 0) causes.add("nl_curated");
  if (config.gateOnConsistency === true && consistency.status === "foreign") causes.add("consistency");
  const unknown = tau3Pass === null || (config.gateOnNlCurated && input.nlCuratedScore === null);
  return {
    pass: causes.size > 0 ? false : unknown ? null : true,
    tau3_pass: tau3Pass,
    preflight,
    delta_gate: delta,
    policy,
    format_errors: formatErrors,
    transfer: { should: label.should_transfer, did: didTransfer(sim.messages), rule: label.rule },
    consistency,
    causes: [...causes],
  };
}
