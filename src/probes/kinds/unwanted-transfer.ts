/**
 * `unwanted-transfer`: gold plus a transfer to a human agent, only on tasks whose requirement
 * fixture says the user refuses transfers. τ³ cannot see it (no DB change); the fixture can.
 */
import { goldTrajectory } from "../gold.ts";
import type { ProbeBuilder } from "../kind.ts";

const TRANSFER = "transfer_to_human_agents";

export const unwantedTransferProbe: ProbeBuilder = ({ ctx, domain, taskVersion, requirements }, task) => {
  const fixture = requirements.find(domain, taskVersion, task.id);
  const rule = fixture?.fixture.user_preflight_requirements.action_preconditions.find(
    (r) => r.action === TRANSFER && r.arguments === null,
  );
  if (rule === undefined) return { skipped: "no requirement fixture prohibits transfers" };
  const args = { summary: "The user asked for help; transferring to a human agent." };
  const step = {
    action: { name: TRANSFER, arguments: args, requestor: "assistant" as const },
    confirm: false,
  };
  return {
    messages: goldTrajectory(ctx, task, [step]),
    note: {
      kind: "unwanted-transfer",
      injected: {
        tool: TRANSFER,
        arguments: args,
        record: null,
        record_path: null,
        policy: null,
        requirement: `${rule.id}: ${rule.rule} (user: "${rule.source_quote}")`,
      },
    },
  };
};
