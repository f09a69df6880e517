/** tau2's COMMUNICATE component: each info string must appear in some assistant text. */
import type { Message, Task } from "../../formats/model.ts";
import { hasTextContent, pyLower } from "../../py/text.ts";

export interface CommunicateCheck {
  readonly info: string;
  readonly met: boolean;
  /** Index of the first assistant message that contains it. */
  readonly messageIndex: number | null;
}

export interface CommunicateResult {
  readonly reward: number;
  /** Null when there was nothing to check (tau2 reports `communicate_checks: null`). */
  readonly checks: readonly CommunicateCheck[] | null;
}

export function evaluateCommunicate(task: Task, messages: readonly Message[]): CommunicateResult {
  const infos = task.evaluation_criteria?.communicate_info ?? [];
  if (infos.length === 0) return { reward: 1, checks: null };
  // Only the message side has commas removed, so an info string with a comma never matches (tau2).
  const texts = messages.map((m) =>
    m.role === "assistant" && hasTextContent(m.content) ? pyLower(m.content).replaceAll(",", "") : null,
  );
  const checks = infos.map((info) => {
    const needle = pyLower(info);
    const idx = texts.findIndex((t) => t?.includes(needle));
    return { info, met: idx >= 0, messageIndex: idx >= 0 ? idx : null };
  });
  return { reward: checks.every((c) => c.met) ? 1 : 0, checks };
}
