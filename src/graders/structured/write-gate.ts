/**
 * The structured grader's write side: the replayed trajectory against its gold end state (the delta
 * gate), each differing field attributed to the calls that wrote it, the policy clauses each call
 * broke or was licensed by, and a call's licence (task permissions and clauses) worked out on demand.
 * Kept out of `gradeStructured` so that each is compiled on its own (see README, Performance).
 */
import type { DomainDef } from "../../domains/domain.ts";
import type { Simulation, Task } from "../../formats/model.ts";
import type { Environment } from "../../replay/environment.ts";
import { WriteJournal } from "../../replay/journal.ts";
import { replayMessages } from "../../replay/replay.ts";
import { groupBy } from "../../util/group-by.ts";
import type { GradingContext } from "../context.ts";
import type { Tau3Verdict } from "../tau3/evaluate.ts";
import { type AttributedField, attributeFields, type CallRef, callsOf } from "./attribution.ts";
import {
  type CallAt,
  type Charges,
  chargesOf,
  type Movements,
  movementsOf,
  NO_CHARGES,
  NO_MOVEMENTS,
} from "./charges.ts";
import { type ClauseFinding, evaluateClauses, policyFileFor } from "./clauses/evaluate.ts";
import type { VerifiedClause } from "./clauses/verify.ts";
import { bind, evaluateAll, type StateView, type TaskFactValue } from "./conditions/evaluate.ts";
import { type FinalStates, viewBefore } from "./conditions/history.ts";
import { type DeltaGateResult, deltaGate, type GateStates } from "./delta-gate.ts";
import type { RequirementViolation } from "./requirements/evaluate.ts";
import { callInScope } from "./requirements/scope.ts";
import type { VerifiedPermission } from "./requirements/verify.ts";
import type { CallLicense, LicenseOf } from "./write-causes.ts";

/** What the write side reads of the structured grader's input. */
export interface WriteGateInput {
  readonly ctx: GradingContext;
  readonly domain: DomainDef;
  /** The task whose reference solution the gate reads (a matched acceptable outcome's task copy). */
  readonly task: Task;
  readonly sim: Simulation;
  readonly solo: boolean;
  readonly tau3: Tau3Verdict;
}

/** The delta gate's verdict, or why it did not run. */
export type DeltaGateOutcome =
  | (DeltaGateResult & { readonly ran: true })
  | { readonly ran: false; readonly pass: true; readonly note: string };

export interface GatedWrites {
  readonly delta: DeltaGateOutcome;
  /**
   * The task gives no reference solution (`evaluation_criteria.actions` is null): `fields` are then the
   * writes themselves (against the initial state), which the gate cannot judge.
   */
  readonly noReference: boolean;
  readonly fields: readonly AttributedField[];
  readonly clauses: readonly ClauseFinding[];
  readonly licenseOf: LicenseOf;
  /**
   * Whether the replay saw a call (by message index and tool-call id) change either DB; null when it
   * did not execute it (a tool that writes nothing, an unknown tool) or nothing was replayed.
   */
  readonly wroteOf: (messageIndex: number, callId: string) => boolean | null;
  /** What each call charged, from the DB changes it made (none when nothing was replayed). */
  readonly charges: Charges;
  /** The money each call moved, signed and per payment method (none when nothing was replayed). */
  readonly movements: Movements;
}

export const NO_REFERENCE_NOTE =
  "no reference solution (evaluation_criteria.actions is null): the delta gate has no footprint to judge writes against";

const NO_LICENCE: CallLicense = { permissions: [], clauses: [], broken: [], prohibited: [] };

/** The gate did not run (nothing was replayed against a gold state): nothing attributed, nothing licensed. */
export const writesNotGated = (note: string): GatedWrites => ({
  delta: { ran: false, pass: true, note },
  noReference: false,
  fields: [],
  clauses: [],
  licenseOf: () => NO_LICENCE,
  wroteOf: () => null,
  charges: NO_CHARGES,
  movements: NO_MOVEMENTS,
});

/** The replayed call by message index and tool-call id, indexed on first ask (most simulations never ask). */
function callIndex(calls: readonly CallRef[]): CallAt {
  let byKey: Map<string, CallRef> | null = null;
  return (messageIndex, callId) => {
    byKey ??= new Map(calls.map((c) => [`${c.messageIndex}\u0000${c.callId}`, c]));
    return byKey.get(`${messageIndex}\u0000${callId}`);
  };
}

/** The replayed trajectory: τ³'s when it replayed one, else replayed here (τ³ skips tasks with nothing to replay). */
function replayed(input: WriteGateInput): { predicted: Environment; journal: WriteJournal } {
  const env = input.tau3.env;
  if (env?.predicted != null && env.journal !== null)
    return { predicted: env.predicted, journal: env.journal };
  const { setup } = input.ctx.taskArtifacts(input.task, true);
  const predicted = setup.fork(input.solo);
  const journal = new WriteJournal();
  replayMessages(predicted, input.sim.messages, { strict: false, compareOutputs: false, journal });
  return { predicted, journal };
}

