/**
 * The reviews as views over the selected run. A review (table `reviews`, loaded from the experiment's
 * reviews file) applies where the run has a simulation with its fingerprint and that simulation has its
 * cause (grader, kind, reference); otherwise it is stale and counts nowhere but in the stale list.
 * Precision is confirmed / (confirmed + false_positive) over applied reviews, outside excluded files.
 * Sampled reviews (table `sample_reviews`, from `review sample`) judge simulations both sides of a
 * comparison pass: the miss rate is missed / (clean + missed) over those that still apply.
 */
/** Review counts and precision (confirmed / (confirmed + false positive), Wilson 95%) over grouped reviews. */
const PRECISION = `count(*) FILTER (WHERE verdict = 'confirmed') AS confirmed,
            count(*) FILTER (WHERE verdict = 'false_positive') AS false_positive,
            count(*) FILTER (WHERE verdict = 'unclear') AS unclear,
            count(*) FILTER (WHERE verdict = 'confirmed')
              / nullif(count(*) FILTER (WHERE verdict IN ('confirmed', 'false_positive')), 0) AS precision,
            wilson_lo(count(*) FILTER (WHERE verdict = 'confirmed'),
                      count(*) FILTER (WHERE verdict IN ('confirmed', 'false_positive'))) AS precision_lo,
            wilson_hi(count(*) FILTER (WHERE verdict = 'confirmed'),
                      count(*) FILTER (WHERE verdict IN ('confirmed', 'false_positive'))) AS precision_hi`;

