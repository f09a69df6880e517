/**
 * The analyses, as DuckDB macros and views over the verdict store: the paired ones per comparison
 * (`comparison-views.ts`), the reviews (`review-views.ts`), rankings and the bootstrap per grader. Every
 * number in a report comes from these; TypeScript only installs them and reads them out.
 */

import { NO_SIMULATIONS } from "../formats/file-warnings.ts";
import { RECORDED } from "../graders/comparisons.ts";
import { PAIRED, PAIRED_BASE, PAIRED_REPORTED } from "./comparison-views.ts";
import { NOISE_REPORTED, NOISE_VIEWS, RANKING_NOISE_VIEWS } from "./noise-views.ts";
import { REVIEW_VIEWS } from "./review-views.ts";

/** The session variable that selects the run the views read (see `current_run`). */
export const RUN_VARIABLE = "tau_rescore_run";

/** Small statistical helpers as SQL macros. */
const MACROS = [
  // Wilson score interval for k successes in n trials (z = 1.96), clamped to [0, 1] (at k = 0 rounding
  // gives -1e-17, which a report prints as "-0.0%").
  `CREATE OR REPLACE MACRO wilson_lo(k, n) AS CASE WHEN coalesce(n, 0) = 0 THEN NULL ELSE greatest(0.0,
     (k / n + 1.96 ^ 2 / (2 * n) - 1.96 * sqrt(k / n * (1 - k / n) / n + 1.96 ^ 2 / (4 * n ^ 2))) / (1 + 1.96 ^ 2 / n)) END`,
  `CREATE OR REPLACE MACRO wilson_hi(k, n) AS CASE WHEN coalesce(n, 0) = 0 THEN NULL ELSE least(1.0,
     (k / n + 1.96 ^ 2 / (2 * n) + 1.96 * sqrt(k / n * (1 - k / n) / n + 1.96 ^ 2 / (4 * n ^ 2))) / (1 + 1.96 ^ 2 / n)) END`,
  // erfc by Abramowitz & Stegun 7.1.26 (absolute error < 1.5e-7), for the χ² (1 df) tail.
  `CREATE OR REPLACE MACRO erfc_as(x) AS (
     SELECT t * exp(-x * x) * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
     FROM (SELECT 1 / (1 + 0.3275911 * x) AS t))`,
  // Two-sided exact binomial (p = 1/2) test on the discordant pairs b, c.
  `CREATE OR REPLACE MACRO mcnemar_exact_p(b, c) AS (
     SELECT least(1.0, 2 * sum(exp(lgamma(b + c + 1) - lgamma(i + 1) - lgamma(b + c - i + 1) - (b + c) * ln(2))))
     FROM range(0, least(b, c) + 1) r(i))`,
  // χ² with continuity correction, 1 degree of freedom: P(X > x) = erfc(sqrt(x / 2)).
  `CREATE OR REPLACE MACRO mcnemar_chi2(b, c) AS (abs(b - c) - 1) ^ 2 / (b + c)`,
  // C(c, k) / C(n, k): the unbiased pass^k estimate for one task (0 when c < k).
  `CREATE OR REPLACE MACRO pass_hat(c, n, k) AS CASE WHEN c < k THEN 0.0 ELSE
     exp(lgamma(c + 1) - lgamma(c - k + 1) - lgamma(n + 1) + lgamma(n - k + 1)) END`,
];

