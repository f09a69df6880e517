/** `gold`: the reference actions, each write confirmed by the user; both graders should pass it. */
import { buildTrajectory, goldSteps } from "../gold.ts";
import type { ProbeBuilder } from "../kind.ts";

export const goldProbe: ProbeBuilder = ({ ctx }, task) => ({
  messages: buildTrajectory(ctx, task, goldSteps(ctx, task)),
  note: { kind: "gold", injected: null },
});
