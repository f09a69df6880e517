/** Argument scopes of rules: when a call falls inside one, and which DB entities a scope may name. */
import type { Task } from "../../../formats/model.ts";
import { isPyDict, type PyDict, type PyValue, pyEquals } from "../../../py/value.ts";

/** True when every scoped argument is present in the call with an equal value (no scope = every call). */
export function callInScope(scope: PyDict | null, args: PyValue): boolean {
  if (scope === null) return true;
  if (!isPyDict(args)) return false;
  return Object.keys(scope).every((k) => Object.hasOwn(args, k) && pyEquals(args[k], scope[k]));
}

/** Every record key and string value in a DB tree: the names a scope may use. */
export function entityNames(root: PyValue, into: Set<string> = new Set()): Set<string> {
  const stack: PyValue[] = [root];
  while (stack.length > 0) {
    const v = stack.pop() as PyValue;
    if (typeof v === "string") into.add(v);
    else if (Array.isArray(v)) stack.push(...v);
    else if (isPyDict(v)) {
      for (const k of Object.keys(v)) {
        into.add(k);
        stack.push(v[k] as PyValue);
      }
    }
  }
  return into;
}

/** Entities a task adds on top of the domain DB (its `initialization_data`). */
export function taskEntityNames(task: Task): Set<string> {
  const data = task.initial_state?.initialization_data;
  const names = new Set<string>();
  if (data?.agent_data) entityNames(data.agent_data, names);
  if (data?.user_data) entityNames(data.user_data, names);
  return names;
}
