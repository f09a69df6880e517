/**
 * What the pages of `tau-rescore view` read: the selected run's analysis views (`installAnalyses` first,
 * the reviews file laid over the store's reviews), queried with bound parameters only. Nothing here
 * writes the store.
 */
import type { RunInfo } from "../analysis/run.ts";
import { drawSample, type SampleDraw } from "../reviews/sample.ts";
import { showSimulation } from "../show/store.ts";
import type { SimulationView } from "../show/view.ts";
import type { VerdictStore } from "../store/store.ts";

export interface ComparisonHeadline {
  comparison: string;
  baseline: string;
  candidate: string;
  simulations: number;
  paired: number;
  pass_to_fail: number;
  fail_to_pass: number;
  baseline_pass_rate: number | null;
  candidate_pass_rate: number | null;
  flip_rate: number | null;
  flip_rate_lo: number | null;
  flip_rate_hi: number | null;
  confirmed: number;
  false_positive: number;
  unclear: number;
  unreviewed: number;
  precision: number | null;
  precision_lo: number | null;
  precision_hi: number | null;
  /** Sampled reviews of the comparison that still apply, and those that found a miss. */
  sampled: number;
  missed: number;
}

export interface RunOverview {
  run: RunInfo;
  simulations: number;
  excluded: number;
  errors: number;
  stale_reviews: number;
  comparisons: ComparisonHeadline[];
}

export async function runOverview(store: VerdictStore, run: RunInfo): Promise<RunOverview> {
  const [counts] = await store.query<{ simulations: number; excluded: number }>(
    "SELECT count(*)::INTEGER AS simulations, (count(*) FILTER (WHERE excluded))::INTEGER AS excluded FROM sim_verdicts",
  );
  const [errors] = await store.query<{ n: number }>(
    "SELECT count(*)::INTEGER AS n FROM errors WHERE run_id = $1",
    [run.run_id],
  );
  const [stale] = await store.query<{ n: number }>(
    "SELECT ((SELECT count(*) FROM review_status WHERE stale) + (SELECT count(*) FROM sample_review_status WHERE stale))::INTEGER AS n",
  );
  const comparisons = await store.query<ComparisonHeadline>(
    `SELECT s.comparison, s.baseline, s.candidate, s.simulations::INTEGER AS simulations, s.paired::INTEGER AS paired,
            s.pass_to_fail::INTEGER AS pass_to_fail, s.fail_to_pass::INTEGER AS fail_to_pass, s.baseline_pass_rate,
            s.candidate_pass_rate, s.flip_rate, s.flip_rate_lo, s.flip_rate_hi, s.confirmed::INTEGER AS confirmed,
            s.false_positive::INTEGER AS false_positive, s.unclear::INTEGER AS unclear,
            s.unreviewed::INTEGER AS unreviewed, s.precision, s.precision_lo, s.precision_hi,
            (SELECT count(*) FROM sample_review_status r WHERE r.comparison = s.comparison AND NOT r.stale)::INTEGER AS sampled,
            (SELECT count(*) FROM sample_review_status r WHERE r.comparison = s.comparison AND NOT r.stale AND r.verdict = 'missed')::INTEGER AS missed
     FROM comparison_summary s WHERE s.domain = 'all' ORDER BY s.comparison_seq`,
  );
  return {
    run,
    simulations: counts?.simulations ?? 0,
    excluded: counts?.excluded ?? 0,
    errors: errors?.n ?? 0,
    stale_reviews: stale?.n ?? 0,
    comparisons,
  };
}

export const REVIEW_STATES = ["unreviewed", "confirmed", "false_positive", "unclear"] as const;

export interface FlipFilter {
  domain?: string;
  model?: string;
  task?: string;
  kind?: string;
  review?: string;
  /** A simulation id (or its start), or text of the conversation or of a cause. */
  q?: string;
  /** Flips in files the experiment excludes are listed only when asked. */
  excluded?: boolean;
}

export interface FlipRow {
  sim_key: string;
  simulation_id: string | null;
  path: string;
  domain: string | null;
  model: string;
  task_id: string | null;
  trial: number | null;
  direction: string;
  grader: string;
  excluded: boolean;
  review: string;
  kinds: string[];
  causes: string[];
}

export interface FlipPage {
  rows: FlipRow[];
  /** Flips of the comparison before filtering. */
  total: number;
  options: { domain: string[]; model: string[]; task: string[]; kind: string[] };
}

