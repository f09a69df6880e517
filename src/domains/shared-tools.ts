/** Tools that several tau2 toolkits declare identically. */
import type { ToolDef } from "./toolkit.ts";

/** GENERIC: tells the orchestrator to hand the user over; changes no state. */
export const transferToHumanAgents: ToolDef = {
  name: "transfer_to_human_agents",
  kind: "generic",
  params: [{ name: "summary" }],
  run: () => "Transfer successful",
};
