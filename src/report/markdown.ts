/**
 * `report.md`: a section per comparison (the headline first) with its numbers, rankings and charts, then
 * the reviews and the flips, as GitHub-flavoured Markdown that can be pasted into an issue. Every value
 * from the store goes through `escapeMarkdown` (model names, task ids and causes come from trajectory
 * files).
 */
import { NO_REPEATS } from "../analysis/noise-views.ts";
import type { ComparisonSummary } from "../analysis/summary.ts";
import { comparisonLabel, graderLabel } from "../charts/common.ts";
import { chartWarnings, type RenderedChart } from "../charts/index.ts";
import type { ComparisonData, ReportData } from "./data.ts";
import { escapeMarkdown } from "./escape.ts";
import { publishedVerdict, reproducedCell, trials } from "./honesty.ts";
import { num, pct } from "./table.ts";

type MdCell = string | number | null | undefined;

/** Numbers and percentages we formatted ourselves carry no markup, so they stay readable unescaped. */
const NUMERIC = /^[-+]?[0-9][0-9.,]*%?$/;

/** A GFM table; cells are escaped here, so callers pass raw values. */
export function mdTable(header: readonly string[], body: readonly (readonly MdCell[])[]): string {
  const line = (cells: readonly MdCell[]) =>
    `| ${cells.map((c) => (c === null || c === undefined ? "–" : NUMERIC.test(String(c)) ? String(c) : escapeMarkdown(String(c)))).join(" | ")} |`;
  return [line(header), `|${header.map(() => " --- ").join("|")}|`, ...body.map(line)].join("\n");
}

/**
 * report.md repeats no long list in full (it should paste into a GitHub issue, capped at 65,536
 * characters): beyond these many rows, a table says how many more report.html and the exports hold.
 */
export const MD_ROWS = { flips: 30, modelRates: 12, submissions: 12 } as const;

/**
 * The first `max` rows, those `first` picks ahead of the others (each group in its order), and how many
 * were left out.
 */
export function capRows<T>(
  rows: readonly T[],
  max: number,
  first: (r: T) => boolean = () => true,
): { shown: T[]; more: number } {
  const ordered = [...rows.filter(first), ...rows.filter((r) => !first(r))];
  return { shown: ordered.slice(0, max), more: Math.max(0, rows.length - max) };
}

/** The line under a capped table (nothing when every row is shown). */
export const moreLine = (more: number, what: string, where: string): string[] =>
  more === 0 ? [] : [`${more} more ${what} in ${where}.`, ""];

const md = (v: string | null | undefined) => (v === null || v === undefined ? "–" : escapeMarkdown(v));

/** Run id, experiment, tool version, config hash, sources, reviews and date: what the numbers rest on. */
function provenance(d: ReportData): string {
  const r = d.summary.run;
  const reviews =
    d.meta.reviewsSource === null
      ? "reviews as the store holds them"
      : `reviews from ${md(d.meta.reviewsSource)}`;
  const written = `written ${md(d.meta.writtenAt)}`;
  if (r === null) return `No completed run in the store; ${written}.`;
  const sources = r.sources.map((s) => `${md(s)}; `).join("");
  return `Run \`${r.run_id}\` of experiment **${md(r.experiment)}**, tool version ${md(r.tool_version)}, config hash \`${r.config_hash.slice(0, 12)}\`; ${sources}${reviews}; ${written}.`;
}

const signed = (v: number | null): string =>
  v === null ? "–" : `${v > 0 ? "+" : v < 0 ? "−" : "±"}${pct(Math.abs(v))}`;
const signedRange = (lo: number | null, hi: number | null): string =>
  lo === null || hi === null ? "–" : `[${signed(lo)}, ${signed(hi)}]`;

const interval = (lo: number | null, hi: number | null) =>
  lo === null || hi === null ? "" : ` [${pct(lo)}, ${pct(hi)}]`;

