/**
 * What the review commands read from the store, through the analysis views of the selected run
 * (`installAnalyses` first): simulations by their own id, their causes, evidence and conversation, and
 * the flip causes still waiting for a review. A flip cause is the failing side's gating cause of a flip
 * of any comparison (view `review_targets`); one cause shown by several comparisons is one target.
 */
import { rows } from "../analysis/rows.ts";
import type { RowOf } from "../store/schema.ts";
import type { VerdictStore } from "../store/store.ts";

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
     WHERE sv.simulation_id = $1${path === undefined ? "" : " AND sv.path = $2"}
     ORDER BY sv.path, sv.sim_key`,
    path === undefined ? [simulationId] : [simulationId, path],
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
  /** A gating cause of the failing side of a flip of some comparison: what `review` walks. */
  flip_cause: boolean;
  /** The comparisons whose flip it explains, in the experiment's order (none when not a flip cause). */
  comparisons: string[];
}

export async function causesOf(store: VerdictStore, simKey: string): Promise<CauseRef[]> {
  return await rows<CauseRef>(
    store,
    `SELECT c.sim_key, c.grader, c.seq, c.kind, c.reference, c.gates, c.message, c.message_index, c.turn_idx,
            t.sim_key IS NOT NULL AS flip_cause, coalesce(t.comparisons, []::VARCHAR[]) AS comparisons
     FROM run_causes c
     LEFT JOIN (SELECT rt.sim_key, rt.grader, rt.seq, list(rt.comparison ORDER BY k.seq) AS comparisons
                FROM review_targets rt JOIN run_comparisons k USING (comparison)
                GROUP BY rt.sim_key, rt.grader, rt.seq) t
       ON t.sim_key = c.sim_key AND t.grader = c.grader AND t.seq = c.seq
     WHERE c.sim_key = $1 ORDER BY c.grader, c.seq`,
    [simKey],
  );
}

/** One comparison whose flip a review target explains, and which way it flipped. */
export interface TargetFlip {
  comparison: string;
  baseline: string;
  candidate: string;
  direction: "pass_to_fail" | "fail_to_pass";
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
  path: string;
  simulation_id: string | null;
  excluded: boolean;
  fingerprint: string | null;
  verdict: string | null;
  /** Every comparison whose flip this cause explains, in the experiment's order: one review serves them all. */
  flips: TargetFlip[];
}

/**
 * Flip causes without an applied review, each once (per simulation, grader, kind and reference, as a
 * review is keyed) however many comparisons show it; with `comparison`, only the causes of its flips.
 */
export async function unreviewedTargets(
  store: VerdictStore,
  opts: { includeExcluded: boolean; comparison?: string },
): Promise<ReviewTarget[]> {
  const scope =
    opts.comparison === undefined
      ? ""
      : ` AND EXISTS (SELECT 1 FROM review_targets s WHERE s.comparison = $1
                        AND s.sim_key = t.sim_key AND s.grader = t.grader AND s.seq = t.seq)`;
  return await rows<ReviewTarget>(
    store,
    `WITH pending AS (
       SELECT t.*, k.seq AS comparison_seq, k.baseline, k.candidate
       FROM target_reviews t JOIN run_comparisons k USING (comparison)
       WHERE t.verdict IS NULL AND t.fingerprint IS NOT NULL${opts.includeExcluded ? "" : " AND NOT t.excluded"}${scope}),
     flips AS (
       SELECT sim_key, grader, kind, reference,
              list({'comparison': comparison, 'baseline': baseline, 'candidate': candidate, 'direction': direction}
                   ORDER BY comparison_seq) AS flips
       FROM (SELECT DISTINCT sim_key, grader, kind, reference, comparison, comparison_seq, baseline, candidate, direction
             FROM pending)
       GROUP BY sim_key, grader, kind, reference)
     SELECT o.sim_key, o.grader, o.seq, o.kind, o.reference, o.message, o.message_index, o.turn_idx, o.domain,
            o.model, o.task_id, o.trial, o.path, o.simulation_id, o.excluded, o.fingerprint, o.verdict, f.flips
     FROM pending o JOIN flips f USING (sim_key, grader, kind, reference)
     QUALIFY row_number() OVER (PARTITION BY o.sim_key, o.grader, o.kind, o.reference ORDER BY o.seq, o.comparison_seq) = 1
     ORDER BY o.domain, o.model, o.task_id, o.trial, o.path, o.sim_key, o.seq, o.grader`,
    opts.comparison === undefined ? [] : [opts.comparison],
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
     FROM run_evidence WHERE sim_key = $1 AND grader = $2 AND cause_seq = $3
     ORDER BY seq`,
    [c.sim_key, c.grader, c.seq],
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
     WHERE m.sim_key = $1 ORDER BY m.message_index`,
    [simKey],
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
     FROM sim_context sc JOIN current_run r USING (run_id) WHERE sc.sim_key = $1`,
    [simKey],
  );
  return t ?? null;
}