/** The comparison's flips that pass `f`, by file and simulation, with what each filter can take. */
export async function flipPage(store: VerdictStore, comparison: string, f: FlipFilter): Promise<FlipPage> {
  const params: (string | boolean)[] = [comparison, f.excluded === true];
  const where: string[] = [];
  const bind = (v: string) => {
    params.push(v);
    return `$${params.length}`;
  };
  if (f.domain) where.push(`fl.domain = ${bind(f.domain)}`);
  if (f.model) where.push(`fl.model = ${bind(f.model)}`);
  if (f.task) where.push(`fl.task_id = ${bind(f.task)}`);
  if (f.kind) where.push(`list_contains(fl.kinds, ${bind(f.kind)})`);
  if (f.review) where.push(`fl.review = ${bind(f.review)}`);
  if (f.q) {
    const q = bind(f.q.trim());
    where.push(`(starts_with(coalesce(fl.simulation_id, ''), ${q}) OR starts_with(fl.sim_key, ${q})
      OR EXISTS (SELECT 1 FROM conversations m JOIN current_run r USING (run_id)
                 WHERE m.sim_key = fl.sim_key AND contains(lower(coalesce(m.content, '') || ' ' || coalesce(m.tool_calls, '')), lower(${q})))
      OR EXISTS (SELECT 1 FROM run_causes c WHERE c.sim_key = fl.sim_key AND contains(lower(c.message), lower(${q}))))`);
  }
  const base = `WITH fl AS (
      SELECT f.sim_key, f.simulation_id, f.path, f.domain, f.model, f.task_id, f.trial, f.direction,
             f.failing_grader AS grader, f.excluded, fr.review,
             coalesce((SELECT list(DISTINCT t.kind ORDER BY t.kind) FROM review_targets t
                       WHERE t.comparison = f.comparison AND t.sim_key = f.sim_key), []::VARCHAR[]) AS kinds,
             coalesce((SELECT list(DISTINCT t.kind || ':' || t.reference ORDER BY t.kind || ':' || t.reference) FROM review_targets t
                       WHERE t.comparison = f.comparison AND t.sim_key = f.sim_key), []::VARCHAR[]) AS causes
      FROM flips f JOIN flip_reviews fr ON fr.comparison = f.comparison AND fr.sim_key = f.sim_key
      WHERE f.comparison = $1 AND (NOT f.excluded OR $2))`;
  const rows = await store.query<FlipRow>(
    `${base} SELECT * FROM fl ${where.length === 0 ? "" : `WHERE ${where.join(" AND ")}`}
     ORDER BY fl.path, fl.simulation_id, fl.sim_key`,
    params,
  );
  const all = await store.query<FlipRow>(`${base} SELECT * FROM fl`, params.slice(0, 2));
  const distinct = (pick: (r: FlipRow) => readonly (string | null)[]) =>
    [...new Set(all.flatMap(pick).filter((v): v is string => v !== null))].sort();
  return {
    rows,
    total: all.length,
    options: {
      domain: distinct((r) => [r.domain]),
      model: distinct((r) => [r.model]),
      task: distinct((r) => [r.task_id]).sort((a, b) => a.localeCompare(b, "en", { numeric: true })),
      kind: distinct((r) => r.kinds),
    },
  };
}

/** The run's simulations whose id (or key) is `id`, or starts with it: what the search box opens. */
export async function findById(
  store: VerdictStore,
  id: string,
): Promise<{ sim_key: string; simulation_id: string | null; path: string; task_id: string | null }[]> {
  return await store.query(
    `SELECT sv.sim_key, sv.simulation_id, sv.path, sv.task_id FROM sim_verdicts sv
     LEFT JOIN (SELECT sc.sim_key, sc.fingerprint FROM sim_context sc JOIN current_run r USING (run_id)) x USING (sim_key)
     WHERE starts_with(coalesce(sv.simulation_id, ''), $1) OR sv.sim_key = $1 OR x.fingerprint = $1
     ORDER BY sv.simulation_id = $1 DESC, sv.path, sv.simulation_id LIMIT 51`,
    [id],
  );
}

export interface TargetReview {
  comparison: string;
  grader: string;
  kind: string;
  reference: string;
  message: string;
  turn_idx: number | null;
  excluded: boolean;
  verdict: string | null;
  reason: string | null;
  reviewer: string | null;
  date: string | null;
}

export interface StaleReview {
  grader: string;
  kind: string;
  reference: string;
  verdict: string;
  reason: string;
  reviewer: string | null;
  date: string | null;
  stale_reason: string | null;
}

export interface SampledState {
  comparison: string;
  seed: number;
  verdict: string;
  reason: string;
  reviewer: string | null;
  date: string | null;
  stale: boolean;
  stale_reason: string | null;
}

export interface CoverageRow {
  grader: string;
  fixtures: string;
  fixtures_applied: number;
  facts_applied: number;
  clauses_applicable: number;
  skipped: string;
}