function reviewLines(d: ReportData): string[] {
  const c = d.summary.reviews;
  return [
    "## Reviews and precision",
    "",
    `Headline flip causes (outside excluded files and tasks): **${c.confirmed}** confirmed, **${c.false_positive}** false positive, ` +
      `**${c.unclear}** unclear, **${c.unreviewed}** unreviewed; **${c.stale}** stale reviews (not applied). ` +
      `Headline flips: **${c.flips.confirmed}** confirmed, **${c.flips.unreviewed}** unreviewed. ` +
      "Each comparison's section gives its flips' precision and recall.",
    "",
    d.precisionByKind.length === 0
      ? "No applied review yet: precision is not measured."
      : mdTable(
          ["grader", "cause", "reviews", "confirmed", "false positive", "unclear", "precision [95% CI]"],
          d.precisionByKind.map((r) => [
            graderLabel(r.grader),
            r.kind,
            r.reviews,
            r.confirmed,
            r.false_positive,
            r.unclear,
            `${pct(r.precision)}${interval(r.precision_lo, r.precision_hi)}`,
          ]),
        ),
    "",
  ];
}

/** A chart as a list item: a link to its PNG, or why it was not drawn; then what it leaves out. */
function chartLine(c: RenderedChart): string {
  const note = c.note ? ` (${escapeMarkdown(c.note)})` : "";
  return chartLink(c) + note;
}

function chartLink(c: RenderedChart): string {
  const title = escapeMarkdown(c.title);
  if (c.failure?.stage === "vega")
    return `- ${title}: not drawn (${escapeMarkdown(c.failure.reason)}) ([vega-lite spec](${c.files.spec}))`;
  if (c.failure !== null)
    return `- [${title}](${c.files.svg}): PNG not drawn (${escapeMarkdown(c.failure.reason)}) ([vega-lite spec](${c.files.spec}))`;
  return `- [${title}](${c.files.png}) ([vega-lite spec](${c.files.spec}), [SVG](${c.files.svg}))`;
}

/** The grader's swaps of ranked pairs beside re-running's, in one line; said once when nothing is repeated. */
function rankingNoiseLine(k: ComparisonData): string[] {
  const pairs = k.rankingNoise;
  const repeated = pairs.some((r) => r.repeated);
  if (pairs.length === 0 || (!repeated && !k.headline)) return [];
  if (!repeated)
    return [
      `Ranking beside re-running the agents: no ranked entry ran a task more than once (${NO_REPEATS}), in any comparison.`,
      "",
    ];
  const swapped = pairs.filter((r) => r.grader_swaps).length;
  const shares = pairs
    .flatMap((r) => (r.rerun_swap_share === null ? [] : [r.rerun_swap_share]))
    .sort((a, b) => a - b);
  const mid = (shares.length - 1) / 2;
  const median = ((shares[Math.floor(mid)] ?? 0) + (shares[Math.ceil(mid)] ?? 0)) / 2;
  return [
    `Ranking beside re-running the agents: the grader swaps ${swapped} of ${pairs.length} ranked pair(s); ${
      shares.length === 0
        ? "the pairs with repeated runs tie under the baseline"
        : `a re-run swaps a pair with repeated runs in ${pct(median)} of resamples (median of ${shares.length})`
    } (ranking_swaps_vs_noise.csv).`,
    "",
  ];
}

