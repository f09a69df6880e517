/**
 * Replays a message list into an environment as tau2's `set_state` does (step 3–4): pair every
 * tool call with its tool message, skip unknown and non-mutating tools, execute the rest, compare
 * outputs (strict aborts, lenient records), and sync once at the end.
 */
import type { Message, ToolCall } from "../formats/model.ts";
import { pyEquals } from "../py/value.ts";
import { parseToolContent } from "./compare.ts";
import type { Environment } from "./environment.ts";
import { ReplayAbort } from "./errors.ts";
import type { WriteJournal } from "./journal.ts";

export interface PairedCall {
  readonly call: ToolCall;
  readonly result: Extract<Message, { role: "tool" }>;
  /** Index of the message that carried the call, and of its tool message. */
  readonly callIndex: number;
  readonly resultIndex: number;
}

/** tau2's `get_actions_from_messages`, with its exact error texts. */
export function pairToolCalls(messages: readonly Message[]): PairedCall[] {
  const out: PairedCall[] = [];
  let i = 0;
  while (i < messages.length) {
    const m = messages[i] as Message;
    const at = i;
    i++;
    if (m.role === "tool") {
      throw new ReplayAbort(
        "Tool message not expected. Tool messages should always follow a tool call.",
        `messages[${at}]`,
      );
    }
    if ((m.role === "assistant" || m.role === "user") && m.tool_calls !== null) {
      for (const call of m.tool_calls) {
        const tm = messages[i];
        if (tm === undefined) throw new ReplayAbort("Tool message expected. Got None.", `messages[${at}]`);
        if (tm.role !== "tool") {
          throw new ReplayAbort(
            `Tool message expected. Got ${pythonMessageClass(tm.role)}`,
            `messages[${i}]`,
          );
        }
        if (call.id !== tm.id)
          throw new ReplayAbort(`Tool call id mismatch. Got ${call.id} and ${tm.id}`, `messages[${i}]`);
        out.push({ call, result: tm, callIndex: at, resultIndex: i });
        i++;
      }
    }
  }
  return out;
}

const pythonMessageClass = (role: Message["role"]): string =>
  `<class 'tau2.data_model.message.${{ system: "SystemMessage", assistant: "AssistantMessage", user: "UserMessage", tool: "ToolMessage" }[role]}'>`;

/** A replayed mutating call whose fresh output differs from the recorded one. */
export interface OutputMismatch {
  readonly callId: string;
  readonly name: string;
  readonly messageIndex: number;
  readonly recorded: string | null;
  readonly replayed: string;
}

export interface ReplayReport {
  /** Calls actually executed (mutating tools known to the domain). */
  readonly executed: number;
  readonly skippedUnknown: readonly { readonly callId: string; readonly name: string }[];
  readonly mismatches: readonly OutputMismatch[];
  /** Calls whose result the port could only produce through a JS fault (never expected). */
  readonly internalFaults: readonly OutputMismatch[];
}

export interface ReplayOptions {
  /** Strict replay aborts on the first output mismatch (tau2 live mode); lenient records it. */
  readonly strict: boolean;
  /**
   * Lenient replay only: false skips rendering and comparing outputs (the state is the same either
   * way, and graders do not read the mismatch list). Default true.
   */
  readonly compareOutputs?: boolean;
  /** Records which executed call (or the final sync) wrote which DB unit, and the values before. */
  readonly journal?: WriteJournal;
}

export function replayMessages(
  env: Environment,
  messages: readonly Message[],
  opts: ReplayOptions,
): ReplayReport {
  if (env.solo && messages.some((m) => m.role === "user")) {
    throw new ReplayAbort("User messages are not allowed in solo mode");
  }
  const pairs = pairToolCalls(messages);
  const journal = opts.journal;
  const detach = journal?.attach(env.agent, env.user);
  try {
    return replayPairs(env, messages, pairs, opts);
  } finally {
    detach?.();
  }
}

function replayPairs(
  env: Environment,
  messages: readonly Message[],
  pairs: readonly PairedCall[],
  opts: ReplayOptions,
): ReplayReport {
  const journal = opts.journal;
  const skippedUnknown: { callId: string; name: string }[] = [];
  const mismatches: OutputMismatch[] = [];
  const internalFaults: OutputMismatch[] = [];
  let executed = 0;
  for (const p of pairs) {
    const { call } = p;
    if (!env.hasTool(call.name)) {
      skippedUnknown.push({ callId: call.id, name: call.name });
      continue;
    }
    if (!env.isMutating(call.name)) continue;
    executed++;
    journal?.begin({
      kind: "call",
      callId: call.id,
      name: call.name,
      requestor: call.requestor,
      messageIndex: p.callIndex,
      turnIdx: messages[p.callIndex]?.turn_idx ?? null,
      toolkit: env.domain.agentTools.tools.has(call.name) ? "agent" : "user",
    });
    const compare = opts.strict || opts.compareOutputs !== false;
    const out = env.respond(call.name, call.requestor, call.arguments, compare);
    const mismatch: OutputMismatch = {
      callId: call.id,
      name: call.name,
      messageIndex: p.resultIndex,
      recorded: p.result.content,
      replayed: out.content,
    };
    if (out.internal) internalFaults.push(mismatch);
    if (p.result.content === null) {
      // tau2 calls json.loads(None) here, which raises TypeError outside the JSON fallback.
      throw new ReplayAbort(
        "the JSON object must be str, bytes or bytearray, not NoneType",
        `messages[${p.resultIndex}]`,
      );
    }
    if (compare && !pyEquals(parseToolContent(out.content), parseToolContent(p.result.content))) {
      if (opts.strict) {
        throw new ReplayAbort(
          `Replayed tool call '${call.name}' returned different content than recorded`,
          `messages[${p.resultIndex}]`,
        );
      }
      mismatches.push(mismatch);
    }
  }
  journal?.begin({ kind: "sync" });
  env.sync();
  return { executed, skippedUnknown, mismatches, internalFaults };
}
