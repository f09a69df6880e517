/** Verification of a fixture against the exact task it will grade. A rejected rule never grades. */

import type { Toolkit } from "../../../domains/toolkit.ts";
import type { Task } from "../../../formats/model.ts";
import { instructionField, locateQuote } from "./quote.ts";
import type { ActionPrecondition, Permission, RequirementFixture } from "./schema.ts";

export interface VerifiedRule {
  readonly rule: ActionPrecondition;
  /** Code-point offsets of the quote in its field. */
  readonly quoteStart: number;
  readonly quoteEnd: number;
}

export interface RuleProblem {
  readonly fixture: string;
  readonly ruleId: string;
  readonly message: string;
}

export interface VerifiedPermission {
  readonly permission: Permission;
  readonly quoteStart: number;
  readonly quoteEnd: number;
}

export interface Verification {
  /** Prohibitions whose quote is verbatim in the task. */
  readonly verified: readonly VerifiedRule[];
  readonly permissions: readonly VerifiedPermission[];
  readonly problems: readonly RuleProblem[];
}

/** The task id of a fixture that applies to every task of its version whose text holds its quotes. */
export const EVERY_TASK_ID = "*";

export interface ToolkitInfo {
  readonly agentTools: Toolkit;
  readonly userTools?: Toolkit;
}

/**
 * Checks each rule's quote (verbatim, in its named field) and that its action is a real tool. A fixture
 * for every task (`*`) applies a rule only where its quote is; elsewhere the rule is silent, not wrong.
 */
export function verifyFixture(
  fixturePath: string,
  fixture: RequirementFixture,
  task: Task,
  toolkits: ToolkitInfo,
): Verification {
  const verified: VerifiedRule[] = [];
  const permissions: VerifiedPermission[] = [];
  const problems: RuleProblem[] = [];
  const seen = new Set<string>();
  const every = fixture.task_id === EVERY_TASK_ID;
  const reqs = fixture.user_preflight_requirements;
  const rules: (ActionPrecondition | Permission)[] = [
    ...(reqs.action_preconditions as ActionPrecondition[]),
    ...(reqs.permissions as Permission[]),
  ];
  rules.forEach((rule, i) => {
    const isPermission = i >= reqs.action_preconditions.length;
    const fail = (message: string) => problems.push({ fixture: fixturePath, ruleId: rule.id, message });
    if (!every && task.id !== fixture.task_id) fail(`fixture is for task ${fixture.task_id}, not ${task.id}`);
    if (seen.has(rule.id)) fail(`duplicate rule id ${rule.id}`);
    seen.add(rule.id);
    // A scaffold's drafts say TODO until an author edits them; unedited, they must not be enforced.
    for (const [field, value] of [
      ["rule", rule.rule],
      ["action", rule.action],
      ["source_quote", rule.source_quote],
    ])
      if (/\bTODO\b/.test(value ?? ""))
        fail(`unedited scaffold: ${field} still reads ${JSON.stringify(value)}`);
    if (!toolkits.agentTools.tools.has(rule.action) && !toolkits.userTools?.tools.has(rule.action)) {
      fail(`action ${rule.action} is not a tool of the ${fixture.domain} toolkit`);
    }
    const text = instructionField(task, rule.source_field);
    // A rule for every task is silent where its quote is not: no closest-text search for the message.
    if (every && !(text ?? "").includes(rule.source_quote)) return;
    const loc = locateQuote(text, rule.source_quote);
    if (!loc.found) {
      const closest =
        loc.closest === null
          ? `the task has no ${rule.source_field} field`
          : `closest text: ${JSON.stringify(loc.closest)}`;
      fail(`source_quote not found verbatim in ${rule.source_field} of task ${task.id}; ${closest}`);
      return;
    }
    if (problems.some((p) => p.ruleId === rule.id)) return;
    if (isPermission)
      permissions.push({ permission: rule as Permission, quoteStart: loc.start, quoteEnd: loc.end });
    else verified.push({ rule: rule as ActionPrecondition, quoteStart: loc.start, quoteEnd: loc.end });
  });
  return { verified, permissions, problems };
}
