/**
 * `null-agent`: greets, politely refuses, changes nothing. It measures what a grader rewards for
 * doing nothing: a task whose gold writes nothing and asks nothing to be said passes τ³ this way.
 */
import { buildTrajectory } from "../gold.ts";
import type { ProbeBuilder } from "../kind.ts";

export const REFUSAL = "I'm sorry, but I'm not able to help with that request.";

export const nullAgentProbe: ProbeBuilder = ({ ctx }, task) => ({
  messages: buildTrajectory(ctx, task, [], { closing: REFUSAL }),
  note: { kind: "null-agent", injected: null },
});
