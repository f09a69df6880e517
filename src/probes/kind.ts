/** What every probe kind shares: its inputs, and what it yields per task. */
import type { DomainName } from "../domains/domain.ts";
import type { Message, Task } from "../formats/model.ts";
import type { GradingContext } from "../graders/context.ts";
import type { RequirementSet } from "../graders/structured/requirements/load.ts";
import type { PyDict } from "../py/value.ts";
import type { PolicyCitation, PolicyDoc } from "./policy.ts";

export const PROBE_KINDS = [
  "gold",
  "null-agent",
  "extra-forbidden-write",
  "unwanted-transfer",
  "extra-read",
] as const;
export type ProbeKind = (typeof PROBE_KINDS)[number];

export const isProbeKind = (s: string): s is ProbeKind => (PROBE_KINDS as readonly string[]).includes(s);

export interface ProbeEnv {
  readonly ctx: GradingContext;
  readonly domain: DomainName;
  /** Task-set name (`head`, `head/tasks_small`, `v0.2.0_f8de30c`): fixtures are keyed by it. */
  readonly taskVersion: string;
  readonly policy: PolicyDoc;
  readonly requirements: RequirementSet;
}

/** The one call a probe adds to the gold trajectory, and why it is there. */
export interface Injection {
  readonly tool: string;
  readonly arguments: PyDict;
  /** The record it touches, e.g. `reservation 4WQ150 (user mia_li_3668)`. */
  readonly record: string | null;
  /** Field path of that record as the delta gate names it, e.g. `reservations.4WQ150` or `lines[0]`. */
  readonly record_path: string | null;
  /** The policy clause the call breaks (forbidden writes) or the requirement it violates. */
  readonly policy: PolicyCitation | null;
  readonly requirement: string | null;
}

export interface ProbeNote {
  readonly kind: ProbeKind;
  readonly injected: Injection | null;
}

/** A probe either applies to a task (messages to grade) or says why it does not. */
export type ProbeOutcome =
  | { readonly messages: Message[]; readonly note: ProbeNote }
  | { readonly skipped: string };

export type ProbeBuilder = (env: ProbeEnv, task: Task) => ProbeOutcome;
