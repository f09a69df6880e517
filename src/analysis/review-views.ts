/**
 * The reviews as views over the selected run. A review (table `reviews`, loaded from the experiment's
 * reviews file) applies where the run has a simulation with its fingerprint and that simulation has its
 * cause (grader, kind, reference); otherwise it is stale and counts nowhere but in the stale list.
 * Precision is confirmed / (confirmed + false_positive) over applied reviews, outside excluded files.
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
    // What a reviewer judges: each gate's own gating causes of each of its flips.
    "review_targets",
    `SELECT f.sim_key, f.grader, c.seq, c.kind, c.reference, c.message, c.message_index, c.turn_idx,
            f.domain, f.model, f.task_id, f.trial, f.direction, f.path, f.simulation_id, f.excluded, x.fingerprint
     FROM gate_flips f JOIN run_causes c ON c.sim_key = f.sim_key AND c.grader = f.grader
     LEFT JOIN (SELECT sc.sim_key, sc.fingerprint FROM sim_context sc JOIN current_run r USING (run_id)) x
       ON x.sim_key = f.sim_key
     WHERE c.gates AND c.kind <> 'tau3'`,
  ],
  [
    "target_reviews",
    `SELECT t.*, rv.verdict, rv.reason, rv.reviewer, rv.date
     FROM review_targets t LEFT JOIN run_reviews rv
       ON rv.fingerprint = t.fingerprint AND rv.grader = t.grader AND rv.kind = t.kind AND rv.reference = t.reference`,
  ],
  [
    // One row per flip: confirmed when a reviewer confirmed any of its causes (one real violation fails the
    // simulation), false positive when every cause was rejected, unreviewed while a cause is unreviewed.
    "flip_reviews",
    `SELECT f.sim_key, f.grader, f.domain, f.model, f.task_id, f.direction, f.excluded,
            count(t.seq) AS causes,
            count(*) FILTER (WHERE t.verdict = 'confirmed') AS confirmed,
            count(*) FILTER (WHERE t.verdict = 'false_positive') AS false_positive,
            count(*) FILTER (WHERE t.verdict = 'unclear') AS unclear,
            count(*) FILTER (WHERE t.seq IS NOT NULL AND t.verdict IS NULL) AS unreviewed,
            CASE WHEN count(*) FILTER (WHERE t.verdict = 'confirmed') > 0 THEN 'confirmed'
                 WHEN count(t.seq) = 0 OR count(*) FILTER (WHERE t.seq IS NOT NULL AND t.verdict IS NULL) > 0 THEN 'unreviewed'
                 WHEN count(*) FILTER (WHERE t.verdict = 'unclear') > 0 THEN 'unclear'
                 ELSE 'false_positive' END AS review
     FROM gate_flips f LEFT JOIN target_reviews t ON t.sim_key = f.sim_key AND t.grader = f.grader
     GROUP BY f.sim_key, f.grader, f.domain, f.model, f.task_id, f.direction, f.excluded`,
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
    // The flip causes by review verdict (outside excluded files; a cause firing at several turns counts
    // once, as one review covers it), and the stale reviews.
    "review_counts",
    `SELECT g.grader, count(*) FILTER (WHERE verdict = 'confirmed') AS confirmed,
            count(*) FILTER (WHERE verdict = 'false_positive') AS false_positive,
            count(*) FILTER (WHERE verdict = 'unclear') AS unclear,
            count(*) FILTER (WHERE verdict IS NULL) AS unreviewed,
            (SELECT count(*) FROM review_status WHERE stale) AS stale
     FROM (SELECT 'structured' AS grader UNION ALL SELECT 'structured_strict') g
     LEFT JOIN (SELECT DISTINCT sim_key, grader, kind, reference, verdict FROM target_reviews WHERE NOT excluded) t
       ON t.grader = g.grader
     GROUP BY g.grader`,
  ],
  [
    // Each gate's flips (outside excluded files) and what review made of them. A real violation is a
    // τ³-passing simulation whose flip a reviewer confirmed under either gate; a gate's recall is the share
    // of real violations it fails, so a violation the default gate lets through counts against it.
    "gate_summary",
    `WITH fr AS (SELECT * FROM flip_reviews WHERE NOT excluded
                 UNION ALL SELECT * REPLACE ('all' AS domain) FROM flip_reviews WHERE NOT excluded),
          base AS (SELECT g.grader, d.domain
                   FROM (SELECT 'structured' AS grader UNION ALL SELECT 'structured_strict') g
                   CROSS JOIN (SELECT DISTINCT domain FROM headline_verdicts UNION SELECT 'all') d),
          per AS (SELECT grader, domain,
                         count(*) FILTER (WHERE direction = 'pass_to_fail') AS pass_to_fail,
                         count(*) FILTER (WHERE direction = 'fail_to_pass') AS fail_to_pass,
                         count(*) FILTER (WHERE review = 'confirmed') AS confirmed,
                         count(*) FILTER (WHERE review = 'false_positive') AS false_positive,
                         count(*) FILTER (WHERE review = 'unclear') AS unclear,
                         count(*) FILTER (WHERE review = 'unreviewed') AS unreviewed
                  FROM fr GROUP BY grader, domain),
          real AS (SELECT DISTINCT domain, sim_key FROM fr WHERE review = 'confirmed' AND direction = 'pass_to_fail'),
          caught AS (SELECT b.grader, b.domain, count(r.sim_key) AS real_violations, count(f.sim_key) AS caught
                     FROM base b LEFT JOIN real r ON r.domain = b.domain
                     LEFT JOIN fr f ON f.sim_key = r.sim_key AND f.grader = b.grader AND f.domain = b.domain
                     GROUP BY b.grader, b.domain)
     SELECT b.grader, b.domain,
            coalesce(p.pass_to_fail, 0) AS pass_to_fail, coalesce(p.fail_to_pass, 0) AS fail_to_pass,
            coalesce(p.confirmed, 0) AS confirmed, coalesce(p.false_positive, 0) AS false_positive,
            coalesce(p.unclear, 0) AS unclear, coalesce(p.unreviewed, 0) AS unreviewed,
            p.confirmed / nullif(p.confirmed + p.false_positive, 0) AS precision,
            wilson_lo(p.confirmed, p.confirmed + p.false_positive) AS precision_lo,
            wilson_hi(p.confirmed, p.confirmed + p.false_positive) AS precision_hi,
            c.real_violations, c.caught, c.real_violations - c.caught AS missed,
            c.caught / nullif(c.real_violations, 0) AS recall,
            wilson_lo(c.caught, c.real_violations) AS recall_lo, wilson_hi(c.caught, c.real_violations) AS recall_hi
     FROM base b LEFT JOIN per p USING (grader, domain) LEFT JOIN caught c USING (grader, domain)`,
  ],
];
