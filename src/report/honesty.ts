/**
 * The parts of the report that say what it rests on: which run, tool version, experiment, config and
 * reviews, when it was written; the reviews and the precision they measure; the files left out of
 * headline numbers (with the experiment's reasons); and everything that could not be graded.
 */

import type { PublishedRow } from "../analysis/summary.ts";
import { graderLabel } from "../charts/common.ts";
import { comparisonAnchor } from "./anchors.ts";
import type { ReportData } from "./data.ts";
import { html, type SafeHtml } from "./escape.ts";
import { type Column, pct, points, table } from "./table.ts";

export const interval = (lo: unknown, hi: unknown) =>
  typeof lo === "number" && typeof hi === "number" ? `[${pct(lo)}, ${pct(hi)}]` : "";

export function runLine(d: ReportData): SafeHtml {
  const r = d.summary.run;
  const written = html`written <time datetime="${d.meta.writtenAt}">${d.meta.writtenAt.replace("T", " ").replace(/\.\d+Z$/, " UTC")}</time>`;
  const reviews =
    d.meta.reviewsSource === null
      ? html`reviews as the store holds them (loaded by the last <code>run</code> or <code>review</code>)`
      : html`reviews from <code>${d.meta.reviewsSource}</code>`;
  if (r === null) return html`<p class="run-line">No completed run in the store · ${written}</p>`;
  const sources = r.sources.map((s) => html` · ${s}`);
  return html`<p class="run-line">Run <code>${r.run_id}</code> of experiment <b>${r.experiment}</b> · tool version ${r.tool_version} · config hash <code title="${r.config_hash}">${r.config_hash.slice(0, 12)}</code>${sources} · ${reviews} · ${written}</p>`;
}

const precisionColumns = <T extends ReportData["precisionByKind"][number]>(): Column<T>[] => [
  { label: "reviews", value: (r) => r.reviews },
  { label: "confirmed", value: (r) => r.confirmed },
  { label: "false positive", value: (r) => r.false_positive },
  { label: "unclear", value: (r) => r.unclear },
  {
    label: "precision [95% CI]",
    value: (r) => r.precision,
    format: (v, r) => `${pct(v)} ${interval(r.precision_lo, r.precision_hi)}`,
  },
];

