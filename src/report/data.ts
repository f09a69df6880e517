/** Everything the HTML and Markdown reports show, read once from the analysis views. */
import { rows } from "../analysis/rows.ts";
import { type ComparisonRef, runComparisons } from "../analysis/run.ts";
import type { Summary } from "../analysis/summary.ts";
import type { ActionRow } from "../charts/actions.ts";
import type { FlipRateRow } from "../charts/flip-rates.ts";
import type { FlipCauseRow } from "../charts/flips-by-cause.ts";
import { type ProbeCensusRow, probeCensusChart } from "../charts/probe-census.ts";
import type { ReviewListRow } from "../reviews/queries.ts";
import type { VerdictStore } from "../store/store.ts";
import { type ConversationView, conversationSet, loadConversations } from "./conversation-data.ts";
import { type FlipDrilldown, loadCauses, loadDrilldown } from "./drilldown.ts";

/** A model's pass^1 and rank under both sides of a comparison, in one ranking group. */
export interface RankingRow {
  domain: string;
  task_version: string;
  model: string;
  baseline_pass1: number | null;
  baseline_lo: number | null;
  baseline_hi: number | null;
  baseline_rank: number | null;
  candidate_pass1: number | null;
  candidate_lo: number | null;
  candidate_hi: number | null;
  candidate_rank: number | null;
}
export interface AgreementRow {
  comparison: string;
  domain: string;
  task_version: string;
  pairs: number;
  concordant: number;
  discordant: number;
  tau_b: number | null;
  tau_b_lo: number | null;
  tau_b_hi: number | null;
}
export interface SwapRow {
  comparison: string;
  domain: string;
  task_version: string;
  model_a: string;
  model_b: string;
}
export interface McNemarRow {
  comparison: string;
  domain: string;
  model: string;
  n: number;
  b: number;
  c: number;
  method: string;
  p_value: number | null;
}

export interface VacuousRow {
  domain: string;
  grader: string;
  component: string;
  in_basis: number;
  vacuous_in_basis: number;
}

/** What one side of a comparison could check in one domain (or `all`) (`coverage_by_domain`). */
export interface CoverageRow {
  comparison: string;
  side: string;
  grader: string;
  domain: string;
  simulations: number;
  graded: number;
  with_fixture: number;
  with_facts: number;
  with_none: number;
  fixture_skipped: number;
  clauses_applicable: number | null;
}

/** One comparison in one domain (or `all`): its flips, their review, precision and recall (`comparison_summary`). */
export interface ComparisonDomainRow {
  comparison: string;
  domain: string;
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
  confirmed_flip_rate: number | null;
  confirmed_flip_rate_lo: number | null;
  confirmed_flip_rate_hi: number | null;
  precision: number | null;
  precision_lo: number | null;
  precision_hi: number | null;
  real_violations: number;
  caught: number;
  recall: number | null;
  recall_lo: number | null;
  recall_hi: number | null;
  with_baseline_reward: number;
  same_reward: number;
}

/** One comparison in one domain (or `all`): the sampled both-pass simulations and the miss rate (`miss_rates`). */
export interface MissRateRow {
  comparison: string;
  domain: string;
  both_pass: number;
  sampled: number;
  clean: number;
  missed: number;
  unclear: number;
  miss_rate: number | null;
  miss_rate_lo: number | null;
  miss_rate_hi: number | null;
  stale: number;
  seeds: string | null;
}

/** A candidate's cause kind among the simulations the baseline passes: those it fails, and those that merely have it. */
export interface CauseKindRow {
  comparison: string;
  domain: string;
  grader: string;
  cause_kind: string;
  gates: boolean;
  flips: number;
  simulations: number;
}

export interface PrecisionRow {
  grader: string;
  kind: string;
  reference?: string;
  reviews: number;
  confirmed: number;
  false_positive: number;
  unclear: number;
  precision: number | null;
  precision_lo: number | null;
  precision_hi: number | null;
}

export type StaleReviewRow = Pick<
  ReviewListRow,
  "simulation_id" | "path" | "cause" | "grader" | "verdict" | "reason"
> & { stale_reason: string };

export interface ErrorRow {
  scope: string;
  path: string;
  simulation_id: string | null;
  task_id: string | null;
  stage: string;
  message: string | null;
}

