/** Everything the HTML and Markdown reports show, read once from the analysis views. */
import { rows, type Summary, summarize } from "../analysis/report.ts";
import type { ActionRow } from "../charts/actions.ts";
import type { FlipRateRow } from "../charts/flip-rates.ts";
import type { FlipCauseRow } from "../charts/flips-by-cause.ts";
import { type ProbeCensusRow, probeCensusChart } from "../charts/probe-census.ts";
import type { ReviewListRow } from "../reviews/queries.ts";
import type { VerdictStore } from "../store/store.ts";
import { type ConversationView, conversationSet, loadConversations } from "./conversation-data.ts";
import { type FlipDrilldown, loadCauses, loadDrilldown } from "./drilldown.ts";

export interface RankingRow {
  domain: string;
  task_version: string;
  model: string;
  tau3_pass1: number | null;
  tau3_lo: number | null;
  tau3_hi: number | null;
  tau3_rank: number | null;
  structured_pass1: number | null;
  structured_lo: number | null;
  structured_hi: number | null;
  structured_rank: number | null;
}
export interface AgreementRow {
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
  domain: string;
  task_version: string;
  model_a: string;
  model_b: string;
}
export interface McNemarRow {
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

/** One gate's flips in one domain (or `all`), and their precision and recall against the reviews. */
export interface GateSummaryRow {
  grader: string;
  domain: string;
  pass_to_fail: number;
  fail_to_pass: number;
  confirmed: number;
  false_positive: number;
  unclear: number;
  unreviewed: number;
  precision: number | null;
  precision_lo: number | null;
  precision_hi: number | null;
  real_violations: number;
  caught: number;
  missed: number;
  recall: number | null;
  recall_lo: number | null;
  recall_hi: number | null;
}

/** A cause kind under one gate: the τ³-passing simulations it fails, and those that merely have it. */
export interface CauseKindRow {
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

/** What the report says about itself: when it was written, from which reviews, what it shows. */
export interface ReportMeta {
  /** ISO date and time the report was written (the command line passes it in). */
  readonly writtenAt: string;
  /** The reviews file read for this report, or null when it shows the reviews the store holds. */
  readonly reviewsSource: string | null;
  /** Conversations of every simulation with stored context, not only the flips. */
  readonly allConversations: boolean;
}

export interface ReportData {
  readonly meta: ReportMeta;
  readonly summary: Summary;
  readonly flipCount: number;
  readonly flipRates: readonly FlipRateRow[];
  readonly ranking: readonly RankingRow[];
  readonly agreement: readonly AgreementRow[];
  readonly swapped: readonly SwapRow[];
  readonly flipsByCause: readonly (FlipCauseRow & { grader: string })[];
  readonly gateSummary: readonly GateSummaryRow[];
  readonly causeKinds: readonly CauseKindRow[];
  readonly actions: readonly ActionRow[];
  readonly mcnemar: readonly McNemarRow[];
  readonly vacuous: readonly VacuousRow[];
  readonly probeCensus: readonly ProbeCensusRow[] | null;
  readonly drilldown: readonly FlipDrilldown[];
  readonly precisionByKind: readonly PrecisionRow[];
  readonly precisionByRule: readonly PrecisionRow[];
  readonly staleReviews: readonly StaleReviewRow[];
  readonly errorList: readonly ErrorRow[];
  /** Files read that hold no trajectories (task files, configs), with what was found. */
  readonly notTrajectories: readonly { path: string; error: string | null }[];
  readonly conversations: readonly ConversationView[];
}

const pivot = (grader: string, col: string, as: string) =>
  `max(${col}) FILTER (WHERE grader = '${grader}') AS ${as}`;

const PRECISION_COLUMNS = `reviews, confirmed, false_positive, unclear, precision, precision_lo, precision_hi`;

/** Reads the report's data; the analysis views must be installed (`writeReport` does that). */
export async function loadReportData(store: VerdictStore, meta: ReportMeta): Promise<ReportData> {
  const get = <T>(sql: string) => rows<T>(store, sql);
  const count = await get<{ n: number }>("SELECT count(*) AS n FROM flips");
  const shown = `${conversationSet(meta.allConversations)} UNION SELECT sim_key FROM flips`;
  const causes = await loadCauses(store, shown);
  return {
    meta,
    summary: await summarize(store),
    flipCount: count[0]?.n ?? 0,
    flipRates: await get<FlipRateRow>("SELECT * FROM flip_rates_by_model ORDER BY domain, model"),
    ranking: await get<RankingRow>(
      `SELECT domain, task_version, model,
              ${pivot("tau3", "pass1", "tau3_pass1")}, ${pivot("tau3", "pass1_lo", "tau3_lo")},
              ${pivot("tau3", "pass1_hi", "tau3_hi")}, ${pivot("tau3", "rank", "tau3_rank")},
              ${pivot("structured", "pass1", "structured_pass1")}, ${pivot("structured", "pass1_lo", "structured_lo")},
              ${pivot("structured", "pass1_hi", "structured_hi")}, ${pivot("structured", "rank", "structured_rank")}
       FROM ranking GROUP BY domain, task_version, model ORDER BY domain, task_version, tau3_rank, model`,
    ),
    agreement: await get<AgreementRow>(
      `SELECT k.domain, k.task_version, k.pairs, k.concordant, k.discordant, k.tau_b, b.tau_b_lo, b.tau_b_hi
       FROM kendall_tau_b k LEFT JOIN bootstrap_tau_b b USING (domain, task_version) ORDER BY k.domain, k.task_version`,
    ),
    swapped: await get<SwapRow>(
      "SELECT domain, task_version, model_a, model_b FROM swapped_pairs ORDER BY ALL",
    ),
    flipsByCause: await get<FlipCauseRow & { grader: string }>(
      "SELECT * FROM flips_by_cause ORDER BY grader, domain, cause_kind, flips DESC, reference",
    ),
    gateSummary: await get<GateSummaryRow>(
      // A domain where neither gate flips anything and nothing was confirmed has nothing to compare.
      `SELECT * FROM gate_summary WHERE domain = 'all' OR pass_to_fail + fail_to_pass + real_violations > 0
       ORDER BY domain = 'all', domain, grader`,
    ),
    causeKinds: await get<CauseKindRow>(
      "SELECT * FROM cause_kinds_by_gate ORDER BY domain, cause_kind, grader",
    ),
    actions: await get<ActionRow>(
      `SELECT domain, action, kind, simulations, score_delta, flips_among_callers, flips_attributed
       FROM score_delta_by_action WHERE flips_among_callers > 0
       ORDER BY domain, flips_attributed DESC, flips_among_callers DESC, action`,
    ),
    mcnemar: await get<McNemarRow>(
      "SELECT domain, model, n, b, c, method, p_value FROM mcnemar_by_model ORDER BY domain, model",
    ),
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
    notTrajectories: await get<{ path: string; error: string | null }>(
      `SELECT f.path, f.error FROM files f JOIN current_run r USING (run_id)
       WHERE f.status = 'not-trajectories' ORDER BY f.path`,
    ),
    conversations: await loadConversations(store, shown, causes),
  };
}