export function reviewSection(d: ReportData): SafeHtml {
  const c = d.summary.reviews;
  const box = (label: string, value: number, cls = "") =>
    html`<div class="${cls}"><b>${value}</b>${label}</div>`;
  const head = d.comparisons.find((k) => k.headline)?.ref;
  return html`<h2 id="reviews">Reviews and precision</h2>
<p class="muted">A reviewer judges the failing side's causes of a flip, in any comparison. A review is keyed by the simulation's content fingerprint, the grader and the cause, so one judgment serves every comparison that shows the same cause; a review whose simulation or cause is no longer in the run is stale and counts nowhere. Each comparison's section gives its flips' precision and recall. Precision = confirmed / (confirmed + false positive), with Wilson 95% intervals.</p>
${head === undefined ? "" : html`<p>The headline comparison's flip causes (outside excluded files and tasks):</p>`}
<div class="headline">
${box("causes confirmed", c.confirmed, "rv-confirmed")}${box("false positives", c.false_positive, "rv-false_positive")}${box("unclear", c.unclear, "rv-unclear")}${box("causes unreviewed", c.unreviewed, "rv-unreviewed")}${box("stale reviews", c.stale)}
</div>
${head === undefined ? "" : html`<p>Headline flips (<a href="#${comparisonAnchor(head.comparison)}">${head.comparison}</a>): <b>${c.flips.confirmed}</b> confirmed (a reviewer confirmed at least one cause), <b>${c.flips.false_positive}</b> false positive (every cause rejected), <b>${c.flips.unclear}</b> unclear, <b>${c.flips.unreviewed}</b> unreviewed.</p>`}
${table(
  [
    { label: "grader", value: (r) => graderLabel(r.grader) },
    { label: "cause", value: (r) => r.kind.replaceAll("_", " ") },
    ...precisionColumns(),
  ],
  d.precisionByKind,
  { caption: "Precision per cause kind", id: "precision-by-kind" },
)}
${table(
  [
    { label: "grader", value: (r) => graderLabel(r.grader) },
    { label: "cause", value: (r) => r.kind.replaceAll("_", " ") },
    { label: "rule / reference", value: (r) => r.reference },
    ...precisionColumns(),
  ],
  d.precisionByRule,
  { caption: "Precision per rule", id: "precision-by-rule" },
)}
${
  d.staleReviews.length === 0
    ? html``
    : table(
        [
          { label: "simulation", value: (r) => r.simulation_id },
          { label: "file", value: (r) => r.path },
          { label: "cause", value: (r) => r.cause },
          { label: "verdict", value: (r) => r.verdict },
          { label: "why stale", value: (r) => r.stale_reason },
          { label: "reason", value: (r) => r.reason },
        ],
        d.staleReviews,
        { caption: "Stale reviews (not applied)", id: "stale-reviews" },
      )
}`;
}

export function excludedSection(d: ReportData): SafeHtml {
  const list = d.summary.excluded_files;
  const tasks = d.summary.excluded_tasks;
  return html`<h2 id="excluded">Excluded files (${list.length}) and tasks (${tasks.length})</h2>
<p class="muted">The experiment excludes these files and tasks from every headline number (pass rates, flips, flip rates, precision) and from the rankings; their flips still appear in the flips table, marked.</p>
${table(
  [
    { label: "file", value: (r) => r.path },
    { label: "simulations", value: (r) => r.simulations },
    { label: "reason", value: (r) => r.reason },
  ],
  list,
  { caption: "Excluded files", id: "excluded-files" },
)}
${table(
  [
    { label: "domain", value: (r) => r.domain },
    { label: "task set", value: (r) => r.task_version ?? "any" },
    { label: "task", value: (r) => r.task_id },
    { label: "simulations", value: (r) => r.simulations },
    { label: "reason", value: (r) => r.reason },
  ],
  tasks,
  { caption: "Excluded tasks", id: "excluded-tasks" },
)}`;
}

/**
 * A reproduced pass^1 with its interval and its difference from the published one (in parentheses or
 * not); "–" where nothing was graded.
 */
export function reproducedCell(
  rate: number | null,
  lo: number | null,
  hi: number | null,
  difference: number | null,
  differenceIn: "parentheses" | "plain" = "parentheses",
): string {
  if (rate === null) return "–";
  const shown = difference === null ? "" : points(difference);
  return `${pct(rate)} [${pct(lo)}, ${pct(hi)}] ${differenceIn === "parentheses" ? `(${shown})` : shown}`;
}

/** The row's verdict as the report states it: a `no` with what the tool can see. */
export const publishedVerdict = (r: PublishedRow): string =>
  r.verdict === "no" ? `no: ${r.reason ?? ""}` : r.verdict;

/** Each leaderboard submission's published pass^1 beside the one its files reproduce, and the metadata-only ones. */
export function publishedSection(d: ReportData): SafeHtml {
  const rows = d.summary.published_vs_reproduced;
  const bare = d.summary.submissions_without_trajectories;
  const first = rows[0];
  const sides =
    first === undefined ? "" : ` under ${graderLabel(first.baseline)} and ${graderLabel(first.candidate)}`;
  return html`<h2 id="published">Published against reproduced (${rows.length})</h2>
<p class="muted">Per leaderboard submission (<code>submission.json</code>) with trajectories in the corpus and each domain it publishes: the pass^1 it publishes, and pass^1 recomputed from the files it covers${sides} (the headline comparison), with Wilson 95% intervals, the simulations and tasks behind it, and the infrastructure-error convention. A published number outside the baseline's interval is not reproduced; the reason lists what the tool can see. A domain whose every file the experiment excludes is not judged (its numbers are shown, with the exclusion's reason, and count neither way); a published domain without trajectories says so.</p>
${table(
  [
    { label: "submission", value: (r) => r.submission },
    { label: "model", value: (r) => r.model_name },
    { label: "domain", value: (r) => r.domain },
    { label: "published", value: (r) => pct(r.published_pass_1) },
    {
      label: "baseline",
      value: (r) => reproducedCell(r.baseline_pass_1, r.baseline_lo, r.baseline_hi, r.baseline_difference),
    },
    {
      label: "candidate",
      value: (r) =>
        reproducedCell(r.candidate_pass_1, r.candidate_lo, r.candidate_hi, r.candidate_difference),
    },
    { label: "simulations", value: (r) => r.simulations },
    {
      label: "tasks",
      value: (r) => (r.set_tasks === null ? String(r.tasks) : `${r.tasks} of ${r.set_tasks}`),
    },
    { label: "trials", value: (r) => trials(r) },
    { label: "infra errors", value: (r) => r.infrastructure_errors },
    { label: "reproduced", value: (r) => publishedVerdict(r) },
  ],
  rows,
  { caption: "Published against reproduced", id: "published-table" },
)}
${table(
  [
    { label: "submission", value: (r) => r.submission },
    { label: "model", value: (r) => r.model_name },
    { label: "organisation", value: (r) => r.submitting_organization },
    { label: "date", value: (r) => r.submission_date },
    { label: "published pass^1", value: (r) => r.published_pass_1 },
    { label: "", value: (r) => r.error ?? "no trajectories" },
  ],
  bare,
  { caption: `Submissions without trajectories (${bare.length})`, id: "published-without" },
)}`;
}

/** Trials per task: one number, a range where they differ, "–" where nothing was graded. */
export const trials = (r: PublishedRow): string =>
  r.min_trials === null || r.max_trials === null
    ? "–"
    : r.min_trials === r.max_trials
      ? String(r.min_trials)
      : `${r.min_trials}–${r.max_trials}`;

export function errorSection(d: ReportData): SafeHtml {
  return html`<h2 id="errors">Errors (${d.errorList.length})</h2>
<p class="muted">Files that could not be read or hold no simulations, and simulations that could not be graded: once per file and reason, with how many simulations it stopped (each simulation is in <code>error_list</code>).</p>
${table(
  [
    { label: "what", value: (r) => r.scope },
    { label: "file", value: (r) => r.path },
    { label: "stage", value: (r) => r.stage },
    { label: "simulations", value: (r) => r.simulations },
    { label: "reason", value: (r) => r.message },
  ],
  d.errorCauses,
  { caption: "Errors", id: "error-list" },
)}
${
  d.notTrajectories.length === 0
    ? html``
    : html`<details><summary>${d.notTrajectories.length} file(s) read that hold no trajectories</summary>
${table(
  [
    { label: "file", value: (r) => r.path },
    { label: "what was found", value: (r) => r.error },
  ],
  d.notTrajectories,
  { id: "not-trajectories" },
)}</details>`
}`;
}