/** One comparison: its headline numbers, per domain, its rankings, flip rates by model and charts. */
function comparisonLines(d: ReportData, k: ComparisonData, charts: readonly RenderedChart[]): string[] {
  const s: ComparisonSummary | undefined = d.summary.comparisons[k.ref.comparison];
  const b = graderLabel(k.ref.baseline);
  const c = graderLabel(k.ref.candidate);
  const out = [
    `## ${escapeMarkdown(comparisonLabel(k.ref))} (\`${k.ref.comparison.replaceAll("`", "")}\`)${k.headline ? " — headline" : ""}`,
    "",
  ];
  if (s !== undefined) {
    const p = s.mcnemar.p_value;
    out.push(
      `Flips from ${escapeMarkdown(b)} to ${escapeMarkdown(c)} (outside excluded files and tasks): **${s.flips.pass_to_fail}** pass → fail, ` +
        `**${s.flips.fail_to_pass}** fail → pass of ${s.paired} paired; flip rate ${pct(s.flip_rate.value)}${interval(s.flip_rate.lo, s.flip_rate.hi)}; ` +
        `McNemar ${s.mcnemar.method.replaceAll("_", " ")} p ${p !== null && p < 1e-4 ? "< 0.0001" : `= ${p === null ? "–" : num(4)(p)}`}. ` +
        `Reviews: **${s.reviews.confirmed}** confirmed, **${s.reviews.false_positive}** false positive, **${s.reviews.unclear}** unclear, ` +
        `**${s.reviews.unreviewed}** unreviewed; confirmed-only flip rate ${pct(s.confirmed_flip_rate.value)}${interval(s.confirmed_flip_rate.lo, s.confirmed_flip_rate.hi)}; ` +
        `precision ${pct(s.precision.value)}${interval(s.precision.lo, s.precision.hi)}; ` +
        `recall ${pct(s.recall.value)}${interval(s.recall.lo, s.recall.hi)} (${s.recall.caught} of ${s.recall.real_violations} real violations); ` +
        (s.miss_rate.sampled + s.miss_rate.stale === 0
          ? "miss rate not measured (no sampled review); "
          : `miss rate ${pct(s.miss_rate.value)}${interval(s.miss_rate.lo, s.miss_rate.hi)} (${s.miss_rate.missed} missed of ${s.miss_rate.clean + s.miss_rate.missed} sampled both-pass simulations judged, ${s.miss_rate.unclear} unclear, ${s.miss_rate.stale} stale; seeds ${s.miss_rate.seeds.join(", ") || "–"}); `) +
        `rewards equal on ${s.reward_agreement.same_reward} of ${s.reward_agreement.with_baseline_reward}.`,
      "",
    );
  }
  out.push(
    mdTable(
      [
        "domain",
        `${b} pass rate`,
        `${c} pass rate`,
        "pass → fail",
        "fail → pass",
        "confirmed",
        "precision [95% CI]",
        "recall [95% CI]",
      ],
      k.domains.map((r) => [
        r.domain,
        pct(r.baseline_pass_rate),
        pct(r.candidate_pass_rate),
        r.pass_to_fail,
        r.fail_to_pass,
        r.confirmed,
        `${pct(r.precision)}${interval(r.precision_lo, r.precision_hi)}`,
        `${pct(r.recall)}${interval(r.recall_lo, r.recall_hi)}`,
      ]),
    ),
    "",
  );
  if (k.missRates.length > 0)
    out.push(
      mdTable(
        [
          "domain",
          "both pass",
          "sampled",
          "clean",
          "missed",
          "unclear",
          "miss rate [95% CI]",
          "stale",
          "seeds",
        ],
        k.missRates.map((r) => [
          r.domain,
          r.both_pass,
          r.sampled,
          r.clean,
          r.missed,
          r.unclear,
          `${pct(r.miss_rate)}${interval(r.miss_rate_lo, r.miss_rate_hi)}`,
          r.stale,
          r.seeds ?? "–",
        ]),
      ),
      "",
    );
  if (k.coverage.length > 0)
    out.push(
      "What each side could check (a fixture applies where every quote it relies on is in the simulation's own task; skipped: written for the task, quotes not in its text):",
      "",
      mdTable(
        [
          "side",
          "grader",
          "domain",
          "simulations",
          "with a fixture",
          "with facts",
          "with none",
          "fixture skipped",
          "clauses",
        ],
        k.coverage.map((r) => [
          r.side,
          graderLabel(r.grader),
          r.domain,
          r.simulations,
          r.with_fixture,
          r.with_facts,
          r.with_none,
          r.fixture_skipped,
          r.clauses_applicable === null ? "–" : num(1)(r.clauses_applicable),
        ]),
      ),
      "",
    );
  const repeated = k.noise.filter((r) => !r.excluded && r.verdict !== NO_REPEATS);
  if (k.noise.length > 0)
    out.push(
      repeated.length === 0
        ? `Grader's effect beside re-running the agent: ${NO_REPEATS} (no configuration outside excluded files ran a task more than once).`
        : "Grader's effect beside re-running the agent (configurations with repeated runs, outside excluded files; 95% intervals):",
      "",
      ...(repeated.length === 0
        ? []
        : [
            mdTable(
              ["configuration", "flips", "shift [95%]", "one re-run [95%]", "shift is"],
              repeated.map((r) => [
                r.model,
                r.flips,
                `${signed(r.shift)} ${signedRange(r.shift_lo, r.shift_hi)}`,
                signedRange(r.noise_lo, r.noise_hi),
                r.verdict.replace(" the noise of re-running the agent", ""),
              ]),
            ),
            "",
          ]),
    );
  const groups = Object.entries(s?.rankings ?? {});
  for (const [domain, g] of groups) {
    const tau = g.kendall_tau_b === null ? "–" : num(3)(g.kendall_tau_b);
    const [lo, hi] = g.kendall_tau_b_ci;
    const ci = lo === null || hi === null ? "" : ` (bootstrap 95% CI ${num(3)(lo)} to ${num(3)(hi)})`;
    const models = k.ranking.filter((r) => r.domain === domain && r.task_version === g.task_version);
    out.push(
      `### Ranking: ${escapeMarkdown(domain)} · ${escapeMarkdown(g.task_version)}`,
      "",
      `Kendall τ-b ${tau}${ci}; swapped pairs: ${
        g.swapped_pairs.length === 0
          ? "none"
          : g.swapped_pairs.map(([a, x]) => `${escapeMarkdown(a)} ↔ ${escapeMarkdown(x)}`).join("; ")
      }.`,
      "",
      mdTable(
        ["model", `${b} rank`, `${b} pass^1`, `${c} rank`, `${c} pass^1`],
        models.map((m) => [
          m.model,
          m.baseline_rank,
          pct(m.baseline_pass1),
          m.candidate_rank,
          pct(m.candidate_pass1),
        ]),
      ),
      "",
    );
  }
  if (groups.length === 0) out.push("No ranking group has two eligible models.", "");
  out.push(...rankingNoiseLine(k));
  const rates = capRows(k.flipRates, MD_ROWS.modelRates, (r) => r.pass_to_fail + r.fail_to_pass > 0);
  out.push(
    `### Flip rates by model: ${escapeMarkdown(comparisonLabel(k.ref))}`,
    "",
    ...(rates.more === 0 ? [] : ["Models with flips first.", ""]),
    mdTable(
      ["domain", "model", "n", "flips", "rate", "confirmed flips", "confirmed rate", "unreviewed"],
      rates.shown.map((r) => [
        r.domain,
        r.model,
        r.n,
        r.pass_to_fail + r.fail_to_pass,
        pct((r.pass_to_fail + r.fail_to_pass) / r.n),
        r.confirmed_flips,
        pct(r.confirmed_flip_rate),
        r.unreviewed_flips,
      ]),
    ),
    "",
    ...moreLine(rates.more, "models", "report.html and flip_rates_by_model.csv"),
  );
  const mine = charts.filter((x) => x.comparison === k.ref.comparison);
  if (mine.length > 0) out.push(...mine.map(chartLine), "");
  return out;
}

