/**
 * What the review commands read from the store, through the analysis views of the selected run
 * (`installAnalyses` first): simulations by their own id, their causes, evidence and conversation, and
 * the flip causes still waiting for a review.
 */
import { rows } from "../analysis/report.ts";
import type { RowOf } from "../store/schema.ts";
import type { VerdictStore } from "../store/store.ts";

const sql = (s: string) => `'${s.replaceAll("'", "''")}'`;

export interface SimulationRef {
  sim_key: string;
  simulation_id: string | null;
  path: string;
  domain: string | null;
  task_id: string | null;
  trial: number | null;
  model: string;
  excluded: boolean;
  /** Null when the run stored no context for it (its graders agree). */
  fingerprint: string | null;
}

/** Simulations of the run with this id (in the trajectory file), in `path` when given. */
export async function findSimulations(
  store: VerdictStore,
  simulationId: string,
  path?: string,
): Promise<SimulationRef[]> {
  return await rows<SimulationRef>(
    store,
    `SELECT sv.sim_key, sv.simulation_id, sv.path, sv.domain, sv.task_id, sv.trial, sv.model, sv.excluded, x.fingerprint
     FROM sim_verdicts sv
     LEFT JOIN (SELECT sc.sim_key, sc.fingerprint FROM sim_context sc JOIN current_run r USING (run_id)) x USING (sim_key)
     WHERE sv.simulation_id = ${sql(simulationId)}${path === undefined ? "" : ` AND sv.path = ${sql(path)}`}
     ORDER BY sv.path, sv.sim_key`,
  );
}

export interface CauseRef {
  sim_key: string;
  grader: string;
  seq: number;
  kind: string;
  reference: string;
  gates: boolean;
  message: string;
  message_index: number | null;
  turn_idx: number | null;
  /** One of the structured grader's gating causes of a flip: what `review` walks. */
  flip_cause: boolean;
}

export async function causesOf(store: VerdictStore, simKey: string): Promise<CauseRef[]> {
  return await rows<CauseRef>(
    store,
    `SELECT c.sim_key, c.grader, c.seq, c.kind, c.reference, c.gates, c.message, c.message_index, c.turn_idx,
            t.sim_key IS NOT NULL AS flip_cause
     FROM run_causes c
     LEFT JOIN review_targets t ON t.sim_key = c.sim_key AND t.grader = c.grader AND t.seq = c.seq
     WHERE c.sim_key = ${sql(simKey)} ORDER BY c.grader, c.seq`,
  );
}

export interface ReviewTarget {
  sim_key: string;
  grader: string;
  seq: number;
  kind: string;
  reference: string;
  message: string;
  message_index: number | null;
  turn_idx: number | null;
  domain: string;
  model: string;
  task_id: string;
  trial: number | null;
  direction: string;
  path: string;
  simulation_id: string | null;
  excluded: boolean;
  fingerprint: string | null;
  verdict: string | null;
}

/** Flip causes (one per simulation, grader, kind and reference) without an applied review. */
export async function unreviewedTargets(
  store: VerdictStore,
  opts: { includeExcluded: boolean },
): Promise<ReviewTarget[]> {
  return await rows<ReviewTarget>(
    store,
    `SELECT * FROM target_reviews
     WHERE verdict IS NULL AND fingerprint IS NOT NULL${opts.includeExcluded ? "" : " AND NOT excluded"}
     QUALIFY row_number() OVER (PARTITION BY sim_key, grader, kind, reference ORDER BY seq) = 1
     ORDER BY domain, model, task_id, trial, path, sim_key, seq`,
  );
}

/** The evidence of one cause, as the walk prints it. */
export type EvidenceText = Pick<
  RowOf<"evidence">,
  | "seq"
  | "message"
  | "message_index"
  | "turn_idx"
  | "tool_name"
  | "arguments"
  | "db"
  | "path"
  | "initial_value"
  | "gold_value"
  | "predicted_value"
  | "quote"
>;

export async function evidenceOf(
  store: VerdictStore,
  c: { sim_key: string; grader: string; seq: number },
): Promise<EvidenceText[]> {
  return await rows<EvidenceText>(
    store,
    `SELECT seq, message, message_index, turn_idx, tool_name, arguments, db, path, initial_value, gold_value,
            predicted_value, quote
     FROM run_evidence WHERE sim_key = ${sql(c.sim_key)} AND grader = ${sql(c.grader)} AND cause_seq = ${c.seq}
     ORDER BY seq`,
  );
}

export interface MessageRow {
  message_index: number;
  role: string;
  content: string | null;
  tool_calls: string | null;
  tool_call_id: string | null;
  tool_error: boolean | null;
  turn_idx: number | null;
}

export async function conversationOf(store: VerdictStore, simKey: string): Promise<MessageRow[]> {
  return await rows<MessageRow>(
    store,
    `SELECT m.message_index, m.role, m.content, m.tool_calls, m.tool_call_id, m.tool_error, m.turn_idx
     FROM conversations m JOIN current_run r USING (run_id)
     WHERE m.sim_key = ${sql(simKey)} ORDER BY m.message_index`,
  );
}

export interface TaskText {
  persona: string | null;
  instructions: string;
  ticket: string | null;
  criteria: string | null;
}

export async function taskOf(store: VerdictStore, simKey: string): Promise<TaskText | null> {
  const [t] = await rows<TaskText>(
    store,
    `SELECT sc.persona, sc.instructions, sc.ticket, sc.criteria
     FROM sim_context sc JOIN current_run r USING (run_id) WHERE sc.sim_key = ${sql(simKey)}`,
  );
  return t ?? null;
}

/** Messages that made a write call: where a cause about the DB end state (no turn of its own) came from. */
export async function writeMessages(store: VerdictStore, simKey: string): Promise<number[]> {
  const found = await rows<{ message_index: number }>(
    store,
    `SELECT DISTINCT tc.message_index FROM tool_calls tc JOIN current_run r USING (run_id)
     WHERE tc.sim_key = ${sql(simKey)} AND tc.kind = 'write' ORDER BY 1`,
  );
  return found.map((r) => r.message_index);
}

export interface ReviewListRow {
  simulation_id: string | null;
  path: string | null;
  cause: string;
  grader: string;
  verdict: string;
  reason: string;
  reviewer: string | null;
  date: string | null;
  stale: boolean;
  stale_reason: string | null;
}

/** Every review of the run's experiment, applied or stale. */
export async function reviewList(store: VerdictStore): Promise<ReviewListRow[]> {
  return await rows<ReviewListRow>(
    store,
    `SELECT simulation_id, path, cause, grader, verdict, reason, reviewer, date, stale, stale_reason
     FROM review_status ORDER BY path, simulation_id, grader, kind, reference`,
  );
}
