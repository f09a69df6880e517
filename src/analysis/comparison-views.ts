/**
 * The paired analyses of every comparison the run declares (table `comparisons`): each view carries
 * the comparison's name as a column, and reads the sides' verdicts by the grader ids stored with it,
 * so no grader is named here. `recorded` is the reward each file recorded, read as a verdict.
 */
import { RECORDED, RECORDED_PASS_TOLERANCE } from "../graders/comparisons.ts";

/** Confirmed / (confirmed + false positive), with its Wilson 95% interval, over flips `f`. */
const PRECISION = (f: string) => `count(*) FILTER (WHERE ${f}.review = 'confirmed')
              / nullif(count(*) FILTER (WHERE ${f}.review IN ('confirmed', 'false_positive')), 0) AS precision,
            wilson_lo(count(*) FILTER (WHERE ${f}.review = 'confirmed'),
                      count(*) FILTER (WHERE ${f}.review IN ('confirmed', 'false_positive'))) AS precision_lo,
            wilson_hi(count(*) FILTER (WHERE ${f}.review = 'confirmed'),
                      count(*) FILTER (WHERE ${f}.review IN ('confirmed', 'false_positive'))) AS precision_hi`;

/** Kendall's τ-b over rows with orders `x` and `y` (-1, 0, 1), null when either side has only ties. */
const TAU_B = (
  x: string,
  y: string,
) => `CASE WHEN (count(*) - count(*) FILTER (WHERE ${x} = 0)) * (count(*) - count(*) FILTER (WHERE ${y} = 0)) = 0
                 THEN NULL
                 ELSE (count(*) FILTER (WHERE ${x} * ${y} > 0) - count(*) FILTER (WHERE ${x} * ${y} < 0))
                      / sqrt((count(*) - count(*) FILTER (WHERE ${x} = 0)) * (count(*) - count(*) FILTER (WHERE ${y} = 0)))
            END`;

/** McNemar's test on discordant pairs b (pass → fail) and c (fail → pass). */
const MCNEMAR = `CASE WHEN b + c = 0 THEN 'none' WHEN b + c < 25 THEN 'exact_binomial' ELSE 'chi2_continuity' END AS method,
            CASE WHEN b + c = 0 THEN NULL WHEN b + c < 25 THEN NULL ELSE mcnemar_chi2(b, c) END AS statistic,
            CASE WHEN b + c = 0 THEN 1.0 WHEN b + c < 25 THEN mcnemar_exact_p(b, c)
                 ELSE erfc_as(sqrt(mcnemar_chi2(b, c) / 2)) END AS p_value`;

