/** tau2's ACTION component: every gold action must be matched by some tool call. */
import type { Action, Message, Task, ToolCall } from "../../formats/model.ts";
import { isPyDict, type PyDict, pyEquals } from "../../py/value.ts";

export interface ActionCheck {
  readonly action: Action;
  readonly met: boolean;
  /** The first matching call: message index and tool-call id. */
  readonly matchedBy: { readonly messageIndex: number; readonly callId: string } | null;
}

export interface ActionResult {
  readonly reward: number;
  readonly checks: readonly ActionCheck[] | null;
}

const pick = (args: PyDict, keys: ReadonlySet<string>): PyDict => {
  const out: PyDict = {};
  for (const k of Object.keys(args)) if (keys.has(k)) out[k] = args[k] as PyDict[string];
  return out;
};

/**
 * tau2's `compare_with_tool_call`: same name; compared keys are `compare_args`, or else the keys
 * the call itself gave (so omitting a gold argument still matches, adding one does not).
 */
export function actionMatchesCall(action: Action, call: ToolCall): boolean {
  if (action.name !== call.name) return false;
  if (!isPyDict(call.arguments)) return false;
  const keys = new Set(action.compare_args ?? Object.keys(call.arguments));
  if (keys.size === 0) return true;
  return pyEquals(pick(call.arguments, keys), pick(action.arguments, keys));
}

/** Every tool call of assistant and user messages, in order (requestor is not compared). */
export function allToolCalls(messages: readonly Message[]): { call: ToolCall; messageIndex: number }[] {
  const out: { call: ToolCall; messageIndex: number }[] = [];
  messages.forEach((m, messageIndex) => {
    if ((m.role === "assistant" || m.role === "user") && m.tool_calls !== null) {
      for (const call of m.tool_calls) out.push({ call, messageIndex });
    }
  });
  return out;
}

export function evaluateActions(task: Task, messages: readonly Message[]): ActionResult {
  const gold = task.evaluation_criteria?.actions ?? [];
  if (gold.length === 0) return { reward: 1, checks: null };
  const calls = allToolCalls(messages);
  const checks = gold.map((action) => {
    const hit = calls.find((c) => actionMatchesCall(action, c.call));
    return {
      action,
      met: hit !== undefined,
      matchedBy: hit === undefined ? null : { messageIndex: hit.messageIndex, callId: hit.call.id },
    };
  });
  return { reward: checks.every((c) => c.met) ? 1 : 0, checks };
}
