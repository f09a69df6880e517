/**
 * One record per flip (a row of the `flips` view: a comparison and a simulation its sides disagree on)
 * with the causes behind it and their evidence: the failing side's gating causes, the ones it only
 * reported, and the passing side's, each with the review it has (if any). A review is keyed by
 * fingerprint, grader and cause, so a simulation flipped in two comparisons shows the same judgment in
 * both. Everything here is read from the `causes`, `evidence` and `reviews` tables.
 */
import { rows } from "../analysis/rows.ts";
import type { CauseKind } from "../graders/causes.ts";
import type { RowOf } from "../store/schema.ts";
import type { VerdictStore } from "../store/store.ts";

export interface FlipRow {
  comparison: string;
  baseline: string;
  candidate: string;
  /** The side that fails the simulation: its causes explain the flip. */
  failing_grader: string;
  sim_key: string;
  simulation_id: string | null;
  domain: string;
  task_version: string;
  task_id: string;
  trial: number | null;
  model: string;
  path: string;
  direction: "pass_to_fail" | "fail_to_pass";
  excluded: boolean;
  /** The flip's review status (`flip_reviews`): confirmed, false_positive, unclear or unreviewed. */
  review: string;
}

/** A stored evidence row, as the report reads it. */
export type EvidenceRow = Omit<RowOf<"evidence">, "run_id">;

export interface CauseRow {
  sim_key: string;
  grader: string;
  seq: number;
  kind: CauseKind;
  reference: string;
  gates: boolean;
  message: string;
  message_index: number | null;
  turn_idx: number | null;
  tool_call_id: string | null;
  tool_name: string | null;
  actor: string | null;
  evidence: EvidenceRow[];
  /** The applied review of this cause, matched by the simulation's fingerprint. */
  review: CauseReview | null;
}

export interface CauseReview {
  verdict: string;
  reason: string;
  reviewer: string | null;
  date: string | null;
}

export interface FlipDrilldown {
  readonly flip: FlipRow;
  /** The failing side's gating causes: why it fails what the other side passes. */
  readonly causes: readonly CauseRow[];
  /** What the failing side reported without failing on it. */
  readonly reported: readonly CauseRow[];
  /** The passing side's causes (reported only, as it passes). */
  readonly other: readonly CauseRow[];
}

const FLIPPED = "SELECT sim_key FROM flips";
/** Graders whose causes a report shows: the sides of the run's comparisons. */
const SHOWN_GRADERS = "SELECT grader FROM compared_graders";

/**
 * The causes of the simulations `simKeys` selects (a subquery of sim keys), under every grader a
 * comparison names, with their evidence and reviews, by simulation.
 */
export async function loadCauses(store: VerdictStore, simKeys: string): Promise<Map<string, CauseRow[]>> {
  const causes = await rows<Omit<CauseRow, "evidence" | "review">>(
    store,
    `SELECT sim_key, grader, seq, kind, reference, gates, message, message_index, turn_idx, tool_call_id, tool_name, actor
     FROM run_causes WHERE sim_key IN (${simKeys}) AND grader IN (${SHOWN_GRADERS}) ORDER BY sim_key, grader, seq`,
  );
  const evidence = await rows<EvidenceRow>(
    store,
    `SELECT sim_key, grader, cause_seq, seq, code, message, message_index, turn_idx, tool_call_id, tool_name, actor,
            arguments, db, path, initial_value, gold_value, predicted_value, quote, excerpt
     FROM run_evidence WHERE sim_key IN (${simKeys}) AND grader IN (${SHOWN_GRADERS})
     ORDER BY sim_key, grader, cause_seq, seq`,
  );
  const reviews = await rows<CauseReview & { sim_key: string; grader: string; seq: number }>(
    store,
    `SELECT c.sim_key, c.grader, c.seq, rv.verdict, rv.reason, rv.reviewer, rv.date
     FROM run_causes c
     JOIN (SELECT sc.sim_key, sc.fingerprint FROM sim_context sc JOIN current_run r USING (run_id)) x USING (sim_key)
     JOIN run_reviews rv ON rv.fingerprint = x.fingerprint AND rv.grader = c.grader AND rv.kind = c.kind
                         AND rv.reference = c.reference
     WHERE c.sim_key IN (${simKeys}) AND c.grader IN (${SHOWN_GRADERS})`,
  );
  const key = (sim: string, grader: string, seq: number) => `${sim}\0${grader}\0${seq}`;
  const reviewOf = new Map(reviews.map((r) => [key(r.sim_key, r.grader, r.seq), r]));
  const bySim = new Map<string, CauseRow[]>();
  const byCause = new Map<string, CauseRow>();
  for (const c of causes) {
    const r = reviewOf.get(key(c.sim_key, c.grader, c.seq));
    const review =
      r === undefined ? null : { verdict: r.verdict, reason: r.reason, reviewer: r.reviewer, date: r.date };
    const full: CauseRow = { ...c, evidence: [], review };
    byCause.set(key(c.sim_key, c.grader, c.seq), full);
    const list = bySim.get(c.sim_key);
    if (list === undefined) bySim.set(c.sim_key, [full]);
    else list.push(full);
  }
  for (const e of evidence) byCause.get(key(e.sim_key, e.grader, e.cause_seq))?.evidence.push(e);
  return bySim;
}

export async function loadDrilldown(
  store: VerdictStore,
  bySim?: ReadonlyMap<string, readonly CauseRow[]>,
): Promise<FlipDrilldown[]> {
  const flips = await rows<FlipRow>(
    store,
    `SELECT f.comparison, f.baseline, f.candidate, f.failing_grader, f.sim_key, f.simulation_id, f.domain,
            f.task_version, f.task_id, f.trial, f.model, f.path, f.direction, f.excluded, r.review
     FROM flips f JOIN flip_reviews r ON r.comparison = f.comparison AND r.sim_key = f.sim_key
     ORDER BY f.comparison_seq, f.domain, f.model, f.task_id, f.sim_key`,
  );
  const causes = bySim ?? (await loadCauses(store, FLIPPED));
  return flips.map((flip) => {
    const mine = causes.get(flip.sim_key) ?? [];
    const failing = mine.filter((c) => c.grader === flip.failing_grader);
    const passing = flip.failing_grader === flip.baseline ? flip.candidate : flip.baseline;
    return {
      flip,
      causes: failing.filter((c) => c.gates),
      reported: failing.filter((c) => !c.gates),
      other: mine.filter((c) => c.grader === passing),
    };
  });
}