export function renderMarkdown(d: ReportData, charts: readonly RenderedChart[]): string {
  const s = d.summary;
  const excludedSims = s.excluded_files.reduce((n, f) => n + f.simulations, 0);
  const head = d.comparisons.find((k) => k.headline);
  const out: string[] = [
    "# tau-rescore report",
    "",
    provenance(d),
    "",
    `**${s.simulations}** simulations, **${s.graded}** graded, **${s.errors}** errors. ` +
      (head === undefined
        ? ""
        : `Headline flips (${escapeMarkdown(comparisonLabel(head.ref))}): **${s.flips.pass_to_fail}** pass → fail, **${s.flips.fail_to_pass}** fail → pass. `) +
      `Pass rates and flips leave out ${s.excluded_files.length} excluded files (${excludedSims} simulations) and ${s.excluded_tasks.length} excluded tasks.`,
    "",
    mdTable(
      ["comparison", "baseline", "candidate", "pass → fail", "fail → pass", "flip rate", "precision"],
      d.comparisons.map((k) => {
        const c = s.comparisons[k.ref.comparison];
        return [
          k.headline ? `${k.ref.comparison} (headline)` : k.ref.comparison,
          graderLabel(k.ref.baseline),
          graderLabel(k.ref.candidate),
          c?.flips.pass_to_fail,
          c?.flips.fail_to_pass,
          pct(c?.flip_rate.value ?? null),
          pct(c?.precision.value ?? null),
        ];
      }),
    ),
    "",
  ];
  const warnings = chartWarnings(charts);
  if (warnings.length > 0)
    out.push(
      `${warnings.length} chart warning(s):`,
      "",
      ...warnings.map((w) => `- ${escapeMarkdown(w)}`),
      "",
    );
  for (const k of d.comparisons) out.push(...comparisonLines(d, k, charts));
  out.push(...reviewLines(d));
  out.push(...publishedLines(d));
  out.push(
    "## Excluded files and tasks",
    "",
    s.excluded_files.length === 0
      ? "No excluded file."
      : mdTable(
          ["file", "simulations", "reason"],
          s.excluded_files.map((f) => [f.path, f.simulations, f.reason]),
        ),
    "",
    s.excluded_tasks.length === 0
      ? "No excluded task."
      : mdTable(
          ["domain", "task set", "task", "simulations", "reason"],
          s.excluded_tasks.map((t) => [
            t.domain,
            t.task_version ?? "any",
            t.task_id,
            t.simulations,
            t.reason,
          ]),
        ),
    "",
  );
  const flips = capRows(d.drilldown, MD_ROWS.flips, (f) => !f.flip.excluded);
  out.push(
    `## Flips (${d.flipCount})`,
    "",
    ...(flips.more === 0 ? [] : ["Flips outside excluded files and tasks first.", ""]),
    mdTable(
      ["domain", "task", "trial", "model", "comparison", "direction", "failing side's causes", "review"],
      flips.shown.map(({ flip: f, causes }) => [
        f.domain,
        f.task_id,
        f.trial,
        f.model,
        f.comparison,
        f.direction === "pass_to_fail" ? "pass → fail" : "fail → pass",
        `${graderLabel(f.failing_grader)}: ${causes.map((c) => `${c.kind}:${c.reference}`).join(", ")}`,
        f.excluded ? `${f.review} (excluded)` : f.review,
      ]),
    ),
    "",
    ...moreLine(
      flips.more,
      "flips",
      "report.html (each with its evidence and conversation), flips.csv and `tau-rescore review list`",
    ),
  );
  const shown = new Set(d.comparisons.map((k) => k.ref.comparison));
  const other = charts.filter((c) => c.comparison === null || !shown.has(c.comparison));
  out.push("## Charts", "");
  if (other.length > 0) out.push(...other.map(chartLine));
  else if (charts.length === 0) out.push("No chart has data.");
  else out.push("Each comparison's charts are in its section.");
  return `${out.join("\n")}\n`;
}

