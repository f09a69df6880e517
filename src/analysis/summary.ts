/** The report's `summary.json`: the headline and every comparison's numbers, read from the analysis views. */
import { runSources } from "../graders/sources.ts";
import type { VerdictStore } from "../store/store.ts";
import { rows } from "./rows.ts";
import { type ComparisonRef, type RunInfo, runComparisons } from "./run.ts";

/**
 * One row of `published_vs_reproduced`. A row without graded simulations for its domain has no
 * reproduced numbers (nulls, 0 simulations, tasks and files).
 */
export interface PublishedRow {
  submission: string;
  model_name: string | null;
  domain: string;
  published_pass_1: number;
  baseline: string;
  baseline_pass_1: number | null;
  baseline_lo: number | null;
  baseline_hi: number | null;
  baseline_difference: number | null;
  candidate: string;
  candidate_pass_1: number | null;
  candidate_lo: number | null;
  candidate_hi: number | null;
  candidate_difference: number | null;
  simulations: number;
  tasks: number;
  /** The tasks of the domain's task set the whole corpus holds. */
  set_tasks: number | null;
  min_trials: number | null;
  max_trials: number | null;
  files: number;
  task_versions: string | null;
  infrastructure_errors: string;
  /** Null where the row is not judged: its domain's every file excluded, or no graded simulations. */
  reproduced: boolean | null;
  /** What the tool can see when the published number does not reproduce. */
  reason: string | null;
  /**
   * `yes`, `no`, `not judged (excluded: <the exclusion's reason>)`, `no trajectories for this domain` or
   * `no graded simulations for this domain`.
   */
  verdict: string;
}

/** A rate with its Wilson 95% interval; null where nothing was counted. */
export interface Rate {
  value: number | null;
  lo: number | null;
  hi: number | null;
}

/** One comparison's paired numbers, outside excluded files and tasks (`comparison_summary` and friends). */
export interface ComparisonSummary {
  baseline: string;
  candidate: string;
  /** The headline comparison is the experiment's first. */
  headline: boolean;
  /** Simulations both sides gave a verdict. */
  paired: number;
  flips: { pass_to_fail: number; fail_to_pass: number };
  flip_rate: Rate;
  pass_rates: { baseline: number | null; candidate: number | null };
  mcnemar: { b: number; c: number; method: string; p_value: number | null };
  /** The flips by review status (confirmed when any of the failing side's causes is). */
  reviews: ReviewCounts;
  confirmed_flip_rate: Rate;
  precision: Rate;
  /** Real violations (confirmed pass → fail flips from the same baseline) the candidate fails. */
  recall: Rate & { real_violations: number; caught: number };
  /**
   * Among sampled simulations both sides pass (`review sample`, view `miss_rates`): missed / (clean +
   * missed), the samples of every domain pooled. `weighted` weights each domain's rate by its both-pass
   * count (null until every such domain has a rate); stale reviews count apart.
   */
  miss_rate: Rate & {
    sampled: number;
    clean: number;
    missed: number;
    unclear: number;
    stale: number;
    both_pass: number;
    weighted: number | null;
    seeds: number[];
  };
  /** How often the two rewards are equal, among simulations the baseline has a reward for. */
  reward_agreement: { with_baseline_reward: number; same_reward: number };
  /** Per domain: the ranking group with the most eligible models, τ-b between the sides' rankings. */
  rankings: Record<
    string,
    {
      task_version: string;
      kendall_tau_b: number | null;
      kendall_tau_b_ci: [number | null, number | null];
      swapped_pairs: [string, string][];
    }
  >;
}

/** The run a report is about, with the requirements, policies and corrections its graders read. */
export interface ReportedRun extends RunInfo {
  /** One line per kind, each layer with its files: `requirements: project requirements/ (3 files) over …`. */
  sources: string[];
}

/**
 * The report's summary. The top-level flip, domain, ranking and review fields are the headline
 * comparison's (the experiment's first), named after its graders as before comparisons were values;
 * `comparisons` holds every comparison, the headline among them.
 */