/** Views, in dependency order. */
const VIEWS: readonly [name: string, sql: string][] = [
  // The run every view reads: `SET VARIABLE tau_rescore_run = '<run id>'` picks one (`selectRun`);
  // unset, the latest completed run.
  [
    "current_run",
    `SELECT * FROM runs
     WHERE run_id = coalesce(getvariable('${RUN_VARIABLE}'),
                             (SELECT run_id FROM runs WHERE completed ORDER BY seq DESC LIMIT 1))`,
  ],
  [
    // The graded files each leaderboard submission covers, with how many of its files hold that domain.
    "submission_coverage",
    `WITH covered AS (
       SELECT sf.submission, sf.path, s.model_name, f.domain, f.task_version, f.simulations, f.excluded,
              f.exclusion_reason
       FROM submission_files sf JOIN current_run r USING (run_id)
       JOIN submissions s ON s.run_id = sf.run_id AND s.submission = sf.submission
       JOIN files f ON f.run_id = sf.run_id AND f.path = sf.path
       WHERE sf.found AND f.status = 'graded' AND f.simulations > 0 AND s.error IS NULL)
     SELECT c.*, count(*) OVER (PARTITION BY c.submission, c.domain) AS files_for_domain FROM covered c`,
  ],
  [
    // A file one submission covers alone for its domain is ranked under the submission's model name.
    "submission_labels",
    `SELECT path, min(model_name) AS model_name FROM submission_coverage WHERE files_for_domain = 1
     GROUP BY path HAVING count(*) = 1`,
  ],
  [
    "sim_verdicts",
    `SELECT s.sim_key, s.file_id, f.path, s.domain, s.task_version, s.task_id, s.trial, s.termination_reason,
            s.recorded_reward, s.simulation_id,
            coalesce(sl.model_name,
                     coalesce(f.agent_model, 'unknown') || ' [' || coalesce(f.agent_implementation, '?') || ']') AS model,
            f.user_model,
            -- pass^k pools trials only within one run configuration (agent model and implementation, user
            -- model, task set); a file that leaves any of them unknown is a configuration of its own.
            CASE WHEN f.agent_model IS NULL OR f.agent_implementation IS NULL OR f.user_model IS NULL
                      OR f.task_version IS NULL THEN 'file ' || f.path
                 ELSE 'user ' || f.user_model END AS run_config,
            f.excluded OR x.reason IS NOT NULL AS excluded,
            CASE WHEN f.excluded THEN f.exclusion_reason ELSE x.reason END AS exclusion_reason,
            -- repeats of a task are simulations under one configuration (a file without one is its own)
            coalesce(f.configuration, 'file ' || f.path) AS configuration
     FROM simulations s
     JOIN current_run r USING (run_id)
     JOIN files f ON f.run_id = s.run_id AND f.file_id = s.file_id
     LEFT JOIN submission_labels sl ON sl.path = f.path
     -- the experiment's excluded tasks (one reason per simulation, however many entries match it)
     LEFT JOIN (SELECT s2.sim_key, min(te.reason) AS reason
                FROM simulations s2 JOIN current_run r2 USING (run_id)
                JOIN task_exclusions te ON te.run_id = s2.run_id AND te.domain = s2.domain AND te.task_id = s2.task_id
                                       AND (te.task_version IS NULL OR te.task_version = s2.task_version)
                GROUP BY s2.sim_key) x ON x.sim_key = s.sim_key
     WHERE s.graded`,
  ],
  ["run_causes", `SELECT c.* FROM causes c JOIN current_run r USING (run_id)`],
  ["run_evidence", `SELECT e.* FROM evidence e JOIN current_run r USING (run_id)`],
  ...PAIRED_BASE,
  ...REVIEW_VIEWS,
  ...NOISE_VIEWS,
  [
    // Components scored 1.0 with nothing to check (no gold actions, no communicate_info, ...), per grader.
    "vacuous_components",
    `SELECT sv.domain, c.grader, c.component, count(*) AS simulations,
            count(*) FILTER (WHERE c.in_basis) AS in_basis,
            count(*) FILTER (WHERE c.vacuous) AS vacuous,
            count(*) FILTER (WHERE c.vacuous AND c.in_basis) AS vacuous_in_basis
     FROM components c JOIN current_run r USING (run_id) JOIN sim_verdicts sv ON sv.sim_key = c.sim_key
     GROUP BY ALL`,
  ],
  [
    // Passing verdicts whose every reward-basis component was vacuous: nothing was checked at all.
    "vacuous_passes",
    `WITH per_sim AS (SELECT c.sim_key, c.grader, bool_and(c.vacuous) FILTER (WHERE c.in_basis) AS all_vacuous
                      FROM components c JOIN current_run r USING (run_id) GROUP BY ALL)
     SELECT sv.domain, v.grader, count(*) FILTER (WHERE v.pass) AS passes,
            count(*) FILTER (WHERE v.pass AND p.all_vacuous) AS vacuous_passes
     FROM verdicts v JOIN current_run r USING (run_id) JOIN sim_verdicts sv ON sv.sim_key = v.sim_key
     LEFT JOIN per_sim p ON p.sim_key = v.sim_key AND p.grader = v.grader
     GROUP BY ALL`,
  ],
  [
    // One row per (simulation, grader) with the infrastructure-error convention of the run applied.
    "graded_long",
    // The recorded reward counts as a grader where a comparison names it.
    `SELECT sv.domain, sv.task_version, sv.model, sv.run_config, sv.excluded, sv.task_id, sv.sim_key, v.grader,
            coalesce(v.pass, false) AS success, v.pass IS NULL AS unknown
     FROM sim_verdicts sv JOIN run_verdicts v ON v.sim_key = sv.sim_key CROSS JOIN current_run r
     WHERE NOT (sv.termination_reason = 'infrastructure_error' AND r.infrastructure_errors = 'drop')
       AND (v.grader <> '${RECORDED}' OR v.grader IN (SELECT grader FROM compared_graders))`,
  ],
  [
    // Per submission and domain: the published pass^1 beside pass^1 recomputed from the files it covers
    // under each side of the headline comparison (the run's infrastructure-error convention applied),
    // with Wilson intervals, and what the tool can see when the published number is outside the
    // baseline's interval. `verdict` says yes, no, not judged (the experiment excludes every file of the
    // domain: its reason) or that the domain has no trajectories; every domain a submission with graded
    // trajectories publishes is a row.
    "published_vs_reproduced",
    `WITH headline AS (SELECT baseline, candidate FROM run_comparisons ORDER BY seq LIMIT 1),
          published AS (SELECT sub.submission, sub.model_name, r.domain, r.pass_1, cr.infrastructure_errors
                        FROM submissions sub JOIN current_run cr USING (run_id)
                        JOIN submission_results r ON r.run_id = sub.run_id AND r.submission = sub.submission
                        WHERE r.pass_1 IS NOT NULL),
          sims AS (SELECT c.submission, c.domain, c.path, sv.sim_key, sv.task_id, sv.task_version
                   FROM submission_coverage c JOIN sim_verdicts sv ON sv.path = c.path),
          side AS (SELECT s.submission, s.domain, g.grader, count(*) AS n, count(*) FILTER (WHERE g.success) AS k,
                          count(DISTINCT s.task_id) AS tasks
                   FROM sims s JOIN graded_long g ON g.sim_key = s.sim_key GROUP BY ALL),
          per_task AS (SELECT submission, domain, task_id, count(*) AS trials FROM sims GROUP BY ALL),
          shape AS (SELECT s.submission, s.domain, count(DISTINCT s.path) AS files, min(p.trials) AS min_trials,
                           max(p.trials) AS max_trials, string_agg(DISTINCT s.task_version, ', ') AS task_versions
                    FROM sims s JOIN per_task p USING (submission, domain, task_id) GROUP BY ALL),
          excl AS (SELECT submission, domain,
                          string_agg(DISTINCT exclusion_reason, '; ') FILTER (WHERE excluded) AS exclusion_reasons,
                          bool_and(excluded) AS only_excluded
                   FROM submission_coverage GROUP BY ALL),
          -- The tasks of a domain's task set the whole corpus holds (as rankings count coverage).
          universe AS (SELECT domain, split_part(task_version, ' ', 1) AS version, count(DISTINCT task_id) AS tasks
                       FROM sim_verdicts GROUP BY ALL),
          known AS (SELECT s.submission, s.domain, max(u.tasks) AS set_tasks
                    FROM sims s JOIN universe u ON u.domain = s.domain AND u.version = split_part(s.task_version, ' ', 1)
                    GROUP BY ALL),
          measured AS (
            SELECT p.submission, p.model_name, p.domain, p.pass_1 AS published_pass_1,
                   b.grader AS baseline, b.k / b.n AS baseline_pass_1, wilson_lo(b.k, b.n) AS baseline_lo,
                   wilson_hi(b.k, b.n) AS baseline_hi, b.k / b.n - p.pass_1 AS baseline_difference,
                   c.grader AS candidate, c.k / c.n AS candidate_pass_1, wilson_lo(c.k, c.n) AS candidate_lo,
                   wilson_hi(c.k, c.n) AS candidate_hi, c.k / c.n - p.pass_1 AS candidate_difference,
                   b.n AS simulations, b.tasks, kn.set_tasks, sh.min_trials, sh.max_trials, sh.files, sh.task_versions,
                   p.infrastructure_errors,
                   p.pass_1 BETWEEN wilson_lo(b.k, b.n) AND wilson_hi(b.k, b.n) AS within,
                   coalesce(x.only_excluded, false) AS only_excluded, x.exclusion_reasons
            FROM published p CROSS JOIN headline h
            JOIN side b ON b.submission = p.submission AND b.domain = p.domain AND b.grader = h.baseline
            JOIN side c ON c.submission = p.submission AND c.domain = p.domain AND c.grader = h.candidate
            JOIN shape sh ON sh.submission = p.submission AND sh.domain = p.domain
            LEFT JOIN excl x ON x.submission = p.submission AND x.domain = p.domain
            LEFT JOIN known kn ON kn.submission = p.submission AND kn.domain = p.domain)
     SELECT m.* EXCLUDE (within, only_excluded, exclusion_reasons),
            CASE WHEN NOT m.only_excluded THEN m.within END AS reproduced,
            CASE WHEN m.within OR m.only_excluded THEN NULL ELSE
              concat_ws('; ',
                CASE WHEN m.tasks < m.set_tasks THEN 'missing tasks: ' || m.tasks || ' of the ' || m.set_tasks || ' the corpus holds' END,
                CASE WHEN m.files > 1 THEN m.files || ' files for this domain: which runs the number pools is not said' END,
                CASE WHEN m.min_trials <> m.max_trials THEN 'uneven trials per task (' || m.min_trials || ' to ' || m.max_trials || ')' END,
                CASE WHEN m.task_versions LIKE '%assumed%' OR m.task_versions NOT LIKE 'head%' THEN 'task version ' || m.task_versions END,
                CASE WHEN m.exclusion_reasons IS NOT NULL THEN 'excluded: ' || m.exclusion_reasons END,
                'the files hold ' || m.tasks || ' tasks, ' || m.simulations || ' simulations')
            END AS reason,
            CASE WHEN m.only_excluded THEN 'not judged (excluded: ' || m.exclusion_reasons || ')'
                 WHEN m.within THEN 'yes' ELSE 'no' END AS verdict
     FROM measured m
     UNION ALL BY NAME
     -- Published domains of submissions with graded trajectories elsewhere that have none here.
     SELECT p.submission, p.model_name, p.domain, p.pass_1 AS published_pass_1, h.baseline, h.candidate,
            0::BIGINT AS simulations, 0::BIGINT AS tasks, 0::BIGINT AS files, p.infrastructure_errors,
            CASE WHEN EXISTS (SELECT 1 FROM submission_coverage c WHERE c.submission = p.submission AND c.domain = p.domain)
                 THEN 'no graded simulations for this domain' ELSE 'no trajectories for this domain' END AS verdict
     FROM published p CROSS JOIN headline h
     WHERE p.submission IN (SELECT submission FROM submission_coverage)
       AND NOT EXISTS (SELECT 1 FROM measured m WHERE m.submission = p.submission AND m.domain = p.domain)`,
  ],
  [
    // Submissions the corpus holds no graded trajectories of, with their published numbers.
    "submissions_without_trajectories",
    `SELECT sub.submission, sub.model_name, sub.submitting_organization, sub.submission_date,
            string_agg(r.domain || ' ' || round(r.pass_1 * 100, 1) || '%', ', ' ORDER BY r.domain) AS published_pass_1,
            sub.error
     FROM submissions sub JOIN current_run cr USING (run_id)
     LEFT JOIN submission_results r ON r.run_id = sub.run_id AND r.submission = sub.submission AND r.pass_1 IS NOT NULL
     WHERE sub.submission NOT IN (SELECT submission FROM submission_coverage)
     GROUP BY ALL`,
  ],
  [
    "pass_hat_k",
    // Trials of one task pool only within one run configuration (`run_config`), never across files
    // that differ in user model or leave it unknown.
    `WITH per_task AS (SELECT domain, task_version, model, run_config, grader, task_id, count(*) AS n,
                              count(*) FILTER (WHERE success) AS c
                       FROM graded_long WHERE NOT excluded GROUP BY ALL),
          max_k AS (SELECT domain, task_version, model, run_config, grader, min(n) AS k_max FROM per_task GROUP BY ALL)
     SELECT p.domain, p.task_version, p.model, p.run_config, p.grader, k.k, avg(pass_hat(p.c, p.n, k.k)) AS pass_hat_k,
            count(*) AS tasks
     FROM per_task p JOIN max_k m USING (domain, task_version, model, run_config, grader), range(1, m.k_max + 1) k(k)
     GROUP BY ALL`,
  ],
  [
    // Ranking groups: same domain and task set; entities must cover enough of the group's tasks.
    "ranking_entities",
    `WITH tasks AS (SELECT DISTINCT domain, task_version, model, task_id FROM graded_long WHERE NOT excluded),
          universe AS (SELECT domain, task_version, count(DISTINCT task_id) AS group_tasks FROM tasks GROUP BY ALL),
          cover AS (SELECT domain, task_version, model, count(*) AS tasks FROM tasks GROUP BY ALL)
     SELECT c.*, u.group_tasks, c.tasks / u.group_tasks AS coverage,
            c.tasks / u.group_tasks >= (SELECT min_task_coverage FROM current_run) AS eligible
     FROM cover c JOIN universe u USING (domain, task_version)`,
  ],
  [
    "ranking_tasks",
    `WITH eligible AS (SELECT domain, task_version, model FROM ranking_entities WHERE eligible),
          counts AS (SELECT domain, task_version, count(*) AS models FROM eligible GROUP BY ALL)
     SELECT t.domain, t.task_version, t.task_id
     FROM (SELECT DISTINCT domain, task_version, model, task_id FROM graded_long WHERE NOT excluded) t
     JOIN eligible USING (domain, task_version, model) JOIN counts USING (domain, task_version)
     GROUP BY t.domain, t.task_version, t.task_id, counts.models HAVING count(*) = counts.models`,
  ],
  [
    "ranking_task_scores",
    `SELECT g.domain, g.task_version, g.model, g.grader, g.task_id, avg(g.success::INTEGER) AS score, count(*) AS n,
            count(*) FILTER (WHERE g.success) AS c
     FROM graded_long g JOIN ranking_tasks USING (domain, task_version, task_id)
     JOIN ranking_entities e USING (domain, task_version, model)
     WHERE e.eligible AND NOT g.excluded AND g.grader IN (SELECT grader FROM compared_graders) GROUP BY ALL`,
  ],
  [
    "ranking",
    `SELECT domain, task_version, model, grader, pass1, tasks, successes, trials,
            wilson_lo(successes, trials) AS pass1_lo, wilson_hi(successes, trials) AS pass1_hi,
            rank() OVER (PARTITION BY domain, task_version, grader ORDER BY pass1 DESC) AS rank
     FROM (SELECT domain, task_version, model, grader, avg(score) AS pass1, count(*) AS tasks,
                  sum(c) AS successes, sum(n) AS trials
           FROM ranking_task_scores GROUP BY ALL)`,
  ],
  [
    // Task-level paired bootstrap: replicate b draws |tasks| task ids with replacement (a seeded hash),
    // keeping all of a model's trials of a task together and the same draws for both graders. Ranking
    // groups (domain, task version) and tasks get integer keys here: the bootstrap joins and groups
    // hundreds of thousands of rows, which integer keys make about three times faster than the texts.
    "bootstrap_tasks",
    `SELECT domain, task_version, task_id,
            (row_number() OVER (PARTITION BY domain, task_version ORDER BY task_id) - 1)::UBIGINT AS idx,
            count(*) OVER (PARTITION BY domain, task_version) AS n,
            dense_rank() OVER (ORDER BY domain, task_version)::INTEGER AS g
     FROM ranking_tasks`,
  ],
  [
    // How often replicate b drew the task at index idx of group g.
    "bootstrap_weights",
    `WITH sizes AS (SELECT DISTINCT domain, task_version, g, n FROM bootstrap_tasks)
     SELECT g, b, idx, count(*) AS weight
     FROM (SELECT s.g, b.b, hash((SELECT seed FROM current_run), s.domain, s.task_version, b.b, j.j) % s.n::UBIGINT AS idx
           FROM sizes s, range(1, (SELECT bootstrap_samples FROM current_run) + 1) b(b), range(0, s.n) j(j))
     GROUP BY ALL`,
  ],
  [
    "bootstrap_draws",
    `SELECT t.domain, t.task_version, w.b, t.task_id, w.weight
     FROM bootstrap_weights w JOIN bootstrap_tasks t USING (g, idx)`,
  ],
  [
    "bootstrap_scores",
    `WITH groups AS (SELECT DISTINCT g, domain, task_version FROM bootstrap_tasks),
          scores AS (SELECT t.g, t.idx, dense_rank() OVER (ORDER BY r.model, r.grader)::INTEGER AS mg,
                            r.model, r.grader, r.score
                     FROM ranking_task_scores r JOIN bootstrap_tasks t USING (domain, task_version, task_id)),
          names AS (SELECT DISTINCT mg, model, grader FROM scores),
          sums AS (SELECT w.g, w.b, s.mg, sum(s.score * w.weight) / sum(w.weight) AS pass1
                   FROM bootstrap_weights w JOIN scores s USING (g, idx) GROUP BY ALL)
     SELECT x.domain, x.task_version, s.b, n.model, n.grader, s.pass1
     FROM sums s JOIN groups x USING (g) JOIN names n USING (mg)`,
  ],
  [
    "bootstrap_ranks",
    `SELECT *, rank() OVER (PARTITION BY domain, task_version, b, grader ORDER BY pass1 DESC) AS rank FROM bootstrap_scores`,
  ],
  [
    "rank_intervals",
    `SELECT domain, task_version, model, grader, quantile_cont(rank, 0.025) AS rank_lo, quantile_cont(rank, 0.975) AS rank_hi,
            median(rank) AS rank_median
     FROM bootstrap_ranks GROUP BY ALL`,
  ],
  [
    "pairwise_superiority",
    `SELECT a.domain, a.task_version, a.grader, a.model AS model_a, b.model AS model_b,
            avg(CASE WHEN a.pass1 > b.pass1 THEN 1.0 WHEN a.pass1 = b.pass1 THEN 0.5 ELSE 0.0 END) AS p_a_above_b
     FROM bootstrap_scores a JOIN bootstrap_scores b
       ON a.domain = b.domain AND a.task_version = b.task_version AND a.b = b.b AND a.grader = b.grader AND a.model <> b.model
     GROUP BY ALL`,
  ],
  ...RANKING_NOISE_VIEWS,
  [
    "transfer_confusion",
    `SELECT sv.domain, sv.model,
            count(*) FILTER (WHERE s.should_transfer = 1 AND s.did_transfer) AS transferred_should,
            count(*) FILTER (WHERE s.should_transfer = 1 AND NOT s.did_transfer) AS stayed_should_transfer,
            count(*) FILTER (WHERE s.should_transfer = 0 AND s.did_transfer) AS transferred_should_not,
            count(*) FILTER (WHERE s.should_transfer = 0 AND NOT s.did_transfer) AS stayed_should_stay
     FROM sim_verdicts sv JOIN simulations s ON s.sim_key = sv.sim_key JOIN current_run r ON r.run_id = s.run_id
     WHERE s.should_transfer IS NOT NULL
     GROUP BY ALL`,
  ],
  ...PAIRED,
  [
    // Files the experiment excludes from headline numbers and rankings, each with its reason.
    "excluded_files",
    `SELECT f.path, f.exclusion_reason AS reason, f.domain, f.agent_model, f.simulations
     FROM files f JOIN current_run r USING (run_id) WHERE f.excluded`,
  ],
  [
    // What could not be graded: unreadable files and simulations, each with the reason.
    "error_list",
    `SELECT 'file' AS scope, f.path, NULL::VARCHAR AS simulation_id, NULL::VARCHAR AS task_id, f.status AS stage,
            f.error AS message
     FROM files f JOIN current_run r USING (run_id) WHERE f.status = 'error'
     UNION ALL
     SELECT 'simulation', f.path, s.simulation_id, s.task_id, e.stage, e.message
     FROM errors e JOIN current_run r USING (run_id)
     JOIN files f ON f.run_id = e.run_id AND f.file_id = e.file_id
     LEFT JOIN simulations s ON s.run_id = e.run_id AND s.sim_key = e.sim_key
     UNION ALL
     SELECT 'file', f.path, NULL, NULL, 'empty', '${NO_SIMULATIONS}'
     FROM files f JOIN current_run r USING (run_id)
     WHERE f.status = 'graded' AND f.simulations = 0 AND f.rejected = 0
       AND NOT EXISTS (SELECT 1 FROM simulations s WHERE s.run_id = f.run_id AND s.file_id = f.file_id)`,
  ],
  [
    // The same, once per file, stage and reason, with how many simulations it stopped.
    "error_causes",
    `SELECT scope, path, stage, message, count(*) FILTER (WHERE scope = 'simulation') AS simulations
     FROM error_list GROUP BY ALL`,
  ],
];

