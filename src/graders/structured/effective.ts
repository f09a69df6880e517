/**
 * Calls as what they do (`DomainDef.effectiveCall`): banking's dispatcher calls seen as the discoverable
 * tool they run, so requirement rules, policy clauses and policy rules match `open_bank_account_4821`
 * and its arguments, not `call_discoverable_agent_tool`. A view keeps every message index, turn and
 * tool-call id, so evidence still names the real call; without the hook a view is its input itself.
 */
import type { DomainDef, EffectiveCall } from "../../domains/domain.ts";
import type { Action, Message, Task, ToolCall } from "../../formats/model.ts";
import { isPyDict, type PyValue } from "../../py/value.ts";

/** The part of a domain that knows what its calls do. */
export type CallSeer = Pick<DomainDef, "effectiveCall">;

/** What a call runs: null when it is what it names (no dispatcher, or one that dispatches nothing). */
export function seeCall(domain: CallSeer, name: string, args: PyValue): EffectiveCall | null {
  if (domain.effectiveCall === undefined || !isPyDict(args)) return null;
  return domain.effectiveCall(name, args);
}

function seenToolCall(domain: CallSeer, call: ToolCall): ToolCall {
  const seen = seeCall(domain, call.name, call.arguments);
  return seen === null ? call : { ...call, name: seen.name, arguments: seen.args };
}

/** Views worked out once per hook and message list (every rule of one grading asks for the same one). */
const messageViews = new WeakMap<object, WeakMap<readonly Message[], readonly Message[]>>();

/** The messages with every dispatcher call replaced by the call it makes (same ids, indices, turns). */
export function effectiveMessages(domain: CallSeer, messages: readonly Message[]): readonly Message[] {
  const hook = domain.effectiveCall;
  if (hook === undefined) return messages;
  let byMessages = messageViews.get(hook);
  if (byMessages === undefined) {
    byMessages = new WeakMap();
    messageViews.set(hook, byMessages);
  }
  let view = byMessages.get(messages);
  if (view === undefined) {
    let changed = false;
    const out = messages.map((m): Message => {
      if (m.role === "system" || m.role === "tool" || m.tool_calls === null) return m;
      const calls = m.tool_calls.map((c) => seenToolCall(domain, c));
      if (calls.every((c, i) => c === m.tool_calls?.[i])) return m;
      changed = true;
      return { ...m, tool_calls: calls };
    });
    view = changed ? out : messages;
    byMessages.set(messages, view);
  }
  return view;
}

/**
 * A gold action as the call it makes. Its `compare_args` named the dispatcher's arguments: `arguments`
 * among them compares every argument of the dispatched call, `agent_tool_name` alone only its name.
 */
export function effectiveAction(domain: CallSeer, action: Action): Action {
  const seen = seeCall(domain, action.name, action.arguments);
  if (seen === null) return action;
  const compare = action.compare_args;
  return {
    ...action,
    name: seen.name,
    arguments: seen.args,
    compare_args: compare === null || compare.includes("arguments") ? null : [],
  };
}

const taskViews = new WeakMap<object, WeakMap<Task, Task>>();

/** The task with its gold actions as the calls they make (the task itself when none dispatches). */
export function effectiveTask(domain: CallSeer, task: Task): Task {
  const hook = domain.effectiveCall;
  const criteria = task.evaluation_criteria;
  if (hook === undefined || criteria === null || criteria.actions === null) return task;
  let byTask = taskViews.get(hook);
  if (byTask === undefined) {
    byTask = new WeakMap();
    taskViews.set(hook, byTask);
  }
  let view = byTask.get(task);
  if (view === undefined) {
    const actions = criteria.actions.map((a) => effectiveAction(domain, a));
    view = actions.every((a, i) => a === criteria.actions?.[i])
      ? task
      : { ...task, evaluation_criteria: { ...criteria, actions } };
    byTask.set(task, view);
  }
  return view;
}
