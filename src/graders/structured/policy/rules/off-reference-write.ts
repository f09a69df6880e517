/** A state change the reference solution does not make: the likeliest source of collateral damage. */

import type { Action, ToolCall } from "../../../../formats/model.ts";
import { isPyDict, type PyValue, pyEquals } from "../../../../py/value.ts";
import type { Evidence } from "../../../evidence.ts";
import { agentCalls, agentToolKind, callEvidence, succeeded, userContext } from "../trajectory.ts";
import type { PolicyInput, PolicyRule } from "../types.ts";

/** Same meaning: equal values, where a record inside the arguments may carry fields the gold's does not. */
function sameMeaning(gold: PyValue | undefined, call: PyValue | undefined): boolean {
  if (gold === undefined || call === undefined) return gold === call;
  if (isPyDict(gold))
    return (
      isPyDict(call) &&
      Object.keys(gold).every((k) => Object.hasOwn(call, k) && sameMeaning(gold[k], call[k]))
    );
  if (Array.isArray(gold))
    return (
      Array.isArray(call) && gold.length === call.length && gold.every((g, i) => sameMeaning(g, call[i]))
    );
  return pyEquals(gold, call);
}

/**
 * tau2's choice of compared keys (`compare_args`, else the call's own), each compared by meaning: a
 * flight entry with an extra `price` field is the same flight.
 */
export function writesTheSame(action: Action, call: ToolCall): boolean {
  if (action.name !== call.name || !isPyDict(call.arguments)) return false;
  const args = call.arguments;
  const keys = action.compare_args ?? Object.keys(args);
  return keys.every(
    (k) =>
      Object.hasOwn(action.arguments, k) === Object.hasOwn(args, k) &&
      sameMeaning(action.arguments[k], args[k]),
  );
}

export const offReferenceWrite: PolicyRule<"off_reference_write"> = {
  id: "off_reference_write",
  description:
    "A successful agent write that matches no gold action: no gold action has its name, or every gold action of that name has arguments of another meaning (tau2's compared keys; records inside may carry extra fields).",
  limits: [
    "Also fires for valid alternative solutions the reference does not list.",
    "Tasks without evaluation criteria are skipped; a task whose criteria list no actions flags every successful write.",
    "Writes whose result is missing or failed are not considered.",
  ],
  check({ domain, task, messages }: PolicyInput): Evidence[] {
    const criteria = task.evaluation_criteria;
    if (criteria === null) return [];
    const gold = criteria.actions ?? [];
    const out: Evidence[] = [];
    for (const c of agentCalls(messages)) {
      if (agentToolKind(domain, c.call.name) !== "write" || !succeeded(c)) continue;
      const sameName = gold.filter((a) => a.name === c.call.name);
      if (sameName.some((a) => writesTheSame(a, c.call))) continue;
      const why =
        sameName.length === 0
          ? "no gold action has this name"
          : `its arguments differ from all ${sameName.length} gold ${c.call.name} action(s)`;
      out.push(
        callEvidence(
          "off_reference_write",
          `Successful write ${c.call.name} is off the reference: ${why}.`,
          c,
          userContext(messages, c),
        ),
      );
    }
    return out;
  },
};
