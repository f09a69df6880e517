/**
 * The paired analyses, as DuckDB macros and views over the verdict store. Every number in a report
 * comes from these; TypeScript only installs them and reads them out.
 */

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
    "sim_verdicts",
    `SELECT s.sim_key, s.file_id, f.path, s.domain, s.task_version, s.task_id, s.trial, s.termination_reason,
            s.recorded_reward, s.simulation_id,
            coalesce(f.agent_model, 'unknown') || ' [' || coalesce(f.agent_implementation, '?') || ']' AS model,
            f.user_model,
            -- pass^k pools trials only within one run configuration (agent model and implementation, user
            -- model, task set); a file that leaves any of them unknown is a configuration of its own.
            CASE WHEN f.agent_model IS NULL OR f.agent_implementation IS NULL OR f.user_model IS NULL
                      OR f.task_version IS NULL THEN 'file ' || f.path
                 ELSE 'user ' || f.user_model END AS run_config,
            f.excluded, f.exclusion_reason,
            t.pass AS tau3_pass, t.reward AS tau3_reward, t.db_match,
            tc.pass AS tau3_corrected_pass, st.pass AS structured_pass
     FROM simulations s
     JOIN current_run r USING (run_id)
     JOIN files f ON f.run_id = s.run_id AND f.file_id = s.file_id
     LEFT JOIN verdicts t ON t.run_id = s.run_id AND t.sim_key = s.sim_key AND t.grader = 'tau3'
     LEFT JOIN verdicts tc ON tc.run_id = s.run_id AND tc.sim_key = s.sim_key AND tc.grader = 'tau3_corrected'
     LEFT JOIN verdicts st ON st.run_id = s.run_id AND st.sim_key = s.sim_key AND st.grader = 'structured'
     WHERE s.graded`,
  ],
  // Every headline number leaves out the files the experiment excludes (each with its reason).
  ["headline_verdicts", `SELECT * FROM sim_verdicts WHERE NOT excluded`],
  ["run_causes", `SELECT c.* FROM causes c JOIN current_run r USING (run_id)`],
  ["run_evidence", `SELECT e.* FROM evidence e JOIN current_run r USING (run_id)`],
  [
    "flips",
    `SELECT *, CASE WHEN tau3_pass THEN 'pass_to_fail' ELSE 'fail_to_pass' END AS direction
     FROM sim_verdicts WHERE tau3_pass IS NOT NULL AND structured_pass IS NOT NULL AND tau3_pass <> structured_pass`,
  ],
  [
    // Flips under each gate of the structured grader: the default (licensed) and the strict one.
    "gate_flips",
    `SELECT sv.*, g.grader, g.pass AS gate_pass,
            CASE WHEN sv.tau3_pass THEN 'pass_to_fail' ELSE 'fail_to_pass' END AS direction
     FROM sim_verdicts sv
     JOIN (SELECT v.* FROM verdicts v JOIN current_run r USING (run_id)) g ON g.sim_key = sv.sim_key
     WHERE g.grader IN ('structured', 'structured_strict') AND sv.tau3_pass IS NOT NULL AND g.pass IS NOT NULL
       AND sv.tau3_pass <> g.pass`,
  ],
  [
    // The structured grader's own gating causes of each flip (τ³'s failure, which it includes, is not one).
    "flip_causes",
    `SELECT f.sim_key, f.domain, f.model, f.task_id, f.direction, c.seq, c.kind AS cause_kind, c.reference,
            c.message, c.message_index, c.turn_idx, c.tool_call_id, c.tool_name, c.actor, f.excluded
     FROM flips f JOIN run_causes c ON c.sim_key = f.sim_key AND c.grader = 'structured'
     WHERE c.gates AND c.kind <> 'tau3'`,
  ],
  ...REVIEW_VIEWS,
  [
    "flip_summary",
    `SELECT 'overall' AS scope, NULL AS domain, count(*) AS simulations,
            count(*) FILTER (WHERE tau3_pass AND NOT structured_pass) AS pass_to_fail,
            count(*) FILTER (WHERE NOT tau3_pass AND structured_pass) AS fail_to_pass,
            avg(tau3_pass::INTEGER) AS tau3_pass_rate, avg(structured_pass::INTEGER) AS structured_pass_rate
     FROM headline_verdicts WHERE tau3_pass IS NOT NULL AND structured_pass IS NOT NULL
     UNION ALL
     SELECT 'domain', domain, count(*),
            count(*) FILTER (WHERE tau3_pass AND NOT structured_pass), count(*) FILTER (WHERE NOT tau3_pass AND structured_pass),
            avg(tau3_pass::INTEGER), avg(structured_pass::INTEGER)
     FROM headline_verdicts WHERE tau3_pass IS NOT NULL AND structured_pass IS NOT NULL GROUP BY domain`,
  ],
  [
    "flip_rates_by_model",
    // Raw flip rates, and beside them the rate of flips a reviewer confirmed (see flip_reviews).
    `SELECT domain, model, count(*) AS n,
            count(*) FILTER (WHERE tau3_pass AND NOT structured_pass) AS pass_to_fail,
            count(*) FILTER (WHERE NOT tau3_pass AND structured_pass) AS fail_to_pass,
            count(*) FILTER (WHERE tau3_pass <> structured_pass) / count(*) AS flip_rate,
            wilson_lo(count(*) FILTER (WHERE tau3_pass <> structured_pass), count(*)) AS flip_rate_lo,
            wilson_hi(count(*) FILTER (WHERE tau3_pass <> structured_pass), count(*)) AS flip_rate_hi,
            count(*) FILTER (WHERE tau3_pass AND NOT structured_pass) / count(*) AS pass_to_fail_rate,
            wilson_lo(count(*) FILTER (WHERE tau3_pass AND NOT structured_pass), count(*)) AS pass_to_fail_lo,
            wilson_hi(count(*) FILTER (WHERE tau3_pass AND NOT structured_pass), count(*)) AS pass_to_fail_hi,
            count(*) FILTER (WHERE NOT tau3_pass AND structured_pass) / count(*) AS fail_to_pass_rate,
            wilson_lo(count(*) FILTER (WHERE NOT tau3_pass AND structured_pass), count(*)) AS fail_to_pass_lo,
            wilson_hi(count(*) FILTER (WHERE NOT tau3_pass AND structured_pass), count(*)) AS fail_to_pass_hi,
            count(*) FILTER (WHERE review = 'confirmed') AS confirmed_flips,
            count(*) FILTER (WHERE review = 'unreviewed') AS unreviewed_flips,
            count(*) FILTER (WHERE review = 'confirmed') / count(*) AS confirmed_flip_rate,
            wilson_lo(count(*) FILTER (WHERE review = 'confirmed'), count(*)) AS confirmed_flip_rate_lo,
            wilson_hi(count(*) FILTER (WHERE review = 'confirmed'), count(*)) AS confirmed_flip_rate_hi
     FROM headline_verdicts
     LEFT JOIN (SELECT sim_key, review FROM flip_reviews WHERE grader = 'structured') USING (sim_key)
     WHERE tau3_pass IS NOT NULL AND structured_pass IS NOT NULL
     GROUP BY domain, model`,
  ],
  [
    "flip_rates_by_task",
    `SELECT domain, task_version, task_id, count(*) AS n,
            count(*) FILTER (WHERE tau3_pass AND NOT structured_pass) AS pass_to_fail,
            count(*) FILTER (WHERE NOT tau3_pass AND structured_pass) AS fail_to_pass
     FROM headline_verdicts WHERE tau3_pass IS NOT NULL AND structured_pass IS NOT NULL
     GROUP BY domain, task_version, task_id`,
  ],
  [
    "flips_by_cause",
    // Each cause's flips under each gate, and how many a reviewer confirmed, rejected, left unclear or not seen.
    `SELECT grader, domain, kind AS cause_kind, reference, direction, count(DISTINCT sim_key) AS flips,
            count(DISTINCT sim_key) FILTER (WHERE verdict = 'confirmed') AS confirmed,
            count(DISTINCT sim_key) FILTER (WHERE verdict = 'false_positive') AS false_positive,
            count(DISTINCT sim_key) FILTER (WHERE verdict = 'unclear') AS unclear,
            count(DISTINCT sim_key) FILTER (WHERE verdict IS NULL) AS unreviewed
     FROM target_reviews WHERE NOT excluded GROUP BY ALL`,
  ],
  [
    // Cause kinds side by side under both gates, among simulations τ³ passes: how many simulations
    // each kind fails (flips), and how many have it at all, gating or only reported (user_state under
    // the default gate is informational).
    "cause_kinds_by_gate",
    `SELECT sv.domain, c.grader, c.kind AS cause_kind, bool_or(c.gates) AS gates,
            count(DISTINCT c.sim_key) FILTER (WHERE c.gates AND f.sim_key IS NOT NULL) AS flips,
            count(DISTINCT c.sim_key) AS simulations
     FROM run_causes c JOIN headline_verdicts sv USING (sim_key)
     LEFT JOIN gate_flips f ON f.sim_key = c.sim_key AND f.grader = c.grader
     WHERE c.grader IN ('structured', 'structured_strict') AND c.kind <> 'tau3' AND sv.tau3_pass
     GROUP BY ALL`,
  ],
  [
    "mcnemar_by_model",
    `SELECT domain, model, n, b, c,
            CASE WHEN b + c = 0 THEN 'none' WHEN b + c < 25 THEN 'exact_binomial' ELSE 'chi2_continuity' END AS method,
            CASE WHEN b + c = 0 THEN NULL WHEN b + c < 25 THEN NULL ELSE mcnemar_chi2(b, c) END AS statistic,
            CASE WHEN b + c = 0 THEN 1.0 WHEN b + c < 25 THEN mcnemar_exact_p(b, c)
                 ELSE erfc_as(sqrt(mcnemar_chi2(b, c) / 2)) END AS p_value
     FROM (SELECT domain, model, count(*) AS n,
                  count(*) FILTER (WHERE tau3_pass AND NOT structured_pass)::BIGINT AS b,
                  count(*) FILTER (WHERE NOT tau3_pass AND structured_pass)::BIGINT AS c
           FROM headline_verdicts WHERE tau3_pass IS NOT NULL AND structured_pass IS NOT NULL GROUP BY domain, model)`,
  ],
  [
    "score_delta_by_action",
    // A flip is attributed to an action when one of its causes' evidence is a call to it.
    `WITH calls AS (SELECT DISTINCT tc.sim_key, tc.name, tc.kind FROM tool_calls tc JOIN current_run r USING (run_id)),
          caused AS (SELECT DISTINCT fc.sim_key, e.tool_name AS name FROM flip_causes fc
                     JOIN run_evidence e ON e.sim_key = fc.sim_key AND e.grader = 'structured' AND e.cause_seq = fc.seq
                     WHERE e.tool_name IS NOT NULL AND e.tool_call_id IS NOT NULL)
     SELECT sv.domain, c.name AS action, any_value(c.kind) AS kind, count(*) AS simulations,
            avg(sv.tau3_pass::INTEGER) AS tau3_pass_rate, avg(sv.structured_pass::INTEGER) AS structured_pass_rate,
            avg(sv.structured_pass::INTEGER) - avg(sv.tau3_pass::INTEGER) AS score_delta,
            count(*) FILTER (WHERE sv.tau3_pass <> sv.structured_pass) AS flips_among_callers,
            count(cd.sim_key) AS flips_attributed
     FROM calls c JOIN headline_verdicts sv USING (sim_key)
     LEFT JOIN caused cd ON cd.sim_key = c.sim_key AND cd.name = c.name
     WHERE sv.tau3_pass IS NOT NULL AND sv.structured_pass IS NOT NULL
     GROUP BY sv.domain, c.name`,
  ],
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
    `SELECT sv.domain, sv.task_version, sv.model, sv.run_config, sv.excluded, sv.task_id, sv.sim_key, v.grader,
            coalesce(v.pass, false) AS success, v.pass IS NULL AS unknown
     FROM sim_verdicts sv JOIN verdicts v ON v.sim_key = sv.sim_key JOIN current_run r ON r.run_id = v.run_id
     WHERE NOT (sv.termination_reason = 'infrastructure_error' AND r.infrastructure_errors = 'drop')`,
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
     WHERE e.eligible AND NOT g.excluded AND g.grader IN ('tau3', 'structured') GROUP BY ALL`,
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
    "ranking_pairs",
    `SELECT a.domain, a.task_version, a.model AS model_a, b.model AS model_b,
            sign(a.t - b.t) AS tau3_order, sign(a.s - b.s) AS structured_order
     FROM (SELECT domain, task_version, model, max(pass1) FILTER (WHERE grader = 'tau3') AS t,
                  max(pass1) FILTER (WHERE grader = 'structured') AS s FROM ranking GROUP BY ALL) a
     JOIN (SELECT domain, task_version, model, max(pass1) FILTER (WHERE grader = 'tau3') AS t,
                  max(pass1) FILTER (WHERE grader = 'structured') AS s FROM ranking GROUP BY ALL) b
       ON a.domain = b.domain AND a.task_version = b.task_version AND a.model < b.model`,
  ],
  [
    "kendall_tau_b",
    `SELECT domain, task_version, count(*) AS pairs,
            count(*) FILTER (WHERE tau3_order * structured_order > 0) AS concordant,
            count(*) FILTER (WHERE tau3_order * structured_order < 0) AS discordant,
            CASE WHEN (count(*) - count(*) FILTER (WHERE tau3_order = 0)) * (count(*) - count(*) FILTER (WHERE structured_order = 0)) = 0
                 THEN NULL
                 ELSE (count(*) FILTER (WHERE tau3_order * structured_order > 0) - count(*) FILTER (WHERE tau3_order * structured_order < 0))
                      / sqrt((count(*) - count(*) FILTER (WHERE tau3_order = 0)) * (count(*) - count(*) FILTER (WHERE structured_order = 0)))
            END AS tau_b
     FROM ranking_pairs GROUP BY ALL`,
  ],
  ["swapped_pairs", `SELECT * FROM ranking_pairs WHERE tau3_order * structured_order < 0`],
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
  [
    "bootstrap_tau_b",
    `WITH p AS (SELECT a.domain, a.task_version, a.b, sign(a.t - b.t) AS x, sign(a.s - b.s) AS y
                FROM (SELECT domain, task_version, b, model, max(pass1) FILTER (WHERE grader = 'tau3') AS t,
                             max(pass1) FILTER (WHERE grader = 'structured') AS s FROM bootstrap_scores GROUP BY ALL) a
                JOIN (SELECT domain, task_version, b, model, max(pass1) FILTER (WHERE grader = 'tau3') AS t,
                             max(pass1) FILTER (WHERE grader = 'structured') AS s FROM bootstrap_scores GROUP BY ALL) b
                  ON a.domain = b.domain AND a.task_version = b.task_version AND a.b = b.b AND a.model < b.model),
          t AS (SELECT domain, task_version, b,
                       CASE WHEN (count(*) - count(*) FILTER (WHERE x = 0)) * (count(*) - count(*) FILTER (WHERE y = 0)) = 0 THEN NULL
                            ELSE (count(*) FILTER (WHERE x * y > 0) - count(*) FILTER (WHERE x * y < 0))
                                 / sqrt((count(*) - count(*) FILTER (WHERE x = 0)) * (count(*) - count(*) FILTER (WHERE y = 0))) END AS tau_b
                FROM p GROUP BY ALL)
     SELECT domain, task_version, quantile_cont(tau_b, 0.025) AS tau_b_lo, quantile_cont(tau_b, 0.975) AS tau_b_hi,
            count(tau_b) AS replicates
     FROM t GROUP BY ALL`,
  ],
  [
    "recorded_agreement",
    `SELECT domain, model, path, count(*) AS simulations,
            count(*) FILTER (WHERE recorded_reward IS NOT NULL) AS with_recorded_reward,
            count(*) FILTER (WHERE recorded_reward IS NOT NULL AND tau3_reward IS NOT NULL AND abs(recorded_reward - tau3_reward) < 1e-6) AS reproduced
     FROM sim_verdicts GROUP BY ALL`,
  ],
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
     LEFT JOIN simulations s ON s.run_id = e.run_id AND s.sim_key = e.sim_key`,
  ],
];

