/**
 * Checks a task's requirements against a trajectory: a violation is an assistant tool call to a
 * prohibited action (within its argument scope, when given), whatever the tool returned. The grader
 * then tells calls that took effect from attempts (failed, or changed nothing: `../attempts.ts`).
 */
import type { Message } from "../../../formats/model.ts";
import type { Evidence } from "../../evidence.ts";
import { allToolCalls } from "../../tau3/action.ts";
import { callInScope } from "./scope.ts";
import type { VerifiedRule } from "./verify.ts";

export type RequirementViolation = Evidence & { readonly ruleId: string; readonly quote: string };

export interface RequirementCheck {
  readonly pass: boolean;
  readonly violations: readonly RequirementViolation[];
  /** Rules that were checked (verified): id, and where the quote sits (code-point offsets, end exclusive). */
  readonly checked: readonly {
    readonly id: string;
    readonly source_field: string;
    readonly quote_start: number;
    readonly quote_end: number;
  }[];
}

export function checkRequirements(
  rules: readonly VerifiedRule[],
  messages: readonly Message[],
): RequirementCheck {
  const calls = allToolCalls(messages).filter(
    ({ messageIndex }) => messages[messageIndex]?.role === "assistant",
  );
  const violations: RequirementViolation[] = [];
  for (const { rule } of rules) {
    for (const { call, messageIndex } of calls) {
      if (call.name !== rule.action || !callInScope(rule.arguments, call.arguments)) continue;
      const m = messages[messageIndex];
      violations.push({
        code: "requirement.violation",
        ruleId: rule.id,
        quote: rule.source_quote,
        message: `${rule.id}: ${rule.rule} (user: "${rule.source_quote}")`,
        messageIndex,
        turnIdx: m?.turn_idx ?? null,
        toolCallId: call.id,
        toolName: call.name,
        actor: "agent",
        arguments: call.arguments,
      });
    }
  }
  const checked = rules.map((r) => ({
    id: r.rule.id,
    source_field: r.rule.source_field,
    quote_start: r.quoteStart,
    quote_end: r.quoteEnd,
  }));
  return { pass: violations.length === 0, violations, checked };
}
