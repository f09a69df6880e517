/**
 * `tau-rescore report`: every analysis view exported as JSON, CSV and Parquet (DuckDB COPY), plus
 * `summary.json`. Written into a temporary folder first and moved into place (`out-dir.ts`), so a
 * failure (read-only folder, full disk, Ctrl-C) never leaves a half-written report.
 */
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { VerdictStore } from "../store/store.ts";
import { EXIT_INPUT_FAILED, RescoreError } from "../util/errors.ts";
import { toCsv } from "./csv.ts";
import { unmatchedExclusionWarnings } from "./exclusions.ts";
import { OutDirError, type Staging, stage } from "./out-dir.ts";
import { table } from "./rows.ts";
import { installAnalyses } from "./run.ts";
import { type Summary, summarize } from "./summary.ts";
import { frozenForReport, REPORTED } from "./views.ts";

/** The report could not be written to its target. */
export class ReportError extends RescoreError {
  override readonly code = "report_write";
  override readonly exitStatus = EXIT_INPUT_FAILED;

  override readonly name = "ReportError";
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

const ORDER: Partial<Record<(typeof REPORTED)[number], string>> = {
  run_comparisons: "seq",
  flips: "comparison_seq, domain, model, task_id, sim_key",
  flip_causes: "comparison, domain, model, task_id, sim_key, seq",
  comparison_summary: "comparison_seq, domain",
  flip_rates_by_model: "comparison, domain, model",
  mcnemar_by_model: "comparison, domain, model",
  mcnemar: "comparison",
  flip_rates_by_task: "comparison, domain, task_version, task_id",
  flips_by_cause: "comparison, grader, domain, cause_kind, reference, direction",
  cause_kinds: "comparison, domain, grader, cause_kind",
  score_delta_by_action: "comparison, domain, action",
  kendall_tau_b: "comparison, domain, task_version",
  swapped_pairs: "comparison, domain, task_version, model_a, model_b",
  bootstrap_tau_b: "comparison, domain, task_version",
  reward_agreement: "comparison, domain, model, path",
  excluded_tasks: "domain, task_version, task_id",
  pass_hat_k: "domain, task_version, model, run_config, grader, k",
  ranking_entities: "domain, task_version, model",
  ranking: "domain, task_version, grader, rank, model",
  rank_intervals: "domain, task_version, grader, model",
  pairwise_superiority: "domain, task_version, grader, model_a, model_b",
  transfer_confusion: "domain, model",
  vacuous_components: "domain, grader, component",
  vacuous_passes: "domain, grader",
  flip_reviews: "comparison, domain, model, task_id, sim_key",
  review_status: "path, simulation_id, grader, kind, reference",
  review_precision_by_kind: "grader, kind",
  review_precision_by_rule: "grader, kind, reference",
  sample_review_status: "comparison, domain, path, simulation_id, fingerprint",
  miss_rates: "comparison_seq, domain",
  excluded_files: "path",
  error_list: "scope, path, simulation_id, stage",
  published_vs_reproduced: "submission, domain",
  submissions_without_trajectories: "submission",
  noise_by_configuration: "excluded, configuration, grader",
  grader_effect_vs_noise: "comparison_seq, excluded, configuration",
  ranking_swaps_vs_noise: "comparison_seq, domain, task_version, model_a, model_b",
};

export interface WriteReportOptions {
  /** The run to report (`selectRun`); the latest completed one when absent. */
  readonly runId?: string | undefined;
  /**
   * Given the partial folder once it exists, so the command can remove it when the process ends
   * before the report is complete (an interrupt, an exit).
   */
  readonly onStaged?: (staging: Pick<Staging, "abort">) => void;
}

/**
 * Writes the whole report into `outDir` (a new or empty folder, or a previous report) and swaps it in
 * only when complete. `extra` writes more into the folder (given the summary, so it is not worked out
 * twice) and returns its warnings, which summary.json counts after the `exclude_tasks` entries that
 * match no simulation of the run.
 */
export async function writeReport(
  store: VerdictStore,
  outDir: string,
  extra?: (tmp: string, summary: Summary) => Promise<readonly string[]> | Promise<void>,
  options: WriteReportOptions = {},
): Promise<Summary> {
  const target = resolve(outDir);
  let staging: Staging | null = null;
  let thaw: (() => Promise<void>) | null = null;
  try {
    staging = stage(target);
    options.onStaged?.(staging);
    const tmp = staging.dir;
    await installAnalyses(store, options.runId);
    thaw = await freezeViews(store);
    for (const view of REPORTED) {
      const sql = `SELECT * FROM ${view} ORDER BY ${ORDER[view] ?? "ALL"}`;
      const data = await table(store, sql);
      writeFileSync(join(tmp, `${view}.json`), `${JSON.stringify(data.rows, null, 1)}\n`);
      writeFileSync(join(tmp, `${view}.csv`), toCsv(data.columns, data.rows));
      await store.conn.run(`COPY (${sql}) TO $1 (FORMAT PARQUET)`, [join(tmp, `${view}.parquet`)]);
    }
    const summary = await summarize(store);
    const exclusions =
      summary.run === null ? [] : await unmatchedExclusionWarnings(store, summary.run.run_id);
    const warnings = [...exclusions, ...((await extra?.(tmp, summary)) ?? [])];
    if (warnings.length > 0) summary.warnings = warnings;
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