/** One reason a file or its simulations could not be graded, with how many simulations (`error_causes`). */
export interface ErrorCauseRow {
  scope: string;
  path: string;
  stage: string;
  message: string | null;
  simulations: number;
}

/** What the report says about itself: when it was written, from which reviews, what it shows. */
export interface ReportMeta {
  /** ISO date and time the report was written (the command line passes it in). */
  readonly writtenAt: string;
  /** The reviews file read for this report, or null when it shows the reviews the store holds. */
  readonly reviewsSource: string | null;
  /** Conversations of every simulation with stored context, not only the flips. */
  readonly allConversations: boolean;
}

/** Everything one comparison's section shows, its rows only. */
/** One comparison in one run configuration: the grader's effect beside re-running the agent (`grader_effect_vs_noise`). */
export interface NoiseEffectRow {
  readonly comparison: string;
  readonly configuration: string;
  readonly model: string;
  readonly excluded: boolean;
  readonly simulations: number;
  readonly flips: number;
  readonly baseline_pass_rate: number;
  readonly candidate_pass_rate: number;
  readonly shift: number;
  readonly shift_lo: number | null;
  readonly shift_hi: number | null;
  readonly noise_lo: number | null;
  readonly noise_hi: number | null;
  readonly verdict: string;
}

/** Two ranked entries in one comparison: the grader's swap beside re-running's (`ranking_swaps_vs_noise`). */
export interface RankingNoiseRow {
  readonly comparison: string;
  readonly domain: string;
  readonly task_version: string;
  readonly model_a: string;
  readonly model_b: string;
  readonly baseline_a: number;
  readonly baseline_b: number;
  readonly grader_swaps: boolean;
  readonly rerun_swap_share: number | null;
  readonly repeated: boolean;
}

export interface ComparisonData {
  readonly ref: ComparisonRef;
  /** The experiment's first comparison. */
  readonly headline: boolean;
  /** Its flips, excluded files and tasks included (the flips table marks them). */
  readonly flipCount: number;
  /** Per domain, then `all` (outside excluded files and tasks). */
  readonly domains: readonly ComparisonDomainRow[];
  readonly flipRates: readonly FlipRateRow[];
  readonly mcnemar: readonly McNemarRow[];
  readonly ranking: readonly RankingRow[];
  readonly agreement: readonly AgreementRow[];
  readonly swapped: readonly SwapRow[];
  readonly flipsByCause: readonly FlipCauseRow[];
  readonly causeKinds: readonly CauseKindRow[];
  readonly actions: readonly ActionRow[];
  /** Domains with sampled reviews (applied or stale), then `all`; empty when nothing was sampled. */
  readonly missRates: readonly MissRateRow[];
  /** Per side that records coverage, per domain then `all`; empty when neither side does. */
  readonly coverage: readonly CoverageRow[];
  /** Per run configuration, repeated ones first: the grader's shift beside re-running's spread. */
  readonly noise: readonly NoiseEffectRow[];
  /** Per pair of ranked entries: whether the grader swaps them, and how often a re-run does. */
  readonly rankingNoise: readonly RankingNoiseRow[];
}

export interface ReportData {
  readonly meta: ReportMeta;
  readonly summary: Summary;
  /** Every comparison of the run, the headline first. */
  readonly comparisons: readonly ComparisonData[];
  /** Rows of the `flips` view: one per comparison and flipped simulation. */
  readonly flipCount: number;
  readonly vacuous: readonly VacuousRow[];
  readonly probeCensus: readonly ProbeCensusRow[] | null;
  readonly drilldown: readonly FlipDrilldown[];
  readonly precisionByKind: readonly PrecisionRow[];
  readonly precisionByRule: readonly PrecisionRow[];
  readonly staleReviews: readonly StaleReviewRow[];
  readonly errorList: readonly ErrorRow[];
  /** The same, once per file and reason. */
  readonly errorCauses: readonly ErrorCauseRow[];
  /** Files read that hold no trajectories (task files, configs), with what was found. */
  readonly notTrajectories: readonly { path: string; error: string | null }[];
  readonly conversations: readonly ConversationView[];
}

const PRECISION_COLUMNS = `reviews, confirmed, false_positive, unclear, precision, precision_lo, precision_hi`;

