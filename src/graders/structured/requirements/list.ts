/** The rules of a requirement set as flat rows, for listing and for machine-readable output. */
import type { PyDict } from "../../../py/value.ts";
import type { RequirementSet } from "./load.ts";
import type { SourceField } from "./schema.ts";

export interface RuleRow {
  readonly domain: string;
  readonly task_version: string;
  readonly task_id: string;
  readonly id: string;
  readonly action: string;
  readonly rule: string;
  readonly source_field: SourceField;
  readonly source_quote: string;
  readonly arguments: PyDict | null;
}

export function ruleRows(set: RequirementSet): RuleRow[] {
  return set.fixtures.flatMap(({ fixture: f }) =>
    f.user_preflight_requirements.action_preconditions.map((r) => ({
      domain: f.domain,
      task_version: f.task_version,
      task_id: f.task_id,
      id: r.id,
      action: r.action,
      rule: r.rule,
      source_field: r.source_field,
      source_quote: r.source_quote,
      arguments: (r.arguments as PyDict | null) ?? null,
    })),
  );
}
