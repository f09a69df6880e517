/** Everything the HTML and Markdown reports show, read once from the analysis views. */
import { rows, type Summary, summarize } from "../analysis/report.ts";
import type { ActionRow } from "../charts/actions.ts";
import { relationExists } from "../charts/common.ts";
import type { FlipRateRow } from "../charts/flip-rates.ts";
import type { FlipCauseRow } from "../charts/flips-by-cause.ts";
import type { ProbeCensusRow } from "../charts/probe-census.ts";
import type { VerdictStore } from "../store/store.ts";
import { type FlipDrilldown, loadDrilldown } from "./drilldown.ts";

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

export interface ReportData {
  readonly summary: Summary;
  readonly flipCount: number;
  readonly flipRates: readonly FlipRateRow[];
  readonly ranking: readonly RankingRow[];
  readonly agreement: readonly AgreementRow[];
  readonly swapped: readonly SwapRow[];
  readonly flipsByCause: readonly FlipCauseRow[];
  readonly actions: readonly ActionRow[];
  readonly mcnemar: readonly McNemarRow[];
  readonly vacuous: readonly VacuousRow[];
  readonly probeCensus: readonly ProbeCensusRow[] | null;
  readonly drilldown: readonly FlipDrilldown[];
}

const pivot = (grader: string, col: string, as: string) =>
  `max(${col}) FILTER (WHERE grader = '${grader}') AS ${as}`;

/** Reads the report's data; the analysis views must be installed (`writeReport` does that). */
export async function loadReportData(store: VerdictStore): Promise<ReportData> {
  const get = <T>(sql: string) => rows<T>(store, sql);
  const count = await get<{ n: number }>("SELECT count(*) AS n FROM flips");
  return {
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
    flipsByCause: await get<FlipCauseRow>(
      "SELECT * FROM flips_by_cause ORDER BY domain, cause_kind, flips DESC, reference",
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
    probeCensus: (await relationExists(store, "probe_census"))
      ? await get<ProbeCensusRow>(
          "SELECT domain, task_version, kind, tasks, tau3_pass, structured_pass FROM probe_census ORDER BY ALL",
        )
      : null,
    drilldown: await loadDrilldown(store),
  };
}