export interface Summary {
  /** The run the report is about (null when the store has no completed run). */
  run: ReportedRun | null;
  simulations: number;
  graded: number;
  errors: number;
  /** The headline comparison's flips outside excluded files (like every headline number). */
  flips: { pass_to_fail: number; fail_to_pass: number };
  /** Files left out of headline numbers and rankings, with the experiment's reason. */
  excluded_files: { path: string; reason: string | null; simulations: number }[];
  /** Tasks left out of headline numbers and rankings, with the experiment's reason. */
  excluded_tasks: {
    domain: string;
    task_version: string | null;
    task_id: string;
    reason: string;
    simulations: number;
  }[];
  /**
   * The headline comparison's flip causes (outside excluded files) by reviewer verdict, its flips by their
   * review status (confirmed when any cause is), and the reviews that no longer match the run (never
   * applied); `gates`: the headline candidate's flips, precision and recall (`comparison_summary`).
   */
  reviews: ReviewCounts & { stale: number; flips: ReviewCounts; gates: Record<string, GateReview> };
  /** Per domain and grader: passing verdicts, and those whose every reward-basis component was vacuous. */
  vacuous_passes: { domain: string; grader: string; passes: number; vacuous_passes: number }[];
  /** The headline comparison per domain: `<baseline>_pass_rate`, `<candidate>_pass_rate` and its flips. */
  by_domain: Record<string, Record<string, number | null>>;
  /** The headline comparison's rankings: per model `<grader>_pass1` and `<grader>_rank` for both sides. */
  ranking: Record<
    string,
    {
      task_version: string;
      models: Record<string, string | number | null>[];
      kendall_tau_b: number | null;
      kendall_tau_b_ci: [number | null, number | null];
      swapped_pairs: [string, string][];
    }
  >;
  /** Every comparison by name, in the experiment's order. */
  comparisons: Record<string, ComparisonSummary>;
  /**
   * Per leaderboard submission with trajectories and each domain it publishes: the published pass^1 and
   * pass^1 recomputed under each side of the headline comparison, with its verdict (`published_vs_reproduced`).
   */
  published_vs_reproduced: PublishedRow[];
  /** Submissions the corpus holds no graded trajectories of, with their published pass^1. */
  submissions_without_trajectories: {
    submission: string;
    model_name: string | null;
    submitting_organization: string | null;
    submission_date: string | null;
    published_pass_1: string | null;
    error: string | null;
  }[];

  /**
   * What went wrong without stopping the report (an `exclude_tasks` entry that matches no simulation of
   * the run, a chart not drawn); absent when nothing did.
   */
  warnings?: string[];
}

export interface ReviewCounts {
  confirmed: number;
  false_positive: number;
  unclear: number;
  unreviewed: number;
}

export interface GateReview {
  pass_to_fail: number;
  confirmed: number;
  false_positive: number;
  unclear: number;
  unreviewed: number;
  precision: number | null;
  real_violations: number;
  caught: number;
  recall: number | null;
}

async function reviewSummary(
  store: VerdictStore,
  headline: ComparisonRef | undefined,
): Promise<Summary["reviews"]> {
  const name = [headline?.comparison ?? ""];
  const [c] = await rows<ReviewCounts & { stale: number }>(
    store,
    "SELECT * EXCLUDE (comparison) FROM review_counts WHERE comparison = $1",
    name,
  );
  const stale =
    (await rows<{ n: number }>(store, "SELECT count(*) AS n FROM review_status WHERE stale"))[0]?.n ?? 0;
  const byFlip = await rows<{ review: keyof ReviewCounts; n: number }>(
    store,
    "SELECT review, count(*) AS n FROM flip_reviews WHERE NOT excluded AND comparison = $1 GROUP BY review",
    name,
  );
  const gateRows = await rows<GateReview>(
    store,
    `SELECT pass_to_fail, confirmed, false_positive, unclear, unreviewed, precision, real_violations, caught, recall
     FROM comparison_summary WHERE domain = 'all' AND comparison = $1`,
    name,
  );
  const flips: ReviewCounts = { confirmed: 0, false_positive: 0, unclear: 0, unreviewed: 0 };
  for (const r of byFlip) flips[r.review] = r.n;
  const gate = gateRows[0];
  return {
    confirmed: c?.confirmed ?? 0,
    false_positive: c?.false_positive ?? 0,
    unclear: c?.unclear ?? 0,
    unreviewed: c?.unreviewed ?? 0,
    stale,
    flips,
    gates: headline === undefined || gate === undefined ? {} : { [headline.candidate]: gate },
  };
}

/** Per domain, the ranking group (task set) with the most eligible models, where at least two are. */
async function rankingGroups(store: VerdictStore): Promise<{ domain: string; task_version: string }[]> {
  return rows(
    store,
    `SELECT domain, task_version FROM (
       SELECT domain, task_version, n, row_number() OVER (PARTITION BY domain ORDER BY n DESC, task_version) AS pick
       FROM (SELECT domain, task_version, count(*) AS n FROM ranking_entities WHERE eligible GROUP BY domain, task_version))
     WHERE pick = 1 AND n >= 2 ORDER BY domain`,
  );
}

