/** After a successful hand-off the conversation belongs to a human; the agent must stop acting. */
import type { Evidence } from "../../../evidence.ts";
import { agentCalls, callEvidence, type LocatedCall, succeeded, userContext } from "../trajectory.ts";
import type { PolicyInput, PolicyRule } from "../types.ts";

export const TRANSFER_TOOL = "transfer_to_human_agents";

export const actionAfterTransfer: PolicyRule<"action_after_transfer"> = {
  id: "action_after_transfer",
  description:
    "Any agent tool call after a transfer_to_human_agents call that succeeded; a loop of repeated transfers counts once.",
  limits: [
    "A transfer with no recorded result is not treated as successful.",
    "Calls listed after the transfer in the same message count as after it.",
  ],
  check({ messages }: PolicyInput): Evidence[] {
    const calls = agentCalls(messages);
    const transferAt = calls.findIndex((c) => c.call.name === TRANSFER_TOOL && succeeded(c));
    if (transferAt < 0) return [];
    const transfer = calls[transferAt] as LocatedCall;
    const out: Evidence[] = [];
    const after = calls.slice(transferAt + 1);
    for (let i = 0; i < after.length; i++) {
      const c = after[i] as LocatedCall;
      if (c.call.name !== TRANSFER_TOOL) {
        out.push(
          callEvidence(
            "action_after_transfer",
            `${c.call.name} was called after the transfer to a human agent (call ${transfer.call.id} at #${transfer.messageIndex}).`,
            c,
            userContext(messages, c),
          ),
        );
        continue;
      }
      // A transfer loop: this transfer and the ones right after it are one finding.
      let end = i;
      while (after[end + 1]?.call.name === TRANSFER_TOOL) end++;
      const n = end - i + 1;
      out.push(
        callEvidence(
          "action_after_transfer",
          `the transfer was repeated ${n === 1 ? "once" : `${n} times in a row`} after it succeeded (call ${transfer.call.id} at #${transfer.messageIndex}).`,
          c,
          userContext(messages, c),
        ),
      );
      i = end;
    }
    return out;
  },
};