interface GraderRank {
  domain: string;
  task_version: string;
  model: string;
  grader: string;
  pass1: number | null;
  pass1_lo: number | null;
  pass1_hi: number | null;
  rank: number | null;
}

/** One comparison's ranking: each model's row under its baseline beside its row under its candidate. */
function pairRanking(ranks: readonly GraderRank[], k: ComparisonRef): RankingRow[] {
  const out = new Map<string, RankingRow>();
  for (const r of ranks) {
    const side = r.grader === k.baseline ? "baseline" : r.grader === k.candidate ? "candidate" : null;
    if (side === null) continue;
    const key = `${r.domain}\u0000${r.task_version}\u0000${r.model}`;
    const row = out.get(key) ?? {
      domain: r.domain,
      task_version: r.task_version,
      model: r.model,
      baseline_pass1: null,
      baseline_lo: null,
      baseline_hi: null,
      baseline_rank: null,
      candidate_pass1: null,
      candidate_lo: null,
      candidate_hi: null,
      candidate_rank: null,
    };
    row[`${side}_pass1`] = r.pass1;
    row[`${side}_lo`] = r.pass1_lo;
    row[`${side}_hi`] = r.pass1_hi;
    row[`${side}_rank`] = r.rank;
    out.set(key, row);
  }
  const order = (v: number | null) => v ?? Number.MAX_SAFE_INTEGER;
  return [...out.values()].sort(
    (a, b) =>
      a.domain.localeCompare(b.domain) ||
      a.task_version.localeCompare(b.task_version) ||
      order(a.baseline_rank) - order(b.baseline_rank) ||
      a.model.localeCompare(b.model),
  );
}

/**
 * Reads the report's data; the analysis views must be installed (`writeReport` does that). Each view is
 * read once for every comparison and split here.
 */
