/**
 * Views of a message list that several rules share: tool calls located in the trajectory and
 * paired with their results, and evidence builders that always say where.
 */
import type { ToolKind } from "../../../domains/toolkit.ts";
import type { Message, ToolCall } from "../../../formats/model.ts";
import { hasTextContent } from "../../../py/text.ts";
import { type Evidence, excerpt } from "../../evidence.ts";
import type { PolicyDomain } from "./types.ts";

export interface ToolResult {
  readonly messageIndex: number;
  readonly content: string | null;
  readonly failed: boolean;
}

export interface LocatedCall {
  readonly call: ToolCall;
  /** Role of the message that made the call (the call's own `requestor` may be missing or wrong). */
  readonly by: "assistant" | "user";
  readonly messageIndex: number;
  /** Position of the call among its message's tool calls. */
  readonly position: number;
  readonly turnIdx: number | null;
  /** The paired tool message; null when none follows (outcome unknown). */
  readonly result: ToolResult | null;
}

/**
 * Trimmed files may drop the `error` flag, so a result that reads like tau2's `Error: ...` text
 * counts as failed too.
 */
export const isFailedResult = (error: boolean, content: string | null): boolean =>
  error || content?.startsWith("Error:") === true;

/**
 * Every tool call in order, each paired with the first later tool message carrying its id. Ids may
 * be reused within a trajectory (`call_0` again and again), so a tool message goes to the oldest
 * still-unanswered call with that id.
 */
export function locateCalls(messages: readonly Message[]): LocatedCall[] {
  // Every rule asks for the same pairing of the same (immutable) message list: compute it once.
  let hit = locatedCache.get(messages);
  if (hit === undefined) {
    hit = pairCalls(messages);
    locatedCache.set(messages, hit);
  }
  return hit;
}

const locatedCache = new WeakMap<readonly Message[], LocatedCall[]>();

function pairCalls(messages: readonly Message[]): LocatedCall[] {
  const located: { call: LocatedCall; result: ToolResult | null }[] = [];
  const pending = new Map<string, number[]>();
  messages.forEach((m, messageIndex) => {
    if (m.role === "tool") {
      const slot = pending.get(m.id)?.shift();
      const entry = slot === undefined ? undefined : located[slot];
      if (entry !== undefined) {
        entry.result = { messageIndex, content: m.content, failed: isFailedResult(m.error, m.content) };
      }
      return;
    }
    if (m.role === "system" || m.tool_calls === null) return;
    m.tool_calls.forEach((call, position) => {
      const base = { call, by: m.role, messageIndex, position, turnIdx: m.turn_idx, result: null };
      const queue = pending.get(call.id) ?? [];
      queue.push(located.length);
      pending.set(call.id, queue);
      located.push({ call: base, result: null });
    });
  });
  return located.map(({ call, result }) => ({ ...call, result }));
}

export const agentCalls = (messages: readonly Message[]): LocatedCall[] =>
  locateCalls(messages).filter((c) => c.by === "assistant");

export const succeeded = (c: LocatedCall): boolean => c.result !== null && !c.result.failed;

/** The kind the agent toolkit declares for a tool; undefined for a tool it does not have. */
export const agentToolKind = (domain: PolicyDomain, name: string): ToolKind | undefined =>
  domain.agentTools.tools.get(name)?.kind;

/** The latest user message with text strictly before `messageIndex`, if any. */
export function latestUserText(
  messages: readonly Message[],
  messageIndex: number,
): { readonly messageIndex: number; readonly text: string } | null {
  for (let i = messageIndex - 1; i >= 0; i--) {
    const m = messages[i];
    if (m !== undefined && m.role === "user" && hasTextContent(m.content))
      return { messageIndex: i, text: m.content };
  }
  return null;
}

/** A message's recorded turn, or its index when it recorded none. */
export const turnOf = (messages: readonly Message[], i: number): number => messages[i]?.turn_idx ?? i;

/** The latest agent message with text strictly before `index`, and where it is. */
export function agentTextBefore(
  messages: readonly Message[],
  index: number,
): { readonly at: number; readonly text: string } | null {
  for (let i = index - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== "assistant") continue;
    const t = textOf(m);
    if (t !== null) return { at: i, text: t };
  }
  return null;
}

/** The message's text when it has any (tau2's `has_text_content`), else null. */
export function textOf(m: Message | undefined): string | null {
  if (m === undefined || m.role === "tool") return null;
  return hasTextContent(m.content) ? m.content : null;
}

/** Evidence located at a message; `turnIdx` only when the message recorded one. */
export function messageEvidence(
  code: string,
  message: string,
  messages: readonly Message[],
  messageIndex: number,
  text: string | null,
): Evidence {
  const turnIdx = messages[messageIndex]?.turn_idx ?? null;
  return {
    code,
    message,
    messageIndex,
    ...(turnIdx === null ? {} : { turnIdx }),
    ...(text === null ? {} : { excerpt: excerpt(text) }),
  };
}

/** Evidence about one tool call: where it is, which call, with what arguments. */
export function callEvidence(code: string, message: string, c: LocatedCall, text: string | null): Evidence {
  return {
    code,
    message,
    messageIndex: c.messageIndex,
    ...(c.turnIdx === null ? {} : { turnIdx: c.turnIdx }),
    toolCallId: c.call.id,
    toolName: c.call.name,
    arguments: c.call.arguments,
    ...(text === null ? {} : { excerpt: excerpt(text) }),
  };
}

/** Default excerpt for a call: what the user last said before the agent acted. */
export const userContext = (messages: readonly Message[], c: LocatedCall): string | null =>
  latestUserText(messages, c.messageIndex)?.text ?? null;
