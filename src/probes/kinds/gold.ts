/** `gold`: the reference actions, each write confirmed by the user; both graders should pass it. */
import { goldTrajectory } from "../gold.ts";
import type { ProbeBuilder } from "../kind.ts";

export const goldProbe: ProbeBuilder = ({ ctx }, task) => ({
  messages: goldTrajectory(ctx, task),
  note: { kind: "gold", injected: null },
});