/** The views a report exports (the others are building blocks). */
export const REPORTED = [
  ...PAIRED_REPORTED,
  "pass_hat_k",
  "ranking_entities",
  "ranking",
  "rank_intervals",
  "pairwise_superiority",
  "transfer_confusion",
  "vacuous_components",
  "vacuous_passes",
  "flip_reviews",
  "review_status",
  "review_precision_by_kind",
  "review_precision_by_rule",
  "sample_review_status",
  "miss_rates",
  "excluded_files",
  "error_list",
  "error_causes",
  "published_vs_reproduced",
  "submissions_without_trajectories",
  ...NOISE_REPORTED,
] as const;

/**
 * Views that many others build on, computed once per session into TEMP tables of the same name (their
 * definition is the view `<name>_definition`), so every dependent view reads the stored rows. Only
 * views of the run's own rows: a session may load reviews after installing (`review` commands), so
 * nothing here may read them.
 */
export const MATERIALIZED: ReadonlySet<string> = new Set([
  "sim_verdicts",
  "run_verdicts",
  "pair_verdicts",
  "review_targets",
  "graded_long",
  "ranking_task_scores",
  "ranking",
  "bootstrap_scores",
]);

/** Building blocks that the report code, or several reported views, read besides the reported views. */
const READ_BY_REPORT: ReadonlySet<string> = new Set([
  "current_run",
  "run_comparisons",
  "run_causes",
  "flips",
  "run_reviews",
  "review_targets",
  "target_reviews",
  "review_counts",
]);

