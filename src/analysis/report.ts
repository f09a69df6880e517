/**
 * `tau-rescore report`: every analysis view exported as JSON, CSV and Parquet (DuckDB COPY), plus
 * `summary.json`. Written into a temporary folder first and moved into place (`out-dir.ts`), so a
 * failure (read-only folder, full disk, Ctrl-C) never leaves a half-written report.
 */
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { VerdictStore } from "../store/store.ts";
import { EXIT_INPUT_FAILED, EXIT_USAGE, RescoreError } from "../util/errors.ts";
import { toCsv } from "./csv.ts";
import { OutDirError, type Staging, stage } from "./out-dir.ts";
import { analysisStatements, frozenForReport, REPORTED, RUN_VARIABLE } from "./views.ts";

/** The report could not be written to its target. */
export class ReportError extends RescoreError {
  override readonly code = "report_write";
  override readonly exitStatus = EXIT_INPUT_FAILED;

  override readonly name = "ReportError";
}

/** `--run` names a run the store does not hold: a usage mistake. */
export class UnknownRunError extends RescoreError {
  override readonly code = "unknown_run";
  override readonly exitStatus = EXIT_USAGE;
  override readonly name = "UnknownRunError";
}

export interface RunInfo {
  run_id: string;
  seq: number;
  experiment: string;
  config_hash: string;
  tool_version: string;
  completed: boolean;
}

const sqlString = (s: string) => `'${s.replaceAll("'", "''")}'`;

/**
 * Points every view at one run: `runId`, or else the latest completed run. Returns that run, or null
 * when the store has no completed run (the views are then empty).
 */
export async function selectRun(store: VerdictStore, runId?: string): Promise<RunInfo | null> {
  const runs = await rows<RunInfo>(
    store,
    "SELECT run_id, seq, experiment, config_hash, tool_version, completed FROM runs ORDER BY seq",
  );
  if (runId !== undefined) {
    const hit = runs.find((r) => r.run_id === runId);
    if (hit === undefined)
      throw new UnknownRunError(
        `${store.path} has no run ${runId}` +
          (runs.length === 0
            ? ""
            : `; its runs: ${runs.map((r) => `${r.run_id} (${r.experiment})`).join(", ")}`),
      );
    await store.conn.run(`SET VARIABLE ${RUN_VARIABLE} = ${sqlString(runId)}`);
    return hit;
  }
  await store.conn.run(`SET VARIABLE ${RUN_VARIABLE} = NULL::VARCHAR`);
  return runs.filter((r) => r.completed).at(-1) ?? null;
}

/** Installs the analysis views over the selected run (see `selectRun`); returns that run. */
export async function installAnalyses(store: VerdictStore, runId?: string): Promise<RunInfo | null> {
  const run = await selectRun(store, runId);
  for (const sql of analysisStatements()) await store.conn.run(sql);
  return run;
}

/**
 * Turns each view of `frozenForReport` into a TEMP table of its rows (the view kept as `<name>_live`), so
 * a report computes it once. Returns what turns them back into views, which follow later changes (a
 * review written) again and can be installed over.
 */
async function freezeViews(store: VerdictStore): Promise<() => Promise<void>> {
  const frozen: string[] = [];
  const thaw = async () => {
    for (const name of frozen.splice(0).reverse()) {
      await store.conn.run(`DROP TABLE IF EXISTS ${name}`);
      await store.conn.run(`ALTER VIEW ${name}_live RENAME TO ${name}`);
    }
  };
  try {
    for (const name of frozenForReport()) {
      await store.conn.run(`ALTER VIEW ${name} RENAME TO ${name}_live`);
      frozen.push(name);
      await store.conn.run(`CREATE TEMP TABLE ${name} AS SELECT * FROM ${name}_live`);
    }
  } catch (e) {
    await thaw();
    throw e;
  }
  return thaw;
}

/** Rows as plain JSON values: BIGINT counts become numbers (they are far below 2^53 here). */
export async function rows<T = Record<string, unknown>>(store: VerdictStore, sql: string): Promise<T[]> {
  return (await table(store, sql)).rows as T[]; // the caller names the row type of its own query
}

/** The rows and the column names (known even when there are no rows). */
async function table(
  store: VerdictStore,
  sql: string,
): Promise<{ columns: string[]; rows: Record<string, unknown>[] }> {
  const reader = await store.conn.runAndReadAll(sql);
  const data = reader.getRowObjectsJS().map((r) => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(r)) out[k] = typeof v === "bigint" ? Number(v) : v;
    return out;
  });
  return { columns: reader.columnNames(), rows: data };
}

