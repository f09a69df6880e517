/**
 * One record per flip (a row of the `flips` view) with the evidence behind it: the requirement
 * violations, delta-gate field differences and policy hits whose causes the structured grader gave,
 * each with its turn and an excerpt of that message. Everything here is read from the store.
 */
import { rows } from "../analysis/report.ts";
import type { VerdictStore } from "../store/store.ts";

export interface FlipRow {
  sim_key: string;
  domain: string;
  task_version: string;
  task_id: string;
  trial: number | null;
  model: string;
  path: string;
  direction: "pass_to_fail" | "fail_to_pass";
  structured_causes: string[];
  tau3_causes: string[];
}
export interface RequirementEvidence {
  sim_key: string;
  rule_id: string;
  action: string;
  quote: string;
  message_index: number | null;
  turn_idx: number | null;
  tool_call_id: string | null;
  arguments: string | null;
  excerpt: string | null;
}
export interface FieldEvidence {
  sim_key: string;
  db: string;
  path: string;
  initial_value: string | null;
  gold_value: string | null;
  predicted_value: string | null;
}
export interface PolicyEvidence {
  sim_key: string;
  rule: string;
  message: string;
  message_index: number | null;
  turn_idx: number | null;
  tool_name: string | null;
  excerpt: string | null;
}

export interface FlipDrilldown {
  readonly flip: FlipRow;
  readonly requirements: readonly RequirementEvidence[];
  readonly fields: readonly FieldEvidence[];
  readonly policies: readonly PolicyEvidence[];
  /** Structured causes with no evidence rows (e.g. `format_errors`, handoff). */
  readonly otherCauses: readonly string[];
}

/** The cause string the structured grader writes for each kind of evidence. */
export const requirementCause = (e: RequirementEvidence) => `preflight:${e.rule_id}`;
export const fieldCause = (e: FieldEvidence) => `delta_gate:${e.db === "user" ? "user:" : ""}${e.path}`;
export const policyCause = (e: PolicyEvidence) => `policy:${e.rule}`;

const FLIPPED = "sim_key IN (SELECT sim_key FROM flips)";

export async function loadDrilldown(store: VerdictStore): Promise<FlipDrilldown[]> {
  const flips = await rows<FlipRow>(
    store,
    `SELECT f.sim_key, f.domain, f.task_version, f.task_id, f.trial, f.model, f.path, f.direction, f.structured_causes,
            from_json(coalesce(t.causes, '[]'), '["VARCHAR"]') AS tau3_causes
     FROM flips f
     LEFT JOIN verdicts t ON t.sim_key = f.sim_key AND t.grader = 'tau3' AND t.run_id = (SELECT run_id FROM current_run)
     ORDER BY f.domain, f.model, f.task_id, f.sim_key`,
  );
  const inRun = `run_id = (SELECT run_id FROM current_run) AND ${FLIPPED}`;
  const requirements = await rows<RequirementEvidence>(
    store,
    `SELECT sim_key, rule_id, action, quote, message_index, turn_idx, tool_call_id, arguments, excerpt
     FROM violations WHERE ${inRun} ORDER BY sim_key, seq`,
  );
  const fields = await rows<FieldEvidence>(
    store,
    `SELECT sim_key, db, path, initial_value, gold_value, predicted_value
     FROM field_diffs WHERE ${inRun} ORDER BY sim_key, db, path`,
  );
  const policies = await rows<PolicyEvidence>(
    store,
    `SELECT sim_key, rule, message, message_index, turn_idx, tool_name, excerpt
     FROM policy_hits WHERE ${inRun} ORDER BY sim_key, seq`,
  );

  return flips.map((flip) => {
    const causes = new Set(flip.structured_causes);
    const mine = <T extends { sim_key: string }>(list: readonly T[], cause: (e: T) => string) =>
      list.filter((e) => e.sim_key === flip.sim_key && causes.has(cause(e)));
    const r = mine(requirements, requirementCause);
    const f = mine(fields, fieldCause);
    const p = mine(policies, policyCause);
    const explained = new Set([
      ...r.map(requirementCause),
      ...f.map(fieldCause),
      ...p.map(policyCause),
      "tau3",
    ]);
    return {
      flip,
      requirements: r,
      fields: f,
      policies: p,
      otherCauses: flip.structured_causes.filter((c) => !explained.has(c)),
    };
  });
}
