/** Verification of a fixture against the exact task it will grade. A rejected rule never grades. */

import type { Toolkit } from "../../../domains/toolkit.ts";
import type { Task } from "../../../formats/model.ts";
import { instructionField, locateQuote } from "./quote.ts";
import type { ActionPrecondition, RequirementFixture } from "./schema.ts";

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

export interface Verification {
  readonly verified: readonly VerifiedRule[];
  readonly problems: readonly RuleProblem[];
}

export interface ToolkitInfo {
  readonly agentTools: Toolkit;
  readonly userTools?: Toolkit;
}

/** Checks each rule's quote (verbatim, in its named field) and that its action is a real tool. */
export function verifyFixture(
  fixturePath: string,
  fixture: RequirementFixture,
  task: Task,
  toolkits: ToolkitInfo,
): Verification {
  const verified: VerifiedRule[] = [];
  const problems: RuleProblem[] = [];
  const seen = new Set<string>();
  for (const rule of fixture.user_preflight_requirements.action_preconditions as ActionPrecondition[]) {
    const fail = (message: string) => problems.push({ fixture: fixturePath, ruleId: rule.id, message });
    if (task.id !== fixture.task_id) fail(`fixture is for task ${fixture.task_id}, not ${task.id}`);
    if (seen.has(rule.id)) fail(`duplicate rule id ${rule.id}`);
    seen.add(rule.id);
    if (!toolkits.agentTools.tools.has(rule.action) && !toolkits.userTools?.tools.has(rule.action)) {
      fail(`action ${rule.action} is not a tool of the ${fixture.domain} toolkit`);
    }
    const loc = locateQuote(instructionField(task, rule.source_field), rule.source_quote);
    if (!loc.found) {
      const closest =
        loc.closest === null
          ? `the task has no ${rule.source_field} field`
          : `closest text: ${JSON.stringify(loc.closest)}`;
      fail(`source_quote not found verbatim in ${rule.source_field} of task ${task.id}; ${closest}`);
      continue;
    }
    if (problems.every((p) => p.ruleId !== rule.id))
      verified.push({ rule, quoteStart: loc.start, quoteEnd: loc.end });
  }
  return { verified, problems };
}