export interface SimulationPage {
  view: SimulationView;
  task: {
    persona: string | null;
    instructions: string;
    ticket: string | null;
    criteria: string | null;
  } | null;
  coverage: CoverageRow[];
  /** Each flip cause of the simulation, per comparison it explains, with its review. */
  targets: TargetReview[];
  /** Reviews of this simulation's fingerprint whose cause it no longer has. */
  stale: StaleReview[];
  sampled: SampledState[];
  /** Comparisons both sides of which pass the simulation (a sampled review can be given in these). */
  bothPass: string[];
}

export async function simulationPage(
  store: VerdictStore,
  run: RunInfo,
  simKey: string,
  db: string,
): Promise<SimulationPage | null> {
  const [found] = await store.query<{ sim_key: string; fingerprint: string | null }>(
    `SELECT sv.sim_key, x.fingerprint FROM sim_verdicts sv
     LEFT JOIN (SELECT sc.sim_key, sc.fingerprint FROM sim_context sc JOIN current_run r USING (run_id)) x USING (sim_key)
     WHERE sv.sim_key = $1`,
    [simKey],
  );
  if (found === undefined) return null;
  const view = await showSimulation(store, run, found, db);
  const [task] = await store.query<NonNullable<SimulationPage["task"]>>(
    "SELECT persona, instructions, ticket, criteria FROM sim_context WHERE run_id = $1 AND sim_key = $2",
    [run.run_id, simKey],
  );
  const coverage = await store.query<CoverageRow>(
    `SELECT grader, fixtures, fixtures_applied::INTEGER AS fixtures_applied, facts_applied::INTEGER AS facts_applied,
            clauses_applicable::INTEGER AS clauses_applicable, skipped
     FROM coverage WHERE run_id = $1 AND sim_key = $2 ORDER BY grader`,
    [run.run_id, simKey],
  );
  const targets = await store.query<TargetReview>(
    `SELECT t.comparison, t.grader, t.kind, t.reference, t.message, t.turn_idx, t.excluded, t.verdict, t.reason,
            t.reviewer, t.date
     FROM target_reviews t JOIN run_comparisons k USING (comparison)
     WHERE t.sim_key = $1 ORDER BY t.grader, t.seq, k.seq`,
    [simKey],
  );
  const fp = found.fingerprint ?? "";
  const stale = await store.query<StaleReview>(
    `SELECT grader, kind, reference, verdict, reason, reviewer, date, stale_reason FROM review_status
     WHERE fingerprint = $1 AND stale ORDER BY grader, kind, reference`,
    [fp],
  );
  const sampled = await store.query<SampledState>(
    `SELECT comparison, seed::INTEGER AS seed, verdict, reason, reviewer, date, stale, stale_reason
     FROM sample_review_status WHERE fingerprint = $1 ORDER BY comparison`,
    [fp],
  );
  const both = await store.query<{ comparison: string }>(
    `SELECT pv.comparison FROM pair_verdicts pv WHERE pv.sim_key = $1 AND pv.baseline_pass AND pv.candidate_pass
     ORDER BY pv.comparison_seq`,
    [simKey],
  );
  return {
    view,
    task: task ?? null,
    coverage,
    targets,
    stale,
    sampled,
    bothPass: both.map((b) => b.comparison),
  };
}

/** The first flip of the comparison (in the page's order) with a cause still without a review. */
export async function nextUnreviewedFlip(store: VerdictStore, comparison: string): Promise<string | null> {
  const [next] = await store.query<{ sim_key: string }>(
    `SELECT sim_key FROM target_reviews WHERE comparison = $1 AND NOT excluded AND verdict IS NULL
     ORDER BY path, simulation_id, sim_key LIMIT 1`,
    [comparison],
  );
  return next?.sim_key ?? null;
}

export interface SampleRow {
  sim_key: string;
  fingerprint: string;
  domain: string | null;
  rank: number;
  simulation_id: string | null;
  path: string;
  task_id: string | null;
  model: string;
  verdict: string | null;
}

/** The draw `review sample` makes with the same comparison, n and seed, with each one's sampled review. */
export async function samplePage(
  store: VerdictStore,
  comparison: string,
  n: number,
  seed: number,
): Promise<{ draw: SampleDraw; rows: SampleRow[] }> {
  const draw = await drawSample(store, { comparison, n, seed });
  const reviews = await store.query<{ fingerprint: string; verdict: string }>(
    "SELECT fingerprint, verdict FROM run_sample_reviews WHERE comparison = $1",
    [comparison],
  );
  const verdictOf = new Map(reviews.map((r) => [r.fingerprint, r.verdict]));
  return {
    draw,
    rows: draw.simulations.map((s) => ({
      sim_key: s.sim_key,
      fingerprint: s.fingerprint,
      domain: s.domain,
      rank: s.rank,
      simulation_id: s.simulation_id,
      path: s.path,
      task_id: s.task_id,
      model: s.model,
      verdict: verdictOf.get(s.fingerprint) ?? null,
    })),
  };
}
