/**
 * How much re-running the agent moves a verdict, beside how much changing the grader does. Repeats are
 * simulations of one task under one run configuration (`files.configuration`: the agent and user
 * simulator with their models and arguments, the domain and the task set); a configuration without them
 * has no noise figures (null, never 0). Trials are resampled within tasks, with the run's bootstrap
 * seed and replicate count, the same draws for every grader, so a comparison's shift is paired.
 */

/** Said wherever a configuration has no repeated runs. */
export const NO_REPEATS = "no repeated runs: noise not measured";

const SAME_TASK = (a: string, b: string) =>
  `${a}.configuration = ${b}.configuration AND ${a}.excluded = ${b}.excluded
   AND ${a}.domain IS NOT DISTINCT FROM ${b}.domain AND ${a}.task_version IS NOT DISTINCT FROM ${b}.task_version
   AND ${a}.task_id IS NOT DISTINCT FROM ${b}.task_id`;

export const NOISE_VIEWS: [name: string, sql: string][] = [
  [
    // Each graded simulation as a trial of its task under its configuration: its place among them and how many.
    "repeat_trials",
    `SELECT sv.sim_key, sv.configuration, sv.model, sv.excluded, sv.domain, sv.task_version, sv.task_id,
            row_number() OVER (task ORDER BY sv.sim_key) - 1 AS idx, count(*) OVER task AS n
     FROM sim_verdicts sv
     WINDOW task AS (PARTITION BY sv.configuration, sv.excluded, sv.domain, sv.task_version, sv.task_id)`,
  ],
  [
    // Replicate b draws each task's trials again, with replacement, as many as it has.
    "trial_draws",
    `SELECT s.configuration, s.excluded, b.b, p.sim_key
     FROM repeat_trials s
     CROSS JOIN range(1, (SELECT bootstrap_samples FROM current_run) + 1) b(b)
     JOIN repeat_trials p ON ${SAME_TASK("p", "s")}
       -- one hash of the whole key: hash(a, b, …) combines its arguments' hashes so that the low bits of
       -- draws for different tasks move together, and a draw of 1 of 2 trials is then no draw at all
       AND p.idx = hash(concat_ws(chr(0), (SELECT seed FROM current_run), b.b, s.configuration, s.domain,
                                  s.task_version, s.task_id, s.idx)) % s.n::UBIGINT`,
  ],
  [
    "trial_resample_rates",
    `SELECT d.configuration, d.excluded, rv.grader, d.b, avg(rv.pass::INTEGER) AS pass_rate
     FROM trial_draws d JOIN run_verdicts rv USING (sim_key)
     WHERE rv.grader IN (SELECT grader FROM compared_graders) AND rv.pass IS NOT NULL
     GROUP BY ALL`,
  ],
  [
    // Per configuration and grader: how often two runs of one task disagree, and the pass rate's spread
    // under re-running (resampled trials). Excluded files keep their rows, marked.
    "noise_by_configuration",
    `WITH v AS (SELECT t.configuration, t.model, t.excluded, t.domain, t.task_version, t.task_id, rv.grader, rv.pass
                FROM repeat_trials t JOIN run_verdicts rv USING (sim_key)
                WHERE rv.grader IN (SELECT grader FROM compared_graders) AND rv.pass IS NOT NULL),
          per_task AS (SELECT configuration, excluded, grader, domain, task_version, task_id, any_value(model) AS model,
                              count(*) AS n, sum(pass::INTEGER) AS k
                       FROM v GROUP BY configuration, excluded, grader, domain, task_version, task_id),
          agg AS (SELECT configuration, excluded, grader, any_value(model) AS model, count(*) AS tasks,
                         count(*) FILTER (WHERE n > 1) AS tasks_repeated, sum(n * (n - 1) // 2)::BIGINT AS pairs,
                         sum(k * (n - k)) AS differing,
                         count(*) FILTER (WHERE n > 1 AND k > 0 AND k < n) AS unstable,
                         sum(k) / sum(n) AS pass_rate
                  FROM per_task GROUP BY configuration, excluded, grader),
          spread AS (SELECT configuration, excluded, grader, quantile_cont(pass_rate, 0.025) AS lo,
                            quantile_cont(pass_rate, 0.975) AS hi
                     FROM trial_resample_rates GROUP BY configuration, excluded, grader)
     SELECT a.configuration, a.model, a.grader, a.excluded, a.tasks, a.tasks_repeated, a.pairs,
            CASE WHEN a.pairs = 0 THEN NULL ELSE a.differing / a.pairs END AS trial_disagreement,
            CASE WHEN a.pairs = 0 THEN NULL ELSE a.unstable END AS unstable_tasks,
            a.pass_rate,
            CASE WHEN a.pairs = 0 THEN NULL ELSE s.lo END AS pass_rate_lo,
            CASE WHEN a.pairs = 0 THEN NULL ELSE s.hi END AS pass_rate_hi
     FROM agg a LEFT JOIN spread s USING (configuration, excluded, grader)`,
  ],
  [
    // Per comparison and configuration: the grader's shift of the pass rate (paired, on the same
    // resampled trials) beside the spread of one run's pass rate under re-running (the baseline's).
    "grader_effect_vs_noise",
    `WITH pv AS (SELECT p.comparison_seq, p.comparison, p.baseline, p.candidate, t.configuration, t.model, t.excluded,
                        p.sim_key, p.baseline_pass, p.candidate_pass
                 FROM pair_verdicts p JOIN repeat_trials t USING (sim_key)
                 WHERE p.baseline_pass IS NOT NULL AND p.candidate_pass IS NOT NULL),
          point AS (SELECT comparison_seq, comparison, baseline, candidate, configuration, excluded, any_value(model) AS model,
                           count(*) AS simulations,
                           count(*) FILTER (WHERE baseline_pass AND NOT candidate_pass) AS pass_to_fail,
                           count(*) FILTER (WHERE NOT baseline_pass AND candidate_pass) AS fail_to_pass,
                           avg(baseline_pass::INTEGER) AS baseline_pass_rate,
                           avg(candidate_pass::INTEGER) AS candidate_pass_rate
                    FROM pv GROUP BY comparison_seq, comparison, baseline, candidate, configuration, excluded),
          resampled AS (SELECT pv.comparison, pv.configuration, pv.excluded, d.b,
                               avg(pv.candidate_pass::INTEGER) - avg(pv.baseline_pass::INTEGER) AS shift,
                               avg(pv.baseline_pass::INTEGER) AS baseline_rate
                        FROM trial_draws d JOIN pv ON pv.sim_key = d.sim_key AND pv.configuration = d.configuration
                                                  AND pv.excluded = d.excluded
                        GROUP BY pv.comparison, pv.configuration, pv.excluded, d.b),
          spread AS (SELECT r.comparison, r.configuration, r.excluded,
                            quantile_cont(r.shift, 0.025) AS shift_lo, quantile_cont(r.shift, 0.975) AS shift_hi,
                            quantile_cont(r.baseline_rate, 0.025) AS rate_lo, quantile_cont(r.baseline_rate, 0.975) AS rate_hi
                     FROM resampled r GROUP BY r.comparison, r.configuration, r.excluded),
          repeated AS (SELECT configuration, excluded, bool_or(n > 1) AS repeated FROM repeat_trials GROUP BY ALL)
     SELECT p.comparison_seq, p.comparison, p.baseline, p.candidate, p.configuration, p.model, p.excluded,
            p.simulations, p.pass_to_fail + p.fail_to_pass AS flips, p.pass_to_fail, p.fail_to_pass,
            p.baseline_pass_rate, p.candidate_pass_rate, p.candidate_pass_rate - p.baseline_pass_rate AS shift,
            CASE WHEN r.repeated THEN s.shift_lo END AS shift_lo,
            CASE WHEN r.repeated THEN s.shift_hi END AS shift_hi,
            CASE WHEN r.repeated THEN s.rate_lo - p.baseline_pass_rate END AS noise_lo,
            CASE WHEN r.repeated THEN s.rate_hi - p.baseline_pass_rate END AS noise_hi,
            CASE WHEN NOT r.repeated OR s.rate_lo IS NULL THEN '${NO_REPEATS}'
                 WHEN p.candidate_pass_rate - p.baseline_pass_rate < s.rate_lo - p.baseline_pass_rate
                   OR p.candidate_pass_rate - p.baseline_pass_rate > s.rate_hi - p.baseline_pass_rate
                   THEN 'outside the noise of re-running the agent'
                 ELSE 'inside the noise of re-running the agent' END AS verdict
     FROM point p JOIN repeated r USING (configuration, excluded)
     LEFT JOIN spread s USING (comparison, configuration, excluded)`,
  ],
];