async function comparisonRankings(
  store: VerdictStore,
  k: ComparisonRef,
  groups: readonly { domain: string; task_version: string }[],
): Promise<ComparisonSummary["rankings"]> {
  const out: ComparisonSummary["rankings"] = {};
  const where = "comparison = $1 AND domain = $2 AND task_version = $3";
  for (const g of groups) {
    const params = [k.comparison, g.domain, g.task_version];
    const one = async (sql: string) => (await rows(store, sql, params))[0] ?? {};
    const tau = await one(`SELECT tau_b FROM kendall_tau_b WHERE ${where}`);
    const ci = await one(`SELECT tau_b_lo, tau_b_hi FROM bootstrap_tau_b WHERE ${where}`);
    const swaps = await rows(
      store,
      `SELECT model_a, model_b FROM swapped_pairs WHERE ${where} ORDER BY model_a, model_b`,
      params,
    );
    out[g.domain] = {
      task_version: g.task_version,
      kendall_tau_b: (tau.tau_b as number | undefined) ?? null,
      kendall_tau_b_ci: [
        (ci.tau_b_lo as number | undefined) ?? null,
        (ci.tau_b_hi as number | undefined) ?? null,
      ],
      swapped_pairs: swaps.map((s) => [String(s.model_a), String(s.model_b)]),
    };
  }
  return out;
}

async function comparisonSummaries(
  store: VerdictStore,
  comparisons: readonly ComparisonRef[],
  groups: readonly { domain: string; task_version: string }[],
): Promise<Record<string, ComparisonSummary>> {
  const all = await rows<Record<string, number | string | null>>(
    store,
    "SELECT * FROM comparison_summary WHERE domain = 'all'",
  );
  const tests = await rows<Record<string, number | string | null>>(store, "SELECT * FROM mcnemar");
  const misses = await rows<Record<string, number | string | null>>(
    store,
    "SELECT * FROM miss_rates WHERE domain = 'all'",
  );
  const out: Record<string, ComparisonSummary> = {};
  for (const k of comparisons) {
    const r = all.find((x) => x.comparison === k.comparison) ?? {};
    const t = tests.find((x) => x.comparison === k.comparison) ?? {};
    const m = misses.find((x) => x.comparison === k.comparison) ?? {};
    const num = (v: unknown): number => (typeof v === "number" ? v : 0);
    const opt = (v: unknown): number | null => (typeof v === "number" ? v : null);
    out[k.comparison] = {
      baseline: k.baseline,
      candidate: k.candidate,
      headline: k.seq === comparisons[0]?.seq,
      paired: num(r.paired),
      flips: { pass_to_fail: num(r.pass_to_fail), fail_to_pass: num(r.fail_to_pass) },
      flip_rate: { value: opt(r.flip_rate), lo: opt(r.flip_rate_lo), hi: opt(r.flip_rate_hi) },
      pass_rates: { baseline: opt(r.baseline_pass_rate), candidate: opt(r.candidate_pass_rate) },
      mcnemar: { b: num(t.b), c: num(t.c), method: String(t.method ?? "none"), p_value: opt(t.p_value) },
      reviews: {
        confirmed: num(r.confirmed),
        false_positive: num(r.false_positive),
        unclear: num(r.unclear),
        unreviewed: num(r.unreviewed),
      },
      confirmed_flip_rate: {
        value: opt(r.confirmed_flip_rate),
        lo: opt(r.confirmed_flip_rate_lo),
        hi: opt(r.confirmed_flip_rate_hi),
      },
      precision: { value: opt(r.precision), lo: opt(r.precision_lo), hi: opt(r.precision_hi) },
      recall: {
        value: opt(r.recall),
        lo: opt(r.recall_lo),
        hi: opt(r.recall_hi),
        real_violations: num(r.real_violations),
        caught: num(r.caught),
      },
      miss_rate: {
        value: opt(m.miss_rate),
        lo: opt(m.miss_rate_lo),
        hi: opt(m.miss_rate_hi),
        sampled: num(m.sampled),
        clean: num(m.clean),
        missed: num(m.missed),
        unclear: num(m.unclear),
        stale: num(m.stale),
        both_pass: num(m.both_pass),
        weighted: opt(m.weighted_miss_rate),
        seeds: typeof m.seeds === "string" ? m.seeds.split(", ").map(Number) : [],
      },
      reward_agreement: {
        with_baseline_reward: num(r.with_baseline_reward),
        same_reward: num(r.same_reward),
      },
      rankings: await comparisonRankings(store, k, groups),
    };
  }
  return out;
}

/** The grading spec as the run stored it; a store that holds none (or no JSON) names no sources. */
function storedSpec(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}