export async function loadReportData(
  store: VerdictStore,
  meta: ReportMeta,
  summary: Summary,
): Promise<ReportData> {
  const get = <T>(sql: string) => rows<T>(store, sql);
  const refs = await runComparisons(store);
  const count = await get<{ comparison: string; n: number }>(
    "SELECT comparison, count(*) AS n FROM flips GROUP BY comparison",
  );
  const shown = `${conversationSet(meta.allConversations)} UNION SELECT sim_key FROM flips`;
  const embedded = conversationSet(meta.allConversations);
  const causes = await loadCauses(store, shown);
  const domains = await get<ComparisonDomainRow>(
    // A domain where nothing flips and nothing was confirmed has nothing to compare.
    `SELECT * EXCLUDE (comparison_seq, baseline, candidate, simulations) FROM comparison_summary
     WHERE domain = 'all' OR pass_to_fail + fail_to_pass + real_violations > 0 ORDER BY domain = 'all', domain`,
  );
  const flipRates = await get<FlipRateRow>("SELECT * FROM flip_rates_by_model ORDER BY domain, model");
  const mcnemar = await get<McNemarRow>(
    "SELECT comparison, domain, model, n, b, c, method, p_value FROM mcnemar_by_model ORDER BY domain, model",
  );
  const ranks = await get<GraderRank>(
    `SELECT domain, task_version, model, grader, pass1, pass1_lo, pass1_hi, rank FROM ranking
     WHERE grader IN (SELECT grader FROM compared_graders)`,
  );
  const agreement = await get<AgreementRow>(
    `SELECT k.comparison, k.domain, k.task_version, k.pairs, k.concordant, k.discordant, k.tau_b, b.tau_b_lo, b.tau_b_hi
     FROM kendall_tau_b k LEFT JOIN bootstrap_tau_b b USING (comparison, domain, task_version)
     ORDER BY k.domain, k.task_version`,
  );
  const swapped = await get<SwapRow>(
    "SELECT comparison, domain, task_version, model_a, model_b FROM swapped_pairs ORDER BY ALL",
  );
  const flipsByCause = await get<FlipCauseRow>(
    "SELECT * FROM flips_by_cause ORDER BY domain, cause_kind, flips DESC, reference, direction",
  );
  const causeKinds = await get<CauseKindRow>("SELECT * FROM cause_kinds ORDER BY domain, cause_kind");
  const missRates = await get<MissRateRow>(
    `SELECT comparison, domain, both_pass, sampled, clean, missed, unclear, miss_rate, miss_rate_lo, miss_rate_hi,
            stale, seeds
     FROM miss_rates WHERE comparison IN (SELECT comparison FROM miss_rates WHERE domain = 'all' AND sampled + stale > 0)
       AND (domain = 'all' OR sampled + stale > 0)
     ORDER BY domain = 'all', domain`,
  );
  const actions = await get<ActionRow>(
    `SELECT comparison, domain, action, kind, simulations, score_delta, flips_among_callers, flips_attributed
     FROM score_delta_by_action WHERE flips_among_callers > 0
     ORDER BY domain, flips_attributed DESC, flips_among_callers DESC, action`,
  );
  const coverage = await get<CoverageRow>(
    `SELECT comparison, side, grader, domain, simulations, graded, with_fixture, with_facts, with_none,
            fixture_skipped, clauses_applicable
     FROM coverage_by_domain ORDER BY comparison_seq, side, domain = 'all', domain`,
  );
  const noise = await get<NoiseEffectRow>(
    `SELECT comparison, configuration, model, excluded, simulations, flips, baseline_pass_rate, candidate_pass_rate,
            shift, shift_lo, shift_hi, noise_lo, noise_hi, verdict
     FROM grader_effect_vs_noise ORDER BY comparison_seq, excluded, noise_lo IS NULL, configuration`,
  );
  const rankingNoise = await get<RankingNoiseRow>(
    `SELECT comparison, domain, task_version, model_a, model_b, baseline_a, baseline_b, grader_swaps,
            rerun_swap_share, repeated
     FROM ranking_swaps_vs_noise ORDER BY comparison_seq, domain, task_version, model_a, model_b`,
  );
  const of = <T extends { comparison: string }>(list: readonly T[], k: ComparisonRef) =>
    list.filter((r) => r.comparison === k.comparison);
  const comparisons = refs.map(
    (k, i): ComparisonData => ({
      ref: k,
      headline: i === 0,
      flipCount: count.find((c) => c.comparison === k.comparison)?.n ?? 0,
      domains: of(domains, k),
      flipRates: of(flipRates, k),
      mcnemar: of(mcnemar, k),
      ranking: pairRanking(ranks, k),
      agreement: of(agreement, k),
      swapped: of(swapped, k),
      flipsByCause: of(flipsByCause, k),
      causeKinds: of(causeKinds, k),
      actions: of(actions, k),
      missRates: of(missRates, k),
      coverage: of(coverage, k),
      noise: of(noise, k),
      rankingNoise: of(rankingNoise, k),
    }),
  );
  return {
    meta,
    summary,
    comparisons,
    flipCount: count.reduce((n, c) => n + c.n, 0),
    vacuous: await get<VacuousRow>(
      `SELECT domain, grader, component, in_basis, vacuous_in_basis FROM vacuous_components
       WHERE in_basis > 0 ORDER BY domain, grader, component`,
    ),
    probeCensus: await probeCensusChart.load(store),
    drilldown: await loadDrilldown(store, causes),
    precisionByKind: await get<PrecisionRow>(
      `SELECT grader, kind, ${PRECISION_COLUMNS} FROM review_precision_by_kind ORDER BY grader, kind`,
    ),
    precisionByRule: await get<PrecisionRow>(
      `SELECT grader, kind, reference, ${PRECISION_COLUMNS} FROM review_precision_by_rule
       ORDER BY grader, kind, reference`,
    ),
    staleReviews: await get<StaleReviewRow>(
      `SELECT simulation_id, path, cause, grader, verdict, reason, stale_reason FROM review_status WHERE stale
       ORDER BY path, simulation_id, cause`,
    ),
    errorList: await get<ErrorRow>(
      "SELECT * FROM error_list ORDER BY scope, path, simulation_id, stage, message",
    ),
    errorCauses: await get<ErrorCauseRow>("SELECT * FROM error_causes ORDER BY scope, path, stage, message"),
    notTrajectories: await get<{ path: string; error: string | null }>(
      `SELECT f.path, f.error FROM files f JOIN current_run r USING (run_id)
       WHERE f.status = 'not-trajectories' ORDER BY f.path`,
    ),
    conversations: await loadConversations(store, embedded, causes),
  };
}