/** Views every paired analysis and the reviews read: the comparisons, both sides' verdicts, the flips. */
export const PAIRED_BASE: readonly [name: string, sql: string][] = [
  [
    "run_comparisons",
    `SELECT c.seq, c.name AS comparison, c.baseline, c.candidate
     FROM comparisons c JOIN current_run r USING (run_id)`,
  ],
  [
    // Every verdict of the run, and the recorded reward as a verdict (a pass is a reward of 1, as tau2 counts).
    "run_verdicts",
    `SELECT v.sim_key, v.grader, v.pass, v.reward FROM verdicts v JOIN current_run r USING (run_id)
     UNION ALL
     SELECT sim_key, '${RECORDED}', CASE WHEN recorded_reward IS NULL THEN NULL ELSE abs(recorded_reward - 1) <= ${RECORDED_PASS_TOLERANCE} END,
            recorded_reward
     FROM sim_verdicts`,
  ],
  [
    // The graders a comparison names, for rankings, pass^k and the bootstrap.
    "compared_graders",
    `SELECT baseline AS grader FROM run_comparisons UNION SELECT candidate FROM run_comparisons`,
  ],
  [
    // Each comparison's two verdicts of every graded simulation.
    "pair_verdicts",
    `SELECT k.seq AS comparison_seq, k.comparison, k.baseline, k.candidate, sv.sim_key, sv.file_id, sv.path,
            sv.domain, sv.task_version, sv.task_id, sv.trial, sv.simulation_id, sv.model, sv.excluded,
            sv.exclusion_reason, b.pass AS baseline_pass, c.pass AS candidate_pass,
            b.reward AS baseline_reward, c.reward AS candidate_reward
     FROM run_comparisons k CROSS JOIN sim_verdicts sv
     LEFT JOIN run_verdicts b ON b.sim_key = sv.sim_key AND b.grader = k.baseline
     LEFT JOIN run_verdicts c ON c.sim_key = sv.sim_key AND c.grader = k.candidate`,
  ],
  [
    // Where the two sides disagree; the failing side is the one whose causes explain the flip.
    "flips",
    `SELECT *, CASE WHEN baseline_pass THEN 'pass_to_fail' ELSE 'fail_to_pass' END AS direction,
            CASE WHEN baseline_pass THEN candidate ELSE baseline END AS failing_grader
     FROM pair_verdicts WHERE baseline_pass IS NOT NULL AND candidate_pass IS NOT NULL AND baseline_pass <> candidate_pass`,
  ],
  [
    // The failing side's gating causes of each flip: what made it fail where the other side passed.
    "flip_causes",
    `SELECT f.comparison, f.sim_key, f.domain, f.model, f.task_id, f.direction, f.failing_grader AS grader,
            c.seq, c.kind AS cause_kind, c.reference, c.message, c.message_index, c.turn_idx, c.tool_call_id,
            c.tool_name, c.actor, f.excluded
     FROM flips f JOIN run_causes c ON c.sim_key = f.sim_key AND c.grader = f.failing_grader
     WHERE c.gates`,
  ],
];

/**
 * What each side of a comparison could check, per domain ('all' for the run), outside excluded files and
 * tasks: only sides whose grader records coverage (graders that read authored fixtures, facts, clauses).
 * A fixture skipped is one written for the task whose quotes the simulation's task does not hold.
 */
const COVERAGE_VIEW: [name: string, sql: string] = [
  "coverage_by_domain",
  `WITH sides AS (SELECT seq, comparison, 'baseline' AS side, baseline AS grader FROM run_comparisons
                  UNION ALL SELECT seq, comparison, 'candidate', candidate FROM run_comparisons),
        recorded AS (SELECT cv.* FROM coverage cv JOIN current_run r USING (run_id)),
        recording AS (SELECT DISTINCT grader FROM recorded),
        sims AS (SELECT sim_key, domain FROM sim_verdicts WHERE NOT excluded
                 UNION ALL SELECT sim_key, 'all' FROM sim_verdicts WHERE NOT excluded)
   SELECT s.seq AS comparison_seq, s.comparison, s.side, s.grader, m.domain,
          count(*) AS simulations,
          count(cv.sim_key) AS graded,
          count(*) FILTER (WHERE cv.fixtures_applied > 0) AS with_fixture,
          count(*) FILTER (WHERE cv.facts_applied > 0) AS with_facts,
          count(*) FILTER (WHERE cv.fixtures_applied = 0 AND cv.facts_applied = 0) AS with_none,
          count(*) FILTER (WHERE cv.fixtures_applied = 0 AND cv.skipped LIKE '[{"fixture":"%') AS fixture_skipped,
          avg(cv.clauses_applicable) AS clauses_applicable
   FROM sides s JOIN recording USING (grader) CROSS JOIN sims m
   LEFT JOIN recorded cv ON cv.sim_key = m.sim_key AND cv.grader = s.grader
   GROUP BY ALL`,
];

