import type { JournalStep } from "../../src/replay/journal.ts";

/** The `i`-th step of a test replay: an agent call of a tool named `t`, made by message `i`. */
export const agentCall = (i: number, turnIdx: number | null = null): JournalStep => ({
  kind: "call",
  callId: `c${i}`,
  name: "t",
  requestor: "assistant",
  messageIndex: i,
  turnIdx,
  toolkit: "agent",
});