/** Noise views that read the ranking, installed after it. */
export const RANKING_NOISE_VIEWS: [name: string, sql: string][] = [
  [
    // Per comparison, each pair of ranking entries of one domain and task set: whether the change of grader
    // reverses their order, beside the share of re-runs that reverse it under the baseline. A re-run draws
    // each configuration's trials again within tasks (trial_draws); an entry's pass^1 is then computed as
    // the ranking computes it, over the ranking's tasks.
    "ranking_swaps_vs_noise",
    `WITH baselines AS (SELECT DISTINCT baseline AS grader FROM run_comparisons),
          entries AS (SELECT DISTINCT domain, task_version, model FROM ranking),
          repeated AS (SELECT t.domain, t.task_version, t.model, bool_or(t.n > 1) AS repeated
                       FROM repeat_trials t JOIN ranking_tasks USING (domain, task_version, task_id)
                       JOIN entries USING (domain, task_version, model)
                       WHERE NOT t.excluded GROUP BY ALL),
          rerun_tasks AS (SELECT g.domain, g.task_version, g.model, g.grader, d.b, g.task_id,
                                 avg(g.success::INTEGER) AS score
                          FROM trial_draws d JOIN graded_long g USING (sim_key)
                          JOIN ranking_tasks USING (domain, task_version, task_id)
                          JOIN entries USING (domain, task_version, model)
                          WHERE NOT d.excluded AND g.grader IN (SELECT grader FROM baselines)
                          GROUP BY ALL),
          rerun AS (SELECT domain, task_version, model, grader, b, avg(score) AS pass1 FROM rerun_tasks GROUP BY ALL),
          pairs AS (SELECT k.seq AS comparison_seq, k.comparison, k.baseline, k.candidate, ba.domain, ba.task_version,
                           ba.model AS model_a, bb.model AS model_b,
                           ba.pass1 AS baseline_a, bb.pass1 AS baseline_b, ca.pass1 AS candidate_a, cb.pass1 AS candidate_b
                    FROM run_comparisons k
                    JOIN ranking ba ON ba.grader = k.baseline
                    JOIN ranking bb ON bb.grader = k.baseline AND bb.domain = ba.domain
                                   AND bb.task_version IS NOT DISTINCT FROM ba.task_version AND ba.model < bb.model
                    JOIN ranking ca ON ca.grader = k.candidate AND ca.domain = ba.domain
                                   AND ca.task_version IS NOT DISTINCT FROM ba.task_version AND ca.model = ba.model
                    JOIN ranking cb ON cb.grader = k.candidate AND cb.domain = ba.domain
                                   AND cb.task_version IS NOT DISTINCT FROM ba.task_version AND cb.model = bb.model),
          shares AS (SELECT p.comparison, p.domain, p.task_version, p.model_a, p.model_b,
                            avg((sign(ra.pass1 - rb.pass1) * sign(p.baseline_a - p.baseline_b) < 0)::INTEGER) AS share
                     FROM pairs p
                     JOIN rerun ra ON ra.domain = p.domain AND ra.task_version IS NOT DISTINCT FROM p.task_version
                                  AND ra.model = p.model_a AND ra.grader = p.baseline
                     JOIN rerun rb ON rb.domain = p.domain AND rb.task_version IS NOT DISTINCT FROM p.task_version
                                  AND rb.model = p.model_b AND rb.grader = p.baseline AND rb.b = ra.b
                     GROUP BY ALL)
     SELECT p.comparison_seq, p.comparison, p.domain, p.task_version, p.model_a, p.model_b,
            p.baseline_a, p.baseline_b, p.candidate_a, p.candidate_b,
            sign(p.candidate_a - p.candidate_b) * sign(p.baseline_a - p.baseline_b) < 0 AS grader_swaps,
            CASE WHEN (ra.repeated OR rb.repeated) AND p.baseline_a <> p.baseline_b THEN s.share END AS rerun_swap_share,
            coalesce(ra.repeated OR rb.repeated, false) AS repeated
     FROM pairs p
     LEFT JOIN repeated ra ON ra.domain = p.domain AND ra.task_version IS NOT DISTINCT FROM p.task_version
                          AND ra.model = p.model_a
     LEFT JOIN repeated rb ON rb.domain = p.domain AND rb.task_version IS NOT DISTINCT FROM p.task_version
                          AND rb.model = p.model_b
     LEFT JOIN shares s ON s.comparison = p.comparison AND s.domain = p.domain
                       AND s.task_version IS NOT DISTINCT FROM p.task_version
                       AND s.model_a = p.model_a AND s.model_b = p.model_b`,
  ],
];

/** The noise views a report exports. */
export const NOISE_REPORTED = [
  "noise_by_configuration",
  "grader_effect_vs_noise",
  "ranking_swaps_vs_noise",
] as const;
