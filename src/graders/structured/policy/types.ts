/** The input and the shape shared by every deterministic policy rule. */
import type { DomainDef } from "../../../domains/domain.ts";
import type { Toolkit } from "../../../domains/toolkit.ts";
import type { Message, Task } from "../../../formats/model.ts";
import type { Evidence } from "../../evidence.ts";
import type { Movement } from "../charges.ts";

/**
 * The part of a `DomainDef` the rules read: its name (for domain-only rules), its toolkits, and what
 * its dispatcher calls run (the rules see banking's `call_discoverable_agent_tool` as the tool it runs).
 */
export interface PolicyDomain {
  readonly name: string;
  readonly agentTools: Toolkit;
  readonly userTools?: Toolkit;
  readonly effectiveCall?: DomainDef["effectiveCall"];
}

export interface PolicyInput {
  readonly domain: PolicyDomain;
  readonly task: Task;
  readonly messages: readonly Message[];
  readonly terminationReason: string;
  /** Solo mode (`llm_agent_solo` + `dummy_user`): there is no user to confirm anything. */
  readonly solo?: boolean;
  /**
   * What a call (by message index and tool-call id) charged, from the DB change the replay saw: 0 for a
   * write that charged nothing, undefined when unknown (not replayed, or it changed nothing).
   */
  readonly charges?: (messageIndex: number, callId: string) => number | undefined;
  /**
   * The money a call moved, signed and per payment method, from the DB change the replay saw: [] for a
   * write that moved none, undefined when unknown (not replayed, or it changed nothing).
   */
  readonly movements?: (messageIndex: number, callId: string) => readonly Movement[] | undefined;
  /** The task's hand-off label: whether the agent should transfer the user to a human (1) or not (0). */
  readonly shouldTransfer?: 0 | 1;
  /** The policy document the agent works under, for rules that quote it. */
  readonly policyText?: string;
}

/** The rules in the order they run and report (plain data: the gate schema reads it without loading a rule). */
export const POLICY_RULE_IDS = [
  "write_without_confirmation",
  "write_before_authentication",
  "multiple_actions_in_turn",
  "action_after_transfer",
  "off_reference_write",
  "summary_mismatch",
  "once_only_without_reminder",
  "informed_amount",
  "informed_payment",
  "informed_record",
  "informed_consent",
  "misreported_amount",
  "unneeded_transfer",
] as const;
export type PolicyRuleId = (typeof POLICY_RULE_IDS)[number];

/** A rule is a value: pure, deterministic, and honest about what it cannot see. */
export interface PolicyRule<Id extends PolicyRuleId = PolicyRuleId> {
  readonly id: Id;
  readonly description: string;
  /** Known blind spots and false-positive sources, for reports. */
  readonly limits: readonly string[];
  check(input: PolicyInput): Evidence[];
}
