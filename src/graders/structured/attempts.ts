/**
 * Attempts: one rule for requirement rules and policy clauses alike. A call that would break one but
 * did not take effect — the environment returned an error, or the replay saw it change nothing — is an
 * `attempted_violation` (reported unless gated), not a `requirement` or `policy_clause` cause. A call
 * that took effect keeps its requirement or clause cause.
 *
 * Whether a call changed anything is the replay's answer for the tools it executes (writes). A tool
 * that writes nothing by design (a transfer to a human agent) acts by being called: it took
 * effect unless it failed. Without a replay (the write gate did not run) only the error is known.
 */
import type { Message } from "../../formats/model.ts";
import type { PyValue } from "../../py/value.ts";
import { groupBy } from "../../util/group-by.ts";
import { type Cause, cause } from "../causes.ts";
import { type Evidence, excerpt } from "../evidence.ts";
import type { CallRef } from "./attribution.ts";
import type { ClauseFinding } from "./clauses/evaluate.ts";
import type { RequirementViolation } from "./requirements/evaluate.ts";
import { factsText } from "./write-causes.ts";

/** What a call did: took effect, or not (with the error the environment returned, or "changed nothing"). */
export type CallEffect =
  | { readonly took: true }
  | { readonly took: false; readonly failed: boolean; readonly text: string };

/** A call that did not take effect. */
export type Attempt = Extract<CallEffect, { readonly took: false }>;

const TOOK: CallEffect = { took: true };
export const CHANGED_NOTHING = "changed nothing";

/** The tool message answering a call: the first after its message with its id. */
function resultOf(
  messages: readonly Message[],
  messageIndex: number,
  callId: string,
): Extract<Message, { role: "tool" }> | undefined {
  for (let i = messageIndex + 1; i < messages.length; i++) {
    const m = messages[i] as Message;
    if (m.role === "tool" && m.id === callId) return m;
  }
  return undefined;
}

/** tau2 answers a tool that raised with `Error: …`; some files record that text without the error flag. */
const failedText = (content: string | null) => content?.startsWith("Error: ") === true;

/**
 * A call's effect. `wrote`: whether the replay saw it change either DB, or null when the replay did
 * not execute it (a tool that writes nothing, or no replay). A change the replay saw decides it.
 */
export function callEffect(
  messages: readonly Message[],
  messageIndex: number,
  callId: string,
  wrote: boolean | null,
): CallEffect {
  if (wrote === true) return TOOK;
  const result = resultOf(messages, messageIndex, callId);
  if (result !== undefined && (result.error || failedText(result.content)))
    return { took: false, failed: true, text: result.content ?? "" };
  return wrote === false ? { took: false, failed: false, text: CHANGED_NOTHING } : TOOK;
}

const outcomeText = (e: Attempt) =>
  e.failed ? `failed: ${JSON.stringify(excerpt(e.text, 200))}` : CHANGED_NOTHING;

interface AttemptAt {
  readonly messageIndex: number;
  readonly turnIdx: number | null;
  readonly toolCallId: string;
  readonly toolName: string;
  readonly actor: "agent" | "user";
  readonly arguments: PyValue | undefined;
}

function attemptEvidence(
  code: string,
  message: string,
  at: AttemptAt,
  quote: string,
  effect: Attempt,
): Evidence {
  return {
    code,
    message,
    messageIndex: at.messageIndex,
    turnIdx: at.turnIdx,
    toolCallId: at.toolCallId,
    toolName: at.toolName,
    actor: at.actor,
    arguments: at.arguments,
    quote,
    excerpt: effect.failed ? excerpt(effect.text) : CHANGED_NOTHING,
  };
}

/** The turn a call or its evidence is at: its recorded `turn_idx`, else its message index. */
export const turnOf = (at: { readonly turnIdx?: number | null; readonly messageIndex?: number }) =>
  at.turnIdx ?? at.messageIndex;

/** Requirement violations whose calls did not take effect, one cause per rule (like `requirement`). */
export function requirementAttemptCauses(
  attempts: readonly { readonly v: RequirementViolation; readonly effect: Attempt }[],
  gates: boolean,
): Cause[] {
  return [...groupBy(attempts, (a) => a.v.ruleId)].map(([ruleId, hits]) => {
    const evidence: Evidence[] = [];
    for (const { v, effect } of hits) {
      const message = `${v.message}: ${v.toolName} at turn ${turnOf(v)} ${outcomeText(effect)}`;
      const at = {
        messageIndex: v.messageIndex ?? 0,
        turnIdx: v.turnIdx ?? null,
        toolCallId: v.toolCallId ?? "",
        toolName: v.toolName ?? "",
        actor: v.actor ?? "agent",
        arguments: v.arguments,
      };
      evidence.push(attemptEvidence("attempted_violation.requirement", message, at, v.quote, effect));
    }
    const first = evidence[0] as Evidence;
    const times = evidence.length === 1 ? "" : ` (${evidence.length} calls)`;
    return cause("attempted_violation", ruleId, { gates, message: `${first.message}${times}`, evidence });
  });
}

/** Clauses a call would have broken had it taken effect, one cause per call and clause (like `policy_clause`). */
export function clauseAttemptCauses(
  findings: readonly ClauseFinding[],
  messages: readonly Message[],
  gates: boolean,
): Cause[] {
  const out: Cause[] = [];
  for (const f of findings) {
    if (f.outcome !== "attempted") continue;
    const effect = callEffect(messages, f.call.messageIndex, f.call.callId, f.call.wrote);
    if (effect.took) continue;
    const c = f.clause.clause;
    const call: CallRef = f.call;
    const name = call.via === null ? call.name : `${call.name} via ${call.via}`;
    const message = `${c.rule}: ${name} at turn ${turnOf(call)} ${outcomeText(effect)}${factsText(f.facts)}`;
    const at = {
      messageIndex: call.messageIndex,
      turnIdx: call.turnIdx,
      toolCallId: call.callId,
      toolName: call.name,
      actor: call.requestor === "assistant" ? ("agent" as const) : ("user" as const),
      arguments: call.args,
    };
    out.push(
      cause("attempted_violation", c.id, {
        gates,
        message,
        evidence: [attemptEvidence("attempted_violation.clause", message, at, c.source_quote, effect)],
      }),
    );
  }
  return out;
}