/**
 * The views a report freezes while it is written (see `freezeViews`), in dependency order: it reads each
 * several times (JSON, CSV, Parquet, summary, charts, pages), and every read of a view re-runs the views
 * under it.
 */
export function frozenForReport(): string[] {
  const reported: ReadonlySet<string> = new Set(REPORTED);
  return VIEWS.map(([name]) => name).filter(
    (name) => !MATERIALIZED.has(name) && (reported.has(name) || READ_BY_REPORT.has(name)),
  );
}

/**
 * Every macro and view lives in the session's temp catalog, so a report reads the store read-only (and
 * shadows any view an older version persisted in it).
 */
export function analysisStatements(): string[] {
  return [
    ...MACROS.map((sql) => sql.replace("CREATE OR REPLACE MACRO", "CREATE OR REPLACE TEMP MACRO")),
    ...VIEWS.flatMap(([name, sql]) =>
      MATERIALIZED.has(name)
        ? [
            `CREATE OR REPLACE TEMP VIEW ${name}_definition AS ${sql}`,
            `CREATE OR REPLACE TEMP TABLE ${name} AS SELECT * FROM ${name}_definition`,
          ]
        : [`CREATE OR REPLACE TEMP VIEW ${name} AS ${sql}`],
    ),
  ];
}