const ORDER: Partial<Record<(typeof REPORTED)[number], string>> = {
  flips: "domain, model, task_id, sim_key",
  flip_summary: "scope, domain",
  flip_rates_by_model: "domain, model",
  flip_rates_by_task: "domain, task_version, task_id",
  flip_causes: "domain, model, task_id, sim_key, seq",
  gate_flips: "grader, domain, model, task_id, sim_key",
  flips_by_cause: "grader, domain, cause_kind, reference, direction",
  cause_kinds_by_gate: "domain, grader, cause_kind",
  gate_summary: "grader, domain",
  mcnemar_by_model: "domain, model",
  score_delta_by_action: "domain, action",
  pass_hat_k: "domain, task_version, model, run_config, grader, k",
  ranking_entities: "domain, task_version, model",
  ranking: "domain, task_version, grader, rank, model",
  kendall_tau_b: "domain, task_version",
  swapped_pairs: "domain, task_version, model_a, model_b",
  rank_intervals: "domain, task_version, grader, model",
  pairwise_superiority: "domain, task_version, grader, model_a, model_b",
  bootstrap_tau_b: "domain, task_version",
  recorded_agreement: "domain, model, path",
  transfer_confusion: "domain, model",
  vacuous_components: "domain, grader, component",
  vacuous_passes: "domain, grader",
  flip_reviews: "grader, domain, model, task_id, sim_key",
  review_status: "path, simulation_id, grader, kind, reference",
  review_precision_by_kind: "grader, kind",
  review_precision_by_rule: "grader, kind, reference",
  excluded_files: "path",
  error_list: "scope, path, simulation_id, stage",
};