/** The three states the delta gate compares. */
function gateStates(
  input: WriteGateInput,
  predicted: Environment,
): { agent: GateStates; user: GateStates | null } {
  // The gold target is synced after each action (tau2 skips that, quirk noGoldSync), so fields that
  // sync writes in a live run are not mistaken for deviations.
  const { gold } = input.ctx.taskArtifacts(input.task, true);
  const agent = { initial: gold.initial.agent, gold: gold.env.agent, predicted: predicted.agent };
  const sharedUserDb = predicted.user === predicted.agent || predicted.user === null;
  const user =
    sharedUserDb || gold.initial.user === null || gold.env.user === null || predicted.user === null
      ? null
      : { initial: gold.initial.user, gold: gold.env.user, predicted: predicted.user };
  return { agent, user };
}

/** Whether a verified task permission covers this call, its conditions holding on the DB before it. */
function permissionsFor(
  perms: readonly VerifiedPermission[],
  call: CallRef,
  view: StateView,
): VerifiedPermission[] {
  return perms.filter((p) => {
    if (p.permission.action !== call.name || !callInScope(p.permission.arguments, call.args)) return false;
    const ctx = { view, args: call.args, taskPermits: false, facts: [] };
    const scope = bind(p.permission.bind, ctx);
    return scope !== null && evaluateAll(p.permission.when, ctx, scope) === true;
  });
}

/** The DBs before each call, read once per step, and the task permissions that cover a call there. */
class CallViews {
  private readonly views = new Map<number, StateView>();

  constructor(
    private readonly journal: WriteJournal,
    private readonly final: FinalStates,
    private readonly permissions: readonly VerifiedPermission[],
  ) {}

  view(step: number): StateView {
    let v = this.views.get(step);
    if (v === undefined) {
      v = viewBefore(this.journal, this.final, step);
      this.views.set(step, v);
    }
    return v;
  }

  permitted(c: CallRef, v: StateView): VerifiedPermission[] {
    return permissionsFor(this.permissions, c, v);
  }
}

/** Each call's licence, from the clause findings about it; worked out once (a call writes several fields). */
class CallLicences {
  private readonly licences = new Map<CallRef, CallLicense>();
  private readonly byCall: Map<CallRef, ClauseFinding[]>;

  constructor(
    private readonly views: CallViews,
    clauses: readonly ClauseFinding[],
    private readonly violations: readonly RequirementViolation[],
  ) {
    this.byCall = groupBy(clauses, (f) => f.call);
  }

  of(c: CallRef): CallLicense {
    const known = this.licences.get(c);
    if (known !== undefined) return known;
    const findings = this.byCall.get(c) ?? [];
    const licence = {
      permissions: this.views.permitted(c, this.views.view(c.step)),
      clauses: findings.filter((f) => f.outcome === "licenses"),
      broken: findings.filter((f) => f.outcome === "broken"),
      prohibited: this.violations.filter((v) => v.toolCallId === c.callId),
    };
    this.licences.set(c, licence);
    return licence;
  }
}

interface GateRequirements {
  readonly permissions: readonly VerifiedPermission[];
  readonly violations: readonly RequirementViolation[];
  /** The task's verified facts, which clauses may read. */
  readonly facts: ReadonlyMap<string, TaskFactValue>;
}

export function gateWrites(
  input: WriteGateInput,
  requirements: GateRequirements,
  verifiedClauses: readonly VerifiedClause[],
): GatedWrites {
  const { domain, tau3 } = input;
  const { predicted, journal } = replayed(input);
  const s = gateStates(input, predicted);
  // Without sync_tools the synced gold is the gold τ³ compared with: a DB match settles it.
  const settled = domain.sync === undefined && tau3.env?.vacuous === false && tau3.env.dbMatch;
  const gated = deltaGate(s.agent, s.user, settled);
  // `[]` is a reference (one that writes nothing); null is none, and its gold end state is the initial one.
  const noReference = input.task.evaluation_criteria?.actions == null;
  const delta: DeltaGateOutcome = noReference
    ? { ran: false, pass: true, note: NO_REFERENCE_NOTE }
    : { ran: true, ...gated };
  const final = {
    agent: predicted.agent,
    user: predicted.user === predicted.agent ? null : predicted.user,
  };
  const calls = callsOf(journal, input.sim.messages, final, domain);
  const views = new CallViews(journal, final, requirements.permissions);
  const clauses = evaluateClauses(
    verifiedClauses,
    calls,
    (step) => views.view(step),
    policyFileFor(domain, input.solo),
    (c, v) => views.permitted(c, v).length > 0,
    requirements.facts,
  );
  const licences = new CallLicences(views, clauses, requirements.violations);
  const fields = attributeFields(gated.fields, journal, final, calls, domain.derived ?? []);
  const callAt = callIndex(calls);
  return {
    delta,
    noReference,
    fields,
    clauses,
    licenseOf: licences.of.bind(licences),
    wroteOf: (messageIndex, callId) => callAt(messageIndex, callId)?.wrote ?? null,
    charges: chargesOf(journal, final, calls),
    movements: movementsOf(journal, final, callAt),
  };
}
