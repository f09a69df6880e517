/**
 * Deterministic policy rules of the structured grader, and its format-error detector. Every rule
 * is a pure function of the trajectory (no I/O, no LLM) that emits `Evidence` located at a message
 * and, where one is involved, a tool call.
 *
 * Known limits, shared by the rules and reported with them:
 * - `write_without_confirmation` reads only the latest user message with text before each write;
 *   a confirmation given earlier in the conversation does not count.
 * - Confirmation and negation handling is lexical (a fixed phrase list, clause-local negation within
 *   three words before or right after the phrase); it does not understand intent.
 * - `off_reference_write` compares against the gold actions only, so it also fires for valid
 *   alternative solutions the reference does not list.
 * - Tool results are paired with calls by id; a missing result means an unknown outcome and is never
 *   counted as a success. A result is failed when its `error` flag is set or its text starts with
 *   `Error:` (trimmed files may lack the flag).
 * - `truncated_generation` only sees unclosed code fences and tool-call tags: trajectories do not
 *   keep `finish_reason`, so a reply that stops mid-sentence is not detected.
 */
import type { Evidence } from "../../evidence.ts";
import { effectiveMessages, effectiveTask } from "../effective.ts";
import { informedAmount } from "./informed/informed-amount.ts";
import { informedConsent } from "./informed/informed-consent.ts";
import { informedPayment } from "./informed/informed-payment.ts";
import { informedRecord } from "./informed/informed-record.ts";
import { misreportedAmount } from "./informed/misreported-amount.ts";
import { actionAfterTransfer } from "./rules/action-after-transfer.ts";
import { multipleActionsInTurn } from "./rules/multiple-actions-in-turn.ts";
import { offReferenceWrite } from "./rules/off-reference-write.ts";
import { onceOnlyWithoutReminder } from "./rules/once-only-without-reminder.ts";
import { summaryMismatch } from "./rules/summary-mismatch.ts";
import { unneededTransfer } from "./rules/unneeded-transfer.ts";
import { writeBeforeAuthentication } from "./rules/write-before-authentication.ts";
import { writeWithoutConfirmation } from "./rules/write-without-confirmation.ts";
import { POLICY_RULE_IDS, type PolicyInput, type PolicyRule, type PolicyRuleId } from "./types.ts";

export { findAffirmative } from "./affirmation.ts";
export { type FormatErrorKind, findFormatErrors, formatCode } from "./format/find-format-errors.ts";
export {
  POLICY_RULE_IDS,
  type PolicyDomain,
  type PolicyInput,
  type PolicyRule,
  type PolicyRuleId,
} from "./types.ts";

/** Keyed by id so the compiler rejects a rule that is declared but not registered. */
export const POLICY_RULES: { readonly [Id in PolicyRuleId]: PolicyRule<Id> } = {
  write_without_confirmation: writeWithoutConfirmation,
  write_before_authentication: writeBeforeAuthentication,
  multiple_actions_in_turn: multipleActionsInTurn,
  action_after_transfer: actionAfterTransfer,
  off_reference_write: offReferenceWrite,
  summary_mismatch: summaryMismatch,
  once_only_without_reminder: onceOnlyWithoutReminder,
  informed_amount: informedAmount,
  informed_payment: informedPayment,
  informed_record: informedRecord,
  informed_consent: informedConsent,
  misreported_amount: misreportedAmount,
  unneeded_transfer: unneededTransfer,
};

/** Runs every rule on the calls as what they do (a dispatcher's call as the tool it runs, the gold's too). */
export function runPolicyRules(input: PolicyInput): Record<PolicyRuleId, Evidence[]> {
  const seen =
    input.domain.effectiveCall === undefined
      ? input
      : {
          ...input,
          messages: effectiveMessages(input.domain, input.messages),
          task: effectiveTask(input.domain, input.task),
        };
  const out = {} as Record<PolicyRuleId, Evidence[]>;
  for (const id of POLICY_RULE_IDS) out[id] = POLICY_RULES[id].check(seen);
  return out;
}