/** The views a report exports (the others are building blocks). */
export const REPORTED = [
  "flip_summary",
  "flips",
  "flip_rates_by_model",
  "flip_rates_by_task",
  "gate_flips",
  "flip_causes",
  "flips_by_cause",
  "cause_kinds_by_gate",
  "mcnemar_by_model",
  "score_delta_by_action",
  "pass_hat_k",
  "ranking_entities",
  "ranking",
  "kendall_tau_b",
  "swapped_pairs",
  "rank_intervals",
  "pairwise_superiority",
  "bootstrap_tau_b",
  "recorded_agreement",
  "transfer_confusion",
  "vacuous_components",
  "vacuous_passes",
  "flip_reviews",
  "review_status",
  "review_precision_by_kind",
  "review_precision_by_rule",
  "gate_summary",
  "excluded_files",
  "error_list",
] as const;

/**
 * Views that many others build on, computed once per session into TEMP tables of the same name (their
 * definition is the view `<name>_definition`), so every dependent view reads the stored rows. Only
 * views of the run's own rows: a session may load reviews after installing (`review` commands), so
 * nothing here may read them.
 */
export const MATERIALIZED: ReadonlySet<string> = new Set([
  "sim_verdicts",
  "gate_flips",
  "review_targets",
  "graded_long",
  "ranking_task_scores",
  "ranking",
  "bootstrap_scores",
]);

/** Building blocks that the report code, or several reported views, read besides the reported views. */
const READ_BY_REPORT: ReadonlySet<string> = new Set([
  "current_run",
  "headline_verdicts",
  "run_causes",
  "flips",
  "gate_flips",
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