/** Messages that made a write call: where a cause about the DB end state (no turn of its own) came from. */
export async function writeMessages(store: VerdictStore, simKey: string): Promise<number[]> {
  const found = await rows<{ message_index: number }>(
    store,
    `SELECT DISTINCT tc.message_index FROM tool_calls tc JOIN current_run r USING (run_id)
     WHERE tc.sim_key = $1 AND tc.kind = 'write' ORDER BY 1`,
    [simKey],
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
  /** The comparisons whose flips it judges, in the experiment's order (none for a stale review). */
  comparisons: string[];
}

/** Every review of the run's experiment, applied or stale. */
export async function reviewList(store: VerdictStore): Promise<ReviewListRow[]> {
  return await rows<ReviewListRow>(
    store,
    `SELECT rs.simulation_id, rs.path, rs.cause, rs.grader, rs.verdict, rs.reason, rs.reviewer, rs.date, rs.stale,
            rs.stale_reason,
            coalesce((SELECT list(k.comparison ORDER BY k.seq) FROM run_comparisons k
                      WHERE k.comparison IN (SELECT t.comparison FROM review_targets t
                                             WHERE t.fingerprint = rs.fingerprint AND t.grader = rs.grader
                                               AND t.kind = rs.kind AND t.reference = rs.reference)),
                     []::VARCHAR[]) AS comparisons
     FROM review_status rs ORDER BY rs.path, rs.simulation_id, rs.grader, rs.kind, rs.reference`,
  );
}

/** A simulation drawn by `review sample` (see `drawSample`). */
export interface SampledSimulation {
  sim_key: string;
  fingerprint: string;
  domain: string | null;
  /** 1 for the first drawn in its domain. */
  rank: number;
  task_id: string | null;
  trial: number | null;
  model: string;
  path: string;
  simulation_id: string | null;
  baseline: string;
  candidate: string;
}

export interface SampledListRow {
  simulation_id: string | null;
  path: string | null;
  comparison: string;
  seed: number;
  domain: string | null;
  verdict: string;
  reason: string;
  reviewer: string | null;
  date: string | null;
  stale: boolean;
  stale_reason: string | null;
  excluded: boolean;
}

/** Every sampled review of the run's experiment, applied or stale, by comparison, seed, domain, file and id. */
export async function sampledList(store: VerdictStore): Promise<SampledListRow[]> {
  return await rows<SampledListRow>(
    store,
    `SELECT simulation_id, path, comparison, seed, domain, verdict, reason, reviewer, date, stale, stale_reason, excluded
     FROM sample_review_status ORDER BY comparison, seed, domain, path, simulation_id`,
  );
}

/** A row of `review list`: a review of a flip cause, or a sampled review of a both-pass simulation. */
export type ListedReview = ({ kind: "flip" } & ReviewListRow) | ({ kind: "sample" } & SampledListRow);

/** Every review of the run's experiment: the flip reviews (`reviewList`), then the sampled ones (`sampledList`). */
export async function listedReviews(store: VerdictStore): Promise<ListedReview[]> {
  return [
    ...(await reviewList(store)).map((r) => ({ kind: "flip" as const, ...r })),
    ...(await sampledList(store)).map((r) => ({ kind: "sample" as const, ...r })),
  ];
}
