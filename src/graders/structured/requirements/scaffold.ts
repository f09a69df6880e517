/**
 * A fixture scaffold for one task, prefilled from its scanned candidates, for an author to edit:
 * every candidate that hints at a tool becomes a draft rule (the first one only when none does).
 * Drafts are marked TODO (rule text, action choice, scope) and quote the whole candidate sentence,
 * which the author trims to the refusal itself.
 */
import type { DomainDef } from "../../../domains/domain.ts";
import type { Task } from "../../../formats/model.ts";
import { ruleIdTaskSegment } from "./paths.ts";
import { scanTask } from "./scan.ts";
import type { RequirementFixture } from "./schema.ts";

export const TODO_ACTION = "TODO_choose_a_tool";

export function scaffoldFixture(domain: DomainDef, taskVersion: string, task: Task): RequirementFixture {
  const candidates = scanTask(task, domain, taskVersion);
  const withTools = candidates.filter((c) => c.tools.length > 0);
  const drafts = withTools.length > 0 ? withTools : candidates.slice(0, 1);
  const idPrefix = `${domain.name}.${ruleIdTaskSegment(task.id)}`;
  const preconditions =
    drafts.length === 0
      ? [
          {
            id: `${idPrefix}.todo_1`,
            action: TODO_ACTION,
            rule: "TODO: no candidate sentence found; quote the user's refusal verbatim",
            source_field: "task_instructions" as const,
            source_quote: "TODO: verbatim quote",
            arguments: null,
          },
        ]
      : drafts.map((c, i) => ({
          id: `${idPrefix}.todo_${i + 1}`,
          action: c.tools[0] ?? TODO_ACTION,
          rule: `TODO: state the prohibition (tools hinted: ${c.tools.join(", ") || "none"})`,
          source_field: c.field,
          source_quote: c.sentence,
          arguments: null,
        }));
  return {
    domain: domain.name,
    task_version: taskVersion,
    task_id: task.id,
    user_preflight_requirements: { action_preconditions: preconditions, permissions: [], charge_caps: [] },
    task_facts: [],
  };
}