export const REVIEW_VIEWS: readonly [name: string, sql: string][] = [
  ["run_reviews", `SELECT rv.* FROM reviews rv JOIN current_run r ON rv.experiment = r.experiment`],
  [
    // What a reviewer judges: the failing side's gating causes of every flip of every comparison. A review
    // is keyed by fingerprint, grader and cause, so one judgment serves each comparison that shows it.
    "review_targets",
    `SELECT f.comparison, f.sim_key, f.failing_grader AS grader, c.seq, c.kind, c.reference, c.message,
            c.message_index, c.turn_idx, f.domain, f.model, f.task_id, f.trial, f.direction, f.path,
            f.simulation_id, f.excluded, x.fingerprint
     FROM flips f JOIN run_causes c ON c.sim_key = f.sim_key AND c.grader = f.failing_grader
     LEFT JOIN (SELECT sc.sim_key, sc.fingerprint FROM sim_context sc JOIN current_run r USING (run_id)) x
       ON x.sim_key = f.sim_key
     WHERE c.gates`,
  ],
  [
    "target_reviews",
    `SELECT t.*, rv.verdict, rv.reason, rv.reviewer, rv.date
     FROM review_targets t LEFT JOIN run_reviews rv
       ON rv.fingerprint = t.fingerprint AND rv.grader = t.grader AND rv.kind = t.kind AND rv.reference = t.reference`,
  ],
  [
    // One row per flip of each comparison: confirmed when a reviewer confirmed any of its causes (one real
    // violation fails the simulation), false positive when every cause was rejected, unreviewed while a
    // cause is unreviewed.
    "flip_reviews",
    `SELECT f.comparison, f.sim_key, f.failing_grader AS grader, f.domain, f.model, f.task_id, f.direction, f.excluded,
            count(t.seq) AS causes,
            count(*) FILTER (WHERE t.verdict = 'confirmed') AS confirmed,
            count(*) FILTER (WHERE t.verdict = 'false_positive') AS false_positive,
            count(*) FILTER (WHERE t.verdict = 'unclear') AS unclear,
            count(*) FILTER (WHERE t.seq IS NOT NULL AND t.verdict IS NULL) AS unreviewed,
            CASE WHEN count(*) FILTER (WHERE t.verdict = 'confirmed') > 0 THEN 'confirmed'
                 WHEN count(t.seq) = 0 OR count(*) FILTER (WHERE t.seq IS NOT NULL AND t.verdict IS NULL) > 0 THEN 'unreviewed'
                 WHEN count(*) FILTER (WHERE t.verdict = 'unclear') > 0 THEN 'unclear'
                 ELSE 'false_positive' END AS review
     FROM flips f LEFT JOIN target_reviews t ON t.comparison = f.comparison AND t.sim_key = f.sim_key
     GROUP BY f.comparison, f.sim_key, f.failing_grader, f.domain, f.model, f.task_id, f.direction, f.excluded`,
  ],
  [
    // Every review of the run's experiment, applied or stale (and why). A simulation's fingerprint is
    // stored only where its graders disagree (or with conversations: "all").
    "review_status",
    `WITH ctx AS (SELECT sc.sim_key, sc.fingerprint FROM sim_context sc JOIN current_run r USING (run_id)),
          matched AS (
            SELECT rv.fingerprint, rv.grader, rv.kind, rv.reference,
                   count(DISTINCT ctx.sim_key) AS simulations, count(DISTINCT c.sim_key) AS matches,
                   bool_or(c.gates) AS gates, bool_and(sv.excluded) FILTER (WHERE c.sim_key IS NOT NULL) AS excluded,
                   bool_or(t.sim_key IS NOT NULL) AS flip_cause
            FROM run_reviews rv
            LEFT JOIN ctx ON ctx.fingerprint = rv.fingerprint
            LEFT JOIN run_causes c ON c.sim_key = ctx.sim_key AND c.grader = rv.grader AND c.kind = rv.kind
                                   AND c.reference = rv.reference
            LEFT JOIN sim_verdicts sv ON sv.sim_key = c.sim_key
            LEFT JOIN review_targets t ON t.sim_key = c.sim_key AND t.grader = c.grader AND t.seq = c.seq
            GROUP BY ALL),
          same_id AS (
            SELECT rv.fingerprint, rv.grader, rv.kind, rv.reference, count(*) AS sims,
                   count(ctx.sim_key) AS fingerprinted
            FROM run_reviews rv JOIN sim_verdicts sv ON sv.simulation_id = rv.simulation_id AND sv.path = rv.path
            LEFT JOIN ctx ON ctx.sim_key = sv.sim_key
            GROUP BY ALL)
     SELECT rv.experiment, rv.simulation_id, rv.path, rv.fingerprint, rv.grader, rv.kind, rv.reference,
            rv.kind || ':' || rv.reference AS cause, rv.verdict, rv.reason, rv.reviewer, rv.date,
            m.matches = 0 AS stale,
            CASE WHEN m.matches > 0 THEN NULL
                 WHEN m.simulations > 0 THEN 'the simulation no longer has this cause'
                 WHEN coalesce(s.fingerprinted, 0) > 0 THEN 'the simulation changed (another fingerprint)'
                 WHEN coalesce(s.sims, 0) > 0 THEN 'the graders now agree on the simulation (its fingerprint is not stored)'
                 ELSE 'no simulation with this id and path in the run' END AS stale_reason,
            m.matches, coalesce(m.gates, false) AS gates, coalesce(m.flip_cause, false) AS flip_cause,
            coalesce(m.excluded, false) AS excluded
     FROM run_reviews rv
     JOIN matched m USING (fingerprint, grader, kind, reference)
     LEFT JOIN same_id s USING (fingerprint, grader, kind, reference)`,
  ],
  [
    "review_precision_by_kind",
    `SELECT grader, kind, count(*) AS reviews,
            ${PRECISION}
     FROM review_status WHERE NOT stale AND NOT excluded GROUP BY grader, kind`,
  ],
  [
    "review_precision_by_rule",
    `SELECT grader, kind, reference, count(*) AS reviews,
            ${PRECISION}
     FROM review_status WHERE NOT stale AND NOT excluded GROUP BY grader, kind, reference`,
  ],
  [
    // Each comparison's flip causes by review verdict (outside excluded files; a cause firing at several
    // turns counts once, as one review covers it), and the stale reviews.
    "review_counts",
    `SELECT k.comparison, count(t.sim_key) FILTER (WHERE t.verdict = 'confirmed') AS confirmed,
            count(t.sim_key) FILTER (WHERE t.verdict = 'false_positive') AS false_positive,
            count(t.sim_key) FILTER (WHERE t.verdict = 'unclear') AS unclear,
            count(t.sim_key) FILTER (WHERE t.verdict IS NULL) AS unreviewed,
            (SELECT count(*) FROM review_status WHERE stale) AS stale
     FROM run_comparisons k
     LEFT JOIN (SELECT DISTINCT comparison, sim_key, grader, kind, reference, verdict FROM target_reviews WHERE NOT excluded) t
       USING (comparison)
     GROUP BY k.comparison`,
  ],
  [
    "run_sample_reviews",
    `SELECT sr.* FROM sample_reviews sr JOIN current_run r ON sr.experiment = r.experiment`,
  ],
  [
    // Every sampled review, and whether it still applies: the run has a simulation with its fingerprint
    // that both sides of its comparison pass. One that does not is stale and counts apart from the rate.
    "sample_review_status",
    `WITH ctx AS (SELECT sc.sim_key, sc.fingerprint FROM sim_context sc JOIN current_run r USING (run_id)),
          matched AS (
            SELECT sr.fingerprint, sr.comparison, count(pv.sim_key) AS simulations,
                   bool_or(pv.baseline_pass AND pv.candidate_pass) AS both_pass,
                   bool_and(pv.excluded) AS excluded,
                   -- the domain of a simulation both sides pass, else of any with the fingerprint
                   coalesce(min(pv.domain) FILTER (WHERE pv.baseline_pass AND pv.candidate_pass), min(pv.domain)) AS domain
            FROM run_sample_reviews sr
            LEFT JOIN ctx ON ctx.fingerprint = sr.fingerprint
            LEFT JOIN pair_verdicts pv ON pv.sim_key = ctx.sim_key AND pv.comparison = sr.comparison
            GROUP BY ALL)
     SELECT sr.experiment, sr.comparison, m.domain, sr.simulation_id, sr.path, sr.fingerprint, sr.seed, sr.verdict,
            sr.reason, sr.reviewer, sr.date,
            NOT coalesce(m.both_pass, false) AS stale,
            CASE WHEN coalesce(m.both_pass, false) THEN NULL
                 WHEN sr.comparison NOT IN (SELECT comparison FROM run_comparisons) THEN 'no comparison with this name in the run'
                 WHEN m.simulations = 0 THEN 'no simulation with this fingerprint in the run'
                 ELSE 'the simulation no longer passes both sides' END AS stale_reason,
            coalesce(m.excluded, false) AS excluded
     FROM run_sample_reviews sr JOIN matched m USING (fingerprint, comparison)`,
  ],
  [
    // Per comparison and domain ('all' for the whole run), outside excluded files and tasks: how many
    // simulations both sides pass, the reviews of those sampled, and the miss rate missed / (clean +
    // missed) with its Wilson 95% interval. 'all' pools the samples as drawn (equal per domain, not
    // weighted by domain size); weighted_miss_rate weights each domain's rate by its both-pass count,
    // once every such domain has one.
    "miss_rates",
    `WITH pop AS (SELECT comparison, domain, count(*) AS both_pass FROM pair_verdicts
                  WHERE baseline_pass AND candidate_pass AND NOT excluded GROUP BY ALL),
          s AS (SELECT * FROM sample_review_status WHERE domain IS NOT NULL
                UNION ALL SELECT * REPLACE ('all' AS domain) FROM sample_review_status),
          agg AS (
            SELECT comparison, domain,
                   count(*) FILTER (WHERE NOT stale AND NOT excluded) AS sampled,
                   count(*) FILTER (WHERE NOT stale AND NOT excluded AND verdict = 'clean') AS clean,
                   count(*) FILTER (WHERE NOT stale AND NOT excluded AND verdict = 'missed') AS missed,
                   count(*) FILTER (WHERE NOT stale AND NOT excluded AND verdict = 'unclear') AS unclear,
                   count(*) FILTER (WHERE stale) AS stale,
                   count(*) FILTER (WHERE NOT stale AND excluded) AS excluded,
                   -- text, as a list of BIGINT does not survive JSON
                   array_to_string(list_sort(list(DISTINCT seed) FILTER (WHERE NOT stale AND NOT excluded)), ', ') AS seeds
            FROM s GROUP BY ALL),
          rows AS (
            SELECT comparison, d.domain, coalesce(p.both_pass, 0) AS both_pass, coalesce(a.sampled, 0) AS sampled,
                   coalesce(a.clean, 0) AS clean, coalesce(a.missed, 0) AS missed, coalesce(a.unclear, 0) AS unclear,
                   coalesce(a.stale, 0) AS stale, coalesce(a.excluded, 0) AS excluded,
                   a.seeds
            FROM (SELECT comparison, domain FROM pop UNION SELECT comparison, domain FROM agg WHERE domain <> 'all') d
            LEFT JOIN pop p USING (comparison, domain) LEFT JOIN agg a USING (comparison, domain)),
          -- only when every domain with both-pass simulations has a rate: otherwise it is not the run's
          weighted AS (
            SELECT comparison,
                   CASE WHEN bool_and(clean + missed > 0) FILTER (WHERE both_pass > 0)
                        THEN sum(both_pass * missed / (clean + missed)) FILTER (WHERE clean + missed > 0)
                             / sum(both_pass) FILTER (WHERE clean + missed > 0) END AS weighted_miss_rate
            FROM rows GROUP BY comparison)
     SELECT k.seq AS comparison_seq, k.comparison, k.baseline, k.candidate, r.domain, r.both_pass, r.sampled,
            r.clean, r.missed, r.unclear, r.missed / nullif(r.clean + r.missed, 0) AS miss_rate,
            wilson_lo(r.missed, r.clean + r.missed) AS miss_rate_lo, wilson_hi(r.missed, r.clean + r.missed) AS miss_rate_hi,
            CASE WHEN r.domain = 'all' THEN w.weighted_miss_rate END AS weighted_miss_rate,
            r.stale, r.excluded, r.seeds
     FROM run_comparisons k
     JOIN (SELECT * FROM rows
           UNION ALL
           SELECT x.comparison, 'all', sum(x.both_pass)::BIGINT, coalesce(any_value(a.sampled), 0),
                  coalesce(any_value(a.clean), 0), coalesce(any_value(a.missed), 0), coalesce(any_value(a.unclear), 0),
                  coalesce(any_value(a.stale), 0), coalesce(any_value(a.excluded), 0),
                  any_value(a.seeds)
           FROM rows x LEFT JOIN agg a ON a.comparison = x.comparison AND a.domain = 'all'
           GROUP BY x.comparison) r USING (comparison)
     LEFT JOIN weighted w USING (comparison)`,
  ],
];
