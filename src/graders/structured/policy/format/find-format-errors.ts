/**
 * Format errors: the agent's output broke the protocol (markup left in text, a tool that does not
 * exist, arguments Python could not bind, an empty or cut-off message). Business errors a tool
 * returns for valid calls (`Error: Reservation X not found`) are the agent's judgement, not format.
 */
import type { Message } from "../../../../formats/model.ts";
import { isPyDict } from "../../../../py/value.ts";
import type { Evidence } from "../../../evidence.ts";
import {
  callEvidence,
  type LocatedCall,
  locateCalls,
  messageEvidence,
  textOf,
  userContext,
} from "../trajectory.ts";
import type { PolicyInput } from "../types.ts";
import { findToolCallMarkup, isArgumentRejection, truncationSign } from "./markup.ts";

export type FormatErrorKind =
  | "unparsed_tool_call"
  | "unknown_tool"
  | "invalid_arguments"
  | "empty_message"
  | "truncated_generation"
  | "protocol_error";

export const formatCode = (kind: FormatErrorKind): string => `format.${kind}`;

/** Where to start an excerpt so the matched markup is in view. */
const CONTEXT_BEFORE = 40;

function textErrors(messages: readonly Message[], messageIndex: number, text: string): Evidence[] {
  const out: Evidence[] = [];
  const markup = findToolCallMarkup(text);
  if (markup !== null) {
    const shown = text.slice(Math.max(0, markup.index - CONTEXT_BEFORE));
    out.push(
      messageEvidence(
        formatCode("unparsed_tool_call"),
        `Agent text to the user contains tool-call markup (${markup.label}).`,
        messages,
        messageIndex,
        shown,
      ),
    );
  }
  const cut = truncationSign(text);
  if (cut !== null) {
    out.push(
      messageEvidence(
        formatCode("truncated_generation"),
        `Agent text ends with ${cut}.`,
        messages,
        messageIndex,
        text.slice(-CONTEXT_BEFORE * 3),
      ),
    );
  }
  return out;
}

function callErrors(input: PolicyInput, c: LocatedCall): Evidence[] {
  const { domain, messages } = input;
  const out: Evidence[] = [];
  const name = c.call.name;
  if (!domain.agentTools.tools.has(name) && !(domain.userTools?.tools.has(name) ?? false)) {
    out.push(
      callEvidence(
        formatCode("unknown_tool"),
        `Tool ${name} exists in no toolkit.`,
        c,
        userContext(messages, c),
      ),
    );
  }
  if (!isPyDict(c.call.arguments)) {
    out.push(
      callEvidence(
        formatCode("invalid_arguments"),
        `Arguments of ${name} are not a JSON object.`,
        c,
        userContext(messages, c),
      ),
    );
  } else if (c.result?.failed && isArgumentRejection(c.result.content ?? "")) {
    out.push(
      callEvidence(
        formatCode("invalid_arguments"),
        `The tool rejected the arguments of ${name} (result #${c.result.messageIndex}).`,
        c,
        c.result.content,
      ),
    );
  }
  return out;
}

function emptyMessage(messages: readonly Message[], messageIndex: number): Evidence {
  return messageEvidence(
    formatCode("empty_message"),
    "Agent message has neither text nor tool calls.",
    messages,
    messageIndex,
    null,
  );
}

/** Every format error of the agent, in message order; `protocol_error` only when nothing else explains an `agent_error` ending. */
export function findFormatErrors(input: PolicyInput): Evidence[] {
  const { messages } = input;
  const callsByMessage = new Map<number, LocatedCall[]>();
  for (const c of locateCalls(messages)) {
    if (c.by !== "assistant") continue;
    callsByMessage.set(c.messageIndex, [...(callsByMessage.get(c.messageIndex) ?? []), c]);
  }
  const out: Evidence[] = [];
  messages.forEach((m, messageIndex) => {
    if (m.role !== "assistant") return;
    const text = textOf(m);
    const calls = callsByMessage.get(messageIndex) ?? [];
    if (text === null && calls.length === 0) out.push(emptyMessage(messages, messageIndex));
    if (text !== null) out.push(...textErrors(messages, messageIndex, text));
    for (const c of calls) out.push(...callErrors(input, c));
  });
  if (input.terminationReason === "agent_error" && out.length === 0) {
    const last = messages.length - 1;
    const protocol = "The episode ended with agent_error and no other format error explains it.";
    out.push(
      last < 0
        ? { code: formatCode("protocol_error"), message: protocol }
        : messageEvidence(formatCode("protocol_error"), protocol, messages, last, textOf(messages[last])),
    );
  }
  return out;
}