export interface Summary {
  /** The run the report is about (null when the store has no completed run). */
  run: RunInfo | null;
  simulations: number;
  graded: number;
  errors: number;
  /** Flips outside excluded files (like every headline number). */
  flips: { pass_to_fail: number; fail_to_pass: number };
  /** Files left out of headline numbers and rankings, with the experiment's reason. */
  excluded_files: { path: string; reason: string | null; simulations: number }[];
  /**
   * The default gate's flip causes (outside excluded files) by reviewer verdict, its flips by their review
   * status (confirmed when any cause is), and the reviews that no longer match the run (never applied);
   * `gates`: each gate's flips, precision and recall against the reviews (`gate_summary`, all domains).
   */
  reviews: ReviewCounts & { stale: number; flips: ReviewCounts; gates: Record<string, GateReview> };
  /** Per domain and grader: passing verdicts, and those whose every reward-basis component was vacuous. */
  vacuous_passes: { domain: string; grader: string; passes: number; vacuous_passes: number }[];
  by_domain: Record<
    string,
    {
      tau3_pass_rate: number | null;
      structured_pass_rate: number | null;
      pass_to_fail: number;
      fail_to_pass: number;
    }
  >;
  ranking: Record<
    string,
    {
      task_version: string;
      models: {
        model: string;
        tau3_pass1: number;
        structured_pass1: number;
        tau3_rank: number;
        structured_rank: number;
      }[];
      kendall_tau_b: number | null;
      kendall_tau_b_ci: [number | null, number | null];
      swapped_pairs: [string, string][];
    }
  >;
  /** What went wrong without stopping the report (a chart not drawn, say); absent when nothing did. */
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

async function reviewSummary(store: VerdictStore): Promise<Summary["reviews"]> {
  const [c] = await rows<ReviewCounts & { stale: number }>(
    store,
    "SELECT * FROM review_counts WHERE grader = 'structured'",
  );
  const byFlip = await rows<{ review: keyof ReviewCounts; n: number }>(
    store,
    "SELECT review, count(*) AS n FROM flip_reviews WHERE NOT excluded AND grader = 'structured' GROUP BY review",
  );
  const gateRows = await rows<GateReview & { grader: string }>(
    store,
    `SELECT grader, pass_to_fail, confirmed, false_positive, unclear, unreviewed, precision, real_violations,
            caught, recall FROM gate_summary WHERE domain = 'all' ORDER BY grader`,
  );
  const gates = Object.fromEntries(gateRows.map(({ grader, ...g }) => [grader, g]));
  const flips: ReviewCounts = { confirmed: 0, false_positive: 0, unclear: 0, unreviewed: 0 };
  for (const r of byFlip) flips[r.review] = r.n;
  return {
    confirmed: c?.confirmed ?? 0,
    false_positive: c?.false_positive ?? 0,
    unclear: c?.unclear ?? 0,
    unreviewed: c?.unreviewed ?? 0,
    stale: c?.stale ?? 0,
    flips,
    gates,
  };
}

export async function summarize(store: VerdictStore): Promise<Summary> {
  const run =
    (
      await rows<RunInfo>(
        store,
        "SELECT run_id, seq, experiment, config_hash, tool_version, completed FROM current_run",
      )
    )[0] ?? null;
  const vacuous = await rows<Summary["vacuous_passes"][number]>(
    store,
    "SELECT domain, grader, passes, vacuous_passes FROM vacuous_passes ORDER BY domain, grader",
  );
  const one = async (sql: string) => (await rows(store, sql))[0] ?? {};
  const counts = await one(`SELECT count(*) AS simulations, count(*) FILTER (WHERE graded) AS graded
                            FROM simulations JOIN current_run USING (run_id)`);
  const errors = await one(`SELECT count(*) AS n FROM errors JOIN current_run USING (run_id)`);
  const flipRows = await rows(store, `SELECT * FROM flip_summary ORDER BY scope, domain`);
  const overall = flipRows.find((r) => r.scope === "overall") ?? {};
  const byDomain: Summary["by_domain"] = {};
  for (const r of flipRows.filter((x) => x.scope === "domain")) {
    byDomain[String(r.domain)] = {
      tau3_pass_rate: r.tau3_pass_rate as number | null,
      structured_pass_rate: r.structured_pass_rate as number | null,
      pass_to_fail: r.pass_to_fail as number,
      fail_to_pass: r.fail_to_pass as number,
    };
  }
  // Per domain, the ranking group (task set) with the most eligible models.
  const groups = await rows(
    store,
    `SELECT domain, task_version FROM (
       SELECT domain, task_version, n, row_number() OVER (PARTITION BY domain ORDER BY n DESC, task_version) AS pick
       FROM (SELECT domain, task_version, count(*) AS n FROM ranking_entities WHERE eligible GROUP BY domain, task_version))
     WHERE pick = 1 AND n >= 2 ORDER BY domain`,
  );
  const ranking: Summary["ranking"] = {};
  for (const g of groups) {
    const where = `domain = ${sqlString(String(g.domain))} AND task_version = ${sqlString(String(g.task_version))}`;
    const models = await rows(
      store,
      `SELECT model, max(pass1) FILTER (WHERE grader = 'tau3') AS tau3_pass1, max(pass1) FILTER (WHERE grader = 'structured') AS structured_pass1,
              max(rank) FILTER (WHERE grader = 'tau3') AS tau3_rank, max(rank) FILTER (WHERE grader = 'structured') AS structured_rank
       FROM ranking WHERE ${where} GROUP BY model ORDER BY tau3_rank, model`,
    );
    const tau = await one(`SELECT tau_b FROM kendall_tau_b WHERE ${where}`);
    const ci = await one(`SELECT tau_b_lo, tau_b_hi FROM bootstrap_tau_b WHERE ${where}`);
    const swaps = await rows(
      store,
      `SELECT model_a, model_b FROM swapped_pairs WHERE ${where} ORDER BY model_a, model_b`,
    );
    ranking[String(g.domain)] = {
      task_version: String(g.task_version),
      models: models as Summary["ranking"][string]["models"],
      kendall_tau_b: (tau.tau_b as number | undefined) ?? null,
      kendall_tau_b_ci: [
        (ci.tau_b_lo as number | undefined) ?? null,
        (ci.tau_b_hi as number | undefined) ?? null,
      ],
      swapped_pairs: swaps.map((s) => [String(s.model_a), String(s.model_b)]),
    };
  }
  return {
    run,
    simulations: (counts.simulations as number) ?? 0,
    graded: (counts.graded as number) ?? 0,
    errors: (errors.n as number) ?? 0,
    flips: {
      pass_to_fail: (overall.pass_to_fail as number) ?? 0,
      fail_to_pass: (overall.fail_to_pass as number) ?? 0,
    },
    excluded_files: await rows<Summary["excluded_files"][number]>(
      store,
      "SELECT path, reason, simulations FROM excluded_files ORDER BY path",
    ),
    reviews: await reviewSummary(store),
    vacuous_passes: vacuous,
    by_domain: byDomain,
    ranking,
  };
}

/**
 * Writes the whole report into `outDir` (a new or empty folder, or a previous report) and swaps it in
 * only when complete. `extra` writes more into the folder and returns its warnings, which summary.json
 * counts.
 */
export async function writeReport(
  store: VerdictStore,
  outDir: string,
  extra?: (tmp: string) => Promise<readonly string[]> | Promise<void>,
  runId?: string,
): Promise<Summary> {
  const target = resolve(outDir);
  let staging: Staging | null = null;
  let thaw: (() => Promise<void>) | null = null;
  try {
    staging = stage(target);
    const tmp = staging.dir;
    await installAnalyses(store, runId);
    thaw = await freezeViews(store);
    for (const view of REPORTED) {
      const sql = `SELECT * FROM ${view} ORDER BY ${ORDER[view] ?? "ALL"}`;
      const data = await table(store, sql);
      writeFileSync(join(tmp, `${view}.json`), `${JSON.stringify(data.rows, null, 1)}\n`);
      writeFileSync(join(tmp, `${view}.csv`), toCsv(data.columns, data.rows));
      await store.conn.run(`COPY (${sql}) TO ${sqlString(join(tmp, `${view}.parquet`))} (FORMAT PARQUET)`);
    }
    const summary = await summarize(store);
    const warnings = (await extra?.(tmp)) ?? [];
    if (warnings.length > 0) summary.warnings = [...warnings];
    writeFileSync(join(tmp, "summary.json"), `${JSON.stringify(summary, null, 2)}\n`);
    await thaw();
    staging.commit();
    return summary;
  } catch (e) {
    await thaw?.().catch(() => {}); // the report's own error is the one to see
    staging?.abort();
    const err = e as NodeJS.ErrnoException;
    if (
      !(e instanceof OutDirError) &&
      ["EACCES", "EROFS", "ENOSPC", "EPERM", "ENOENT", "EDQUOT"].includes(err.code ?? "")
    ) {
      throw new ReportError(
        `cannot write the report to ${target}: ${err.code} (${err.message}); nothing was written`,
      );
    }
    throw e;
  }
}