export async function summarize(store: VerdictStore): Promise<Summary> {
  const stored =
    (
      await rows<RunInfo & { grading_spec: string }>(
        store,
        "SELECT run_id, seq, experiment, config_hash, tool_version, completed, grading_spec FROM current_run",
      )
    )[0] ?? null;
  let run: ReportedRun | null = null;
  if (stored !== null) {
    const { grading_spec, ...info } = stored;
    run = { ...info, sources: runSources(storedSpec(grading_spec)) };
  }
  const vacuous = await rows<Summary["vacuous_passes"][number]>(
    store,
    "SELECT domain, grader, passes, vacuous_passes FROM vacuous_passes ORDER BY domain, grader",
  );
  const one = async (sql: string) => (await rows(store, sql))[0] ?? {};
  const counts = await one(`SELECT count(*) AS simulations, count(*) FILTER (WHERE graded) AS graded
                            FROM simulations JOIN current_run USING (run_id)`);
  const errors = await one(`SELECT count(*) AS n FROM errors JOIN current_run USING (run_id)`);
  const comparisons = await runComparisons(store);
  const headline = comparisons[0];
  const groups = await rankingGroups(store);
  const all = await comparisonSummaries(store, comparisons, groups);
  const head = headline === undefined ? undefined : all[headline.comparison];
  const byDomain: Summary["by_domain"] = {};
  const ranking: Summary["ranking"] = {};
  if (headline !== undefined && head !== undefined) {
    const { baseline: b, candidate: c } = headline;
    const domainRows = await rows<Record<string, number | string | null>>(
      store,
      `SELECT domain, baseline_pass_rate, candidate_pass_rate, pass_to_fail, fail_to_pass FROM comparison_summary
       WHERE comparison = $1 AND domain <> 'all' ORDER BY domain`,
      [headline.comparison],
    );
    for (const r of domainRows)
      byDomain[String(r.domain)] = {
        [`${b}_pass_rate`]: r.baseline_pass_rate as number | null,
        [`${c}_pass_rate`]: r.candidate_pass_rate as number | null,
        pass_to_fail: r.pass_to_fail as number,
        fail_to_pass: r.fail_to_pass as number,
      };
    for (const g of groups) {
      const models = await rows<Record<string, string | number | null>>(
        store,
        `SELECT model, max(pass1) FILTER (WHERE grader = $1) AS "${b}_pass1",
                max(pass1) FILTER (WHERE grader = $2) AS "${c}_pass1",
                max(rank) FILTER (WHERE grader = $1) AS "${b}_rank",
                max(rank) FILTER (WHERE grader = $2) AS "${c}_rank"
         FROM ranking WHERE domain = $3 AND task_version = $4 GROUP BY model ORDER BY "${b}_rank", model`,
        [b, c, g.domain, g.task_version],
      );
      const paired = head.rankings[g.domain];
      ranking[g.domain] = {
        task_version: g.task_version,
        models,
        kendall_tau_b: paired?.kendall_tau_b ?? null,
        kendall_tau_b_ci: paired?.kendall_tau_b_ci ?? [null, null],
        swapped_pairs: paired?.swapped_pairs ?? [],
      };
    }
  }
  return {
    run,
    simulations: (counts.simulations as number) ?? 0,
    graded: (counts.graded as number) ?? 0,
    errors: (errors.n as number) ?? 0,
    flips: head?.flips ?? { pass_to_fail: 0, fail_to_pass: 0 },
    excluded_files: await rows<Summary["excluded_files"][number]>(
      store,
      "SELECT path, reason, simulations FROM excluded_files ORDER BY path",
    ),
    excluded_tasks: await rows<Summary["excluded_tasks"][number]>(
      store,
      "SELECT domain, task_version, task_id, reason, simulations FROM excluded_tasks ORDER BY domain, task_version, task_id",
    ),
    reviews: await reviewSummary(store, headline),
    vacuous_passes: vacuous,
    by_domain: byDomain,
    ranking,
    comparisons: all,
    published_vs_reproduced: await rows<PublishedRow>(
      store,
      "SELECT * EXCLUDE (simulations, tasks, set_tasks, min_trials, max_trials, files), simulations::INTEGER AS simulations, tasks::INTEGER AS tasks, set_tasks::INTEGER AS set_tasks, min_trials::INTEGER AS min_trials, max_trials::INTEGER AS max_trials, files::INTEGER AS files FROM published_vs_reproduced ORDER BY submission, domain",
    ),
    submissions_without_trajectories: await rows<Summary["submissions_without_trajectories"][number]>(
      store,
      "SELECT * FROM submissions_without_trajectories ORDER BY submission",
    ),
  };
}