/** The paired analyses, per comparison (after the reviews and rankings they read). */
export const PAIRED: readonly [name: string, sql: string][] = [
  COVERAGE_VIEW,
  [
    // Per comparison and domain ('all' for the whole run), outside excluded files and tasks: the flips
    // both ways, the pass rates, how often the two rewards agree, what review made of the flips, and the
    // recall of real violations. A real violation is a simulation the baseline passes whose pass → fail
    // flip a reviewer confirmed, in any comparison from the same baseline; recall is the share the
    // candidate fails.
    "comparison_summary",
    `WITH pv AS (SELECT * FROM pair_verdicts WHERE NOT excluded
                 UNION ALL SELECT * REPLACE ('all' AS domain) FROM pair_verdicts WHERE NOT excluded),
          fr AS (SELECT * FROM flip_reviews WHERE NOT excluded
                 UNION ALL SELECT * REPLACE ('all' AS domain) FROM flip_reviews WHERE NOT excluded),
          verdicts AS (
            SELECT comparison, domain, count(*) AS simulations,
                   count(*) FILTER (WHERE baseline_pass IS NOT NULL AND candidate_pass IS NOT NULL) AS paired,
                   count(*) FILTER (WHERE baseline_pass AND NOT candidate_pass) AS pass_to_fail,
                   count(*) FILTER (WHERE NOT baseline_pass AND candidate_pass) AS fail_to_pass,
                   avg(baseline_pass::INTEGER) FILTER (WHERE candidate_pass IS NOT NULL) AS baseline_pass_rate,
                   avg(candidate_pass::INTEGER) FILTER (WHERE baseline_pass IS NOT NULL) AS candidate_pass_rate,
                   count(*) FILTER (WHERE baseline_reward IS NOT NULL) AS with_baseline_reward,
                   count(*) FILTER (WHERE baseline_reward IS NOT NULL AND candidate_reward IS NOT NULL
                                    AND abs(baseline_reward - candidate_reward) < 1e-6) AS same_reward
            FROM pv GROUP BY ALL),
          reviews AS (
            SELECT comparison, domain,
                   count(*) FILTER (WHERE review = 'confirmed') AS confirmed,
                   count(*) FILTER (WHERE review = 'false_positive') AS false_positive,
                   count(*) FILTER (WHERE review = 'unclear') AS unclear,
                   count(*) FILTER (WHERE review = 'unreviewed') AS unreviewed,
                   ${PRECISION("fr")}
            FROM fr GROUP BY ALL),
          real AS (SELECT DISTINCT k.baseline, fr.domain, fr.sim_key
                   FROM fr JOIN run_comparisons k USING (comparison)
                   WHERE fr.review = 'confirmed' AND fr.direction = 'pass_to_fail'),
          recall AS (SELECT k.comparison, r.domain, count(*) AS real_violations, count(f.sim_key) AS caught
                     FROM run_comparisons k JOIN real r ON r.baseline = k.baseline
                     LEFT JOIN fr f ON f.comparison = k.comparison AND f.sim_key = r.sim_key
                                   AND f.domain = r.domain AND f.direction = 'pass_to_fail'
                     GROUP BY ALL)
     SELECT k.seq AS comparison_seq, k.comparison, k.baseline, k.candidate, v.domain, v.simulations, v.paired,
            v.pass_to_fail, v.fail_to_pass, v.baseline_pass_rate, v.candidate_pass_rate,
            (v.pass_to_fail + v.fail_to_pass) / nullif(v.paired, 0) AS flip_rate,
            wilson_lo(v.pass_to_fail + v.fail_to_pass, v.paired) AS flip_rate_lo,
            wilson_hi(v.pass_to_fail + v.fail_to_pass, v.paired) AS flip_rate_hi,
            coalesce(r.confirmed, 0) AS confirmed, coalesce(r.false_positive, 0) AS false_positive,
            coalesce(r.unclear, 0) AS unclear, coalesce(r.unreviewed, 0) AS unreviewed,
            coalesce(r.confirmed, 0) / nullif(v.paired, 0) AS confirmed_flip_rate,
            wilson_lo(coalesce(r.confirmed, 0), v.paired) AS confirmed_flip_rate_lo,
            wilson_hi(coalesce(r.confirmed, 0), v.paired) AS confirmed_flip_rate_hi,
            r.precision, r.precision_lo, r.precision_hi,
            coalesce(rc.real_violations, 0) AS real_violations, coalesce(rc.caught, 0) AS caught,
            rc.caught / nullif(rc.real_violations, 0) AS recall,
            wilson_lo(rc.caught, rc.real_violations) AS recall_lo, wilson_hi(rc.caught, rc.real_violations) AS recall_hi,
            v.with_baseline_reward, v.same_reward
     FROM run_comparisons k JOIN verdicts v USING (comparison)
     LEFT JOIN reviews r USING (comparison, domain) LEFT JOIN recall rc USING (comparison, domain)`,
  ],
  [
    // Flip rates per comparison, domain and model (Wilson 95%), and beside them the rate of flips a
    // reviewer confirmed (see flip_reviews); outside excluded files and tasks.
    "flip_rates_by_model",
    `SELECT pv.comparison, pv.domain, pv.model, count(*) AS n,
            count(*) FILTER (WHERE baseline_pass AND NOT candidate_pass) AS pass_to_fail,
            count(*) FILTER (WHERE NOT baseline_pass AND candidate_pass) AS fail_to_pass,
            count(*) FILTER (WHERE baseline_pass <> candidate_pass) / count(*) AS flip_rate,
            wilson_lo(count(*) FILTER (WHERE baseline_pass <> candidate_pass), count(*)) AS flip_rate_lo,
            wilson_hi(count(*) FILTER (WHERE baseline_pass <> candidate_pass), count(*)) AS flip_rate_hi,
            count(*) FILTER (WHERE baseline_pass AND NOT candidate_pass) / count(*) AS pass_to_fail_rate,
            wilson_lo(count(*) FILTER (WHERE baseline_pass AND NOT candidate_pass), count(*)) AS pass_to_fail_lo,
            wilson_hi(count(*) FILTER (WHERE baseline_pass AND NOT candidate_pass), count(*)) AS pass_to_fail_hi,
            count(*) FILTER (WHERE NOT baseline_pass AND candidate_pass) / count(*) AS fail_to_pass_rate,
            wilson_lo(count(*) FILTER (WHERE NOT baseline_pass AND candidate_pass), count(*)) AS fail_to_pass_lo,
            wilson_hi(count(*) FILTER (WHERE NOT baseline_pass AND candidate_pass), count(*)) AS fail_to_pass_hi,
            count(*) FILTER (WHERE fr.review = 'confirmed') AS confirmed_flips,
            count(*) FILTER (WHERE fr.review = 'unreviewed') AS unreviewed_flips,
            count(*) FILTER (WHERE fr.review = 'confirmed') / count(*) AS confirmed_flip_rate,
            wilson_lo(count(*) FILTER (WHERE fr.review = 'confirmed'), count(*)) AS confirmed_flip_rate_lo,
            wilson_hi(count(*) FILTER (WHERE fr.review = 'confirmed'), count(*)) AS confirmed_flip_rate_hi
     FROM pair_verdicts pv
     LEFT JOIN flip_reviews fr ON fr.comparison = pv.comparison AND fr.sim_key = pv.sim_key
     WHERE NOT pv.excluded AND pv.baseline_pass IS NOT NULL AND pv.candidate_pass IS NOT NULL
     GROUP BY pv.comparison, pv.domain, pv.model`,
  ],
  [
    "mcnemar_by_model",
    `SELECT comparison, domain, model, n, b, c, ${MCNEMAR}
     FROM (SELECT comparison, domain, model, count(*) AS n,
                  count(*) FILTER (WHERE baseline_pass AND NOT candidate_pass)::BIGINT AS b,
                  count(*) FILTER (WHERE NOT baseline_pass AND candidate_pass)::BIGINT AS c
           FROM pair_verdicts WHERE NOT excluded AND baseline_pass IS NOT NULL AND candidate_pass IS NOT NULL
           GROUP BY ALL)`,
  ],
  [
    // McNemar's test per comparison over the whole run (outside excluded files and tasks).
    "mcnemar",
    `SELECT comparison, n, b, c, ${MCNEMAR}
     FROM (SELECT comparison, count(*) AS n,
                  count(*) FILTER (WHERE baseline_pass AND NOT candidate_pass)::BIGINT AS b,
                  count(*) FILTER (WHERE NOT baseline_pass AND candidate_pass)::BIGINT AS c
           FROM pair_verdicts WHERE NOT excluded AND baseline_pass IS NOT NULL AND candidate_pass IS NOT NULL
           GROUP BY ALL)`,
  ],
  [
    "flip_rates_by_task",
    `SELECT comparison, domain, task_version, task_id, count(*) AS n,
            count(*) FILTER (WHERE baseline_pass AND NOT candidate_pass) AS pass_to_fail,
            count(*) FILTER (WHERE NOT baseline_pass AND candidate_pass) AS fail_to_pass
     FROM pair_verdicts WHERE NOT excluded AND baseline_pass IS NOT NULL AND candidate_pass IS NOT NULL
     GROUP BY ALL`,
  ],
  [
    // Each failing cause's flips per comparison, and how many a reviewer confirmed, rejected, left unclear or not seen.
    "flips_by_cause",
    `SELECT comparison, grader, domain, kind AS cause_kind, reference, direction, count(DISTINCT sim_key) AS flips,
            count(DISTINCT sim_key) FILTER (WHERE verdict = 'confirmed') AS confirmed,
            count(DISTINCT sim_key) FILTER (WHERE verdict = 'false_positive') AS false_positive,
            count(DISTINCT sim_key) FILTER (WHERE verdict = 'unclear') AS unclear,
            count(DISTINCT sim_key) FILTER (WHERE verdict IS NULL) AS unreviewed
     FROM target_reviews WHERE NOT excluded GROUP BY ALL`,
  ],
  [
    // The candidate's cause kinds among simulations the baseline passes: how many simulations each kind
    // fails (flips), and how many have it at all, gating or only reported.
    "cause_kinds",
    `SELECT pv.comparison, pv.domain, c.grader, c.kind AS cause_kind, bool_or(c.gates) AS gates,
            count(DISTINCT c.sim_key) FILTER (WHERE c.gates AND f.sim_key IS NOT NULL) AS flips,
            count(DISTINCT c.sim_key) AS simulations
     FROM pair_verdicts pv JOIN run_causes c ON c.sim_key = pv.sim_key AND c.grader = pv.candidate
     LEFT JOIN flips f ON f.comparison = pv.comparison AND f.sim_key = pv.sim_key
     WHERE pv.baseline_pass AND NOT pv.excluded
     GROUP BY ALL`,
  ],
  [
    // A flip is attributed to an action when one of the failing side's causes has a call to it as evidence.
    "score_delta_by_action",
    `WITH calls AS (SELECT DISTINCT tc.sim_key, tc.name, tc.kind FROM tool_calls tc JOIN current_run r USING (run_id)),
          caused AS (SELECT DISTINCT fc.comparison, fc.sim_key, e.tool_name AS name FROM flip_causes fc
                     JOIN run_evidence e ON e.sim_key = fc.sim_key AND e.grader = fc.grader AND e.cause_seq = fc.seq
                     WHERE e.tool_name IS NOT NULL AND e.tool_call_id IS NOT NULL)
     SELECT pv.comparison, pv.domain, c.name AS action, any_value(c.kind) AS kind, count(*) AS simulations,
            avg(pv.baseline_pass::INTEGER) AS baseline_pass_rate, avg(pv.candidate_pass::INTEGER) AS candidate_pass_rate,
            avg(pv.candidate_pass::INTEGER) - avg(pv.baseline_pass::INTEGER) AS score_delta,
            count(*) FILTER (WHERE pv.baseline_pass <> pv.candidate_pass) AS flips_among_callers,
            count(cd.sim_key) AS flips_attributed
     FROM calls c JOIN pair_verdicts pv USING (sim_key)
     LEFT JOIN caused cd ON cd.comparison = pv.comparison AND cd.sim_key = c.sim_key AND cd.name = c.name
     WHERE NOT pv.excluded AND pv.baseline_pass IS NOT NULL AND pv.candidate_pass IS NOT NULL
     GROUP BY pv.comparison, pv.domain, c.name`,
  ],
  [
    // Pairs of models ordered under each side of a comparison (pass^1 of the ranking).
    "ranking_pairs",
    `WITH m AS (SELECT k.comparison, r.domain, r.task_version, r.model,
                       max(r.pass1) FILTER (WHERE r.grader = k.baseline) AS x,
                       max(r.pass1) FILTER (WHERE r.grader = k.candidate) AS y
                FROM run_comparisons k JOIN ranking r ON r.grader IN (k.baseline, k.candidate) GROUP BY ALL)
     SELECT a.comparison, a.domain, a.task_version, a.model AS model_a, b.model AS model_b,
            sign(a.x - b.x) AS baseline_order, sign(a.y - b.y) AS candidate_order
     FROM m a JOIN m b
       ON a.comparison = b.comparison AND a.domain = b.domain AND a.task_version = b.task_version AND a.model < b.model`,
  ],
  [
    "kendall_tau_b",
    `SELECT comparison, domain, task_version, count(*) AS pairs,
            count(*) FILTER (WHERE baseline_order * candidate_order > 0) AS concordant,
            count(*) FILTER (WHERE baseline_order * candidate_order < 0) AS discordant,
            ${TAU_B("baseline_order", "candidate_order")} AS tau_b
     FROM ranking_pairs GROUP BY ALL`,
  ],
  ["swapped_pairs", `SELECT * FROM ranking_pairs WHERE baseline_order * candidate_order < 0`],
  [
    // τ-b's 95% interval per comparison, over the task-level bootstrap's replicates.
    "bootstrap_tau_b",
    `WITH m AS (SELECT k.comparison, s.domain, s.task_version, s.b, s.model,
                       max(s.pass1) FILTER (WHERE s.grader = k.baseline) AS x,
                       max(s.pass1) FILTER (WHERE s.grader = k.candidate) AS y
                FROM run_comparisons k JOIN bootstrap_scores s ON s.grader IN (k.baseline, k.candidate) GROUP BY ALL),
          p AS (SELECT a.comparison, a.domain, a.task_version, a.b, sign(a.x - b.x) AS x, sign(a.y - b.y) AS y
                FROM m a JOIN m b ON a.comparison = b.comparison AND a.domain = b.domain
                                 AND a.task_version = b.task_version AND a.b = b.b AND a.model < b.model),
          t AS (SELECT comparison, domain, task_version, b, ${TAU_B("x", "y")} AS tau_b FROM p GROUP BY ALL)
     SELECT comparison, domain, task_version, quantile_cont(tau_b, 0.025) AS tau_b_lo,
            quantile_cont(tau_b, 0.975) AS tau_b_hi, count(tau_b) AS replicates
     FROM t GROUP BY ALL`,
  ],
  [
    // Per comparison and file: how many recorded (baseline) rewards the candidate reproduces.
    "reward_agreement",
    `SELECT comparison, domain, model, path, count(*) AS simulations,
            count(*) FILTER (WHERE baseline_reward IS NOT NULL) AS with_baseline_reward,
            count(*) FILTER (WHERE baseline_reward IS NOT NULL AND candidate_reward IS NOT NULL
                             AND abs(baseline_reward - candidate_reward) < 1e-6) AS same_reward
     FROM pair_verdicts GROUP BY ALL`,
  ],
  [
    // Tasks the experiment excludes from headline numbers and rankings, each with its reason.
    "excluded_tasks",
    `SELECT te.domain, te.task_version, te.task_id, te.reason,
            (SELECT count(*) FROM sim_verdicts sv WHERE sv.domain = te.domain AND sv.task_id = te.task_id
               AND (te.task_version IS NULL OR sv.task_version = te.task_version)) AS simulations
     FROM task_exclusions te JOIN current_run r USING (run_id)`,
  ],
];

/** The paired views a report exports. */
export const PAIRED_REPORTED = [
  "run_comparisons",
  "flips",
  "flip_causes",
  "comparison_summary",
  "flip_rates_by_model",
  "mcnemar_by_model",
  "mcnemar",
  "flip_rates_by_task",
  "flips_by_cause",
  "cause_kinds",
  "score_delta_by_action",
  "kendall_tau_b",
  "swapped_pairs",
  "bootstrap_tau_b",
  "reward_agreement",
  "excluded_tasks",
  "coverage_by_domain",
] as const;
