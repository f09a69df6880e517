/** The policies ask for one tool call at a time, and no reply to the user alongside a call. */

import { hasTextContent } from "../../../../py/text.ts";
import type { Evidence } from "../../../evidence.ts";
import { messageEvidence } from "../trajectory.ts";
import type { PolicyInput, PolicyRule } from "../types.ts";

export const multipleActionsInTurn: PolicyRule<"multiple_actions_in_turn"> = {
  id: "multiple_actions_in_turn",
  description: "One agent message with several tool calls, or with a tool call plus text to the user.",
  limits: ["One evidence item per message; it names the message's first tool call."],
  check({ messages }: PolicyInput): Evidence[] {
    const out: Evidence[] = [];
    messages.forEach((m, messageIndex) => {
      if (m.role !== "assistant" || m.tool_calls === null || m.tool_calls.length === 0) return;
      const calls = m.tool_calls;
      const withText = hasTextContent(m.content);
      if (calls.length < 2 && !withText) return;
      const names = calls.map((c) => c.name).join(", ");
      const what = [
        calls.length > 1 ? `${calls.length} tool calls (${names})` : `a tool call (${names})`,
        withText ? "text to the user" : null,
      ]
        .filter((s) => s !== null)
        .join(" and ");
      const first = calls[0]!;
      out.push({
        ...messageEvidence(
          "multiple_actions_in_turn",
          `One agent message holds ${what}.`,
          messages,
          messageIndex,
          withText ? m.content : null,
        ),
        toolCallId: first.id,
        toolName: first.name,
      });
    });
    return out;
  },
};
