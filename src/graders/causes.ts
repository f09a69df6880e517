/**
 * Causes: why a grader failed a simulation, or what it reports without failing on it. One typed shape
 * for every grader (like zod's issues: a literal `kind` over common fields), stored one row each in the
 * `causes` table with their facts in `evidence`. Views and reports read causes only from there.
 *
 * A cause is located where its first piece of evidence is (message, turn, tool call), so a reader can
 * always go from a cause to the turn that produced it.
 */
import type { Actor, Evidence } from "./evidence.ts";

interface CauseKindInfo {
  /** What `reference` names for this kind. */
  readonly reference: string;
  /** One sentence for reports. */
  readonly about: string;
  /** It repeats another grader's failed verdict: that grader's own causes mark the conversation. */
  readonly inherited?: true;
}

/**
 * Every kind of cause. A new kind also needs a place in the structured grader's cause order (`KIND_RANK`)
 * and a chart colour (`KIND_COLOR`): both fail to compile until given. Store, views and report are generic.
 */
export const CAUSE_KINDS = {
  component: {
    reference: "the reward-basis component (DB, ENV_ASSERTION, ACTION, COMMUNICATE, NL_ASSERTION)",
    about: "a component in the task's reward basis scored 0 (τ³)",
  },
  premature_termination: {
    reference: "the termination reason",
    about: "the simulation ended before the agent or user stopped; τ³ scores it 0",
  },
  acceptable_outcome: {
    reference: "the matched outcome's id, or none_matched",
    about:
      "the task grades by acceptable outcomes (a fork's rule) and the simulation met none of them, or only one whose reward is below 1 (τ³)",
  },
  tau3: {
    reference: "what τ³ failed on (components joined by +, or the termination reason)",
    about: "τ³'s own verdict failed; the structured grader fails with it",
    inherited: true,
  },
  requirement: {
    reference: "the requirement's rule id",
    about: "the agent called a tool the user prohibited (a requirement fixture quoting the task)",
  },
  policy_clause: {
    reference: "the policy clause id (policies/<domain>/)",
    about: "a call broke a domain policy clause, its conditions read from the DB at the time of the call",
  },
  attempted_violation: {
    reference: "the requirement's rule id or the policy clause id",
    about:
      "a call that would have broken a requirement or a policy clause failed or changed nothing (reported; fails only when gated)",
  },
  undecided_clause: {
    reference: "the policy clause id",
    about:
      "a clause's conditions could not be decided because the task text states no fact they read (reported; never a pass or a fail)",
  },
  unlicensed_write: {
    reference: "the DB field path (user-DB fields start with user:)",
    about:
      "a DB field differs from the gold end state outside the reference solution's footprint, and no task permission or policy clause licensed the calls that wrote it",
  },
  licensed_write: {
    reference: "the DB field path (user-DB fields start with user:)",
    about:
      "a DB field differs from the gold end state outside the footprint, but every call that wrote it was licensed (reported; the strict gate fails it)",
  },
  no_reference: {
    reference: "evaluation_criteria.actions (the reference solution the task does not give)",
    about:
      "the task gives no reference solution, so the delta gate cannot judge the writes it lists (reported, never gating)",
  },
  user_state: {
    reference: "the user-DB field path (user:…)",
    about:
      "the user's own device or state changed through the user's own tools (reported; fails only when gated, and under the strict gate)",
  },
  policy_rule: {
    reference: "the policy rule id",
    about: "a deterministic policy rule found a violation in the trajectory",
  },
  format_error: {
    reference: "the format error code",
    about: "a malformed agent message (unclosed code fence, raw tool-call markup, ...)",
  },
  nl_curated: {
    reference: "NL_CURATED",
    about: "the curated NL assertion list (corrections overlay) was judged and not met",
  },
  degenerate_judge_reply: {
    reference: "NL_ASSERTION",
    about:
      "the live NL judge's reply judged less than it was asked ({}, no results, too few); tau2 scores it anyway",
  },
  consistency: {
    reference: "the consistency code",
    about: "the conversation is about other users than the task's (a mislabelled simulation)",
  },
} as const satisfies Record<string, CauseKindInfo>;

export type CauseKind = keyof typeof CAUSE_KINDS;

/** Whether a cause of this kind repeats another grader's verdict (`inherited`); unknown kinds do not. */
export const isInheritedKind = (kind: string): boolean =>
  Object.hasOwn(CAUSE_KINDS, kind) && (CAUSE_KINDS[kind as CauseKind] as CauseKindInfo).inherited === true;
export const CAUSE_KIND_NAMES = Object.keys(CAUSE_KINDS) as CauseKind[];

interface CauseOf<K extends CauseKind> {
  readonly kind: K;
  readonly reference: string;
  /** Whether it fails the verdict; false = reported only (e.g. a policy rule not configured to gate). */
  readonly gates: boolean;
  /** One human-readable sentence. */
  readonly message: string;
  readonly messageIndex: number | null;
  readonly turnIdx: number | null;
  readonly toolCallId: string | null;
  readonly toolName: string | null;
  readonly actor: Actor | null;
  readonly evidence: readonly Evidence[];
}

export type Cause = { [K in CauseKind]: CauseOf<K> }[CauseKind];

/** A cause located at its first evidence that has a message index (or nowhere, when none has). */
export function cause<K extends CauseKind>(
  kind: K,
  reference: string,
  details: { readonly gates: boolean; readonly message: string; readonly evidence?: readonly Evidence[] },
): CauseOf<K> {
  const evidence = details.evidence ?? [];
  const at = evidence.find((e) => e.messageIndex !== undefined) ?? evidence[0];
  return {
    kind,
    reference,
    gates: details.gates,
    message: details.message,
    messageIndex: at?.messageIndex ?? null,
    turnIdx: at?.turnIdx ?? null,
    toolCallId: at?.toolCallId ?? null,
    toolName: at?.toolName ?? null,
    actor: at?.actor ?? null,
    evidence,
  };
}

/** `kind:reference`, the way text output names a cause. */
export const causeLabel = (c: Pick<Cause, "kind" | "reference">): string => `${c.kind}:${c.reference}`;