/** Each submission's published pass^1 beside the reproduced one, then the submissions without trajectories. */
function publishedLines(d: ReportData): string[] {
  const rows = d.summary.published_vs_reproduced;
  const bare = d.summary.submissions_without_trajectories;
  const first = rows[0];
  return [
    "## Published against reproduced",
    "",
    first === undefined
      ? "No submission with trajectories."
      : `Per leaderboard submission with trajectories and each domain it publishes: the published pass^1, and pass^1 recomputed from its files under ${escapeMarkdown(graderLabel(first.baseline))} and ${escapeMarkdown(graderLabel(first.candidate))} (Wilson 95% intervals; infrastructure errors: ${first.infrastructure_errors}). Not reproduced: the published number is outside the baseline's interval. Not judged: the experiment excludes every file of the domain (its numbers are shown and count neither way).`,
    "",
    ...(rows.length === 0
      ? []
      : [
          mdTable(
            [
              "submission",
              "domain",
              "published",
              "baseline",
              "candidate",
              "sims",
              "tasks",
              "trials",
              "reproduced",
            ],
            rows.map((r) => [
              `${r.model_name ?? "?"} (${r.submission})`,
              r.domain,
              pct(r.published_pass_1),
              reproducedCell(r.baseline_pass_1, r.baseline_lo, r.baseline_hi, r.baseline_difference, "plain"),
              reproducedCell(
                r.candidate_pass_1,
                r.candidate_lo,
                r.candidate_hi,
                r.candidate_difference,
                "plain",
              ),
              r.simulations,
              r.set_tasks === null ? r.tasks : `${r.tasks} of ${r.set_tasks}`,
              trials(r),
              publishedVerdict(r),
            ]),
          ),
          "",
        ]),
    `Submissions without trajectories (${bare.length}):`,
    "",
    ...(bare.length === 0
      ? ["None."]
      : [
          mdTable(
            ["submission", "model", "organisation", "date", "published pass^1", ""],
            bare
              .slice(0, MD_ROWS.submissions)
              .map((b) => [
                b.submission,
                b.model_name,
                b.submitting_organization,
                b.submission_date,
                b.published_pass_1,
                b.error ?? "no trajectories",
              ]),
          ),
        ]),
    "",
    ...moreLine(
      Math.max(0, bare.length - MD_ROWS.submissions),
      "submissions without trajectories",
      "report.html and summary.json (`submissions_without_trajectories`)",
    ),
  ];
}
