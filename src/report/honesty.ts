/**
 * The parts of the report that say what it rests on: which run, tool version, experiment, config and
 * reviews, when it was written; the reviews and the precision they measure; the files left out of
 * headline numbers (with the experiment's reasons); and everything that could not be graded.
 */
import type { ReportData } from "./data.ts";
import { html, type SafeHtml } from "./escape.ts";
import { type Column, pct, table } from "./table.ts";

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
  return html`<p class="run-line">Run <code>${r.run_id}</code> of experiment <b>${r.experiment}</b> · tool version ${r.tool_version} · config hash <code title="${r.config_hash}">${r.config_hash.slice(0, 12)}</code> · ${reviews} · ${written}</p>`;
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

/** The structured grader's two gates, as a reader knows them. */
export const gateLabel = (grader: string): string =>
  grader === "structured" ? "default" : grader === "structured_strict" ? "strict" : grader;

/** Both gates side by side: flips, their review, precision and recall, per domain and overall. */
export function gateSection(d: ReportData): SafeHtml {
  return html`${table(
    [
      { label: "domain", value: (r) => r.domain },
      { label: "gate", value: (r) => gateLabel(r.grader) },
      { label: "pass → fail", value: (r) => r.pass_to_fail },
      { label: "confirmed", value: (r) => r.confirmed },
      { label: "false positive", value: (r) => r.false_positive },
      { label: "unclear", value: (r) => r.unclear },
      { label: "unreviewed", value: (r) => r.unreviewed },
      {
        label: "precision [95% CI]",
        value: (r) => r.precision,
        format: (v, r) => `${pct(v)} ${interval(r.precision_lo, r.precision_hi)}`,
      },
      { label: "real violations caught", value: (r) => `${r.caught} / ${r.real_violations}` },
      {
        label: "recall [95% CI]",
        value: (r) => r.recall,
        format: (v, r) => `${pct(v)} ${interval(r.recall_lo, r.recall_hi)}`,
      },
    ],
    d.gateSummary,
    {
      caption:
        "The two gates side by side (outside excluded files): default = off-reference writes fail unless a task permission or a policy permit licenses them; strict = every off-reference field fails. A real violation is a flip a reviewer confirmed under either gate; recall is the share of them a gate fails.",
      id: "gates",
    },
  )}
${table(
  [
    { label: "domain", value: (r) => r.domain },
    { label: "cause", value: (r) => r.cause_kind.replaceAll("_", " ") },
    { label: "gate", value: (r) => gateLabel(r.grader) },
    { label: "gating", value: (r) => (r.gates ? "yes" : "reported only") },
    { label: "flips", value: (r) => r.flips },
    { label: "τ³-passing simulations with it", value: (r) => r.simulations },
  ],
  d.causeKinds,
  {
    caption: "Cause kinds under each gate (τ³-passing simulations outside excluded files)",
    id: "cause-kinds",
  },
)}`;
}

export function reviewSection(d: ReportData): SafeHtml {
  const c = d.summary.reviews;
  const box = (label: string, value: number, cls = "") =>
    html`<div class="${cls}"><b>${value}</b>${label}</div>`;
  return html`<h2 id="reviews">Reviews and precision</h2>
<p class="muted">Reviewer verdicts on the flip causes of the structured grader's two gates (outside excluded files), matched to this run by each simulation's content fingerprint and the cause. A review whose simulation or cause is no longer in the run is stale and counts nowhere. Precision = confirmed / (confirmed + false positive), with Wilson 95% intervals.</p>
<div class="headline">
${box("causes confirmed", c.confirmed, "rv-confirmed")}${box("false positives", c.false_positive, "rv-false_positive")}${box("unclear", c.unclear, "rv-unclear")}${box("causes unreviewed", c.unreviewed, "rv-unreviewed")}${box("stale reviews", c.stale)}
</div>
${gateSection(d)}
<p>Default gate flips: <b>${c.flips.confirmed}</b> confirmed (a reviewer confirmed at least one cause), <b>${c.flips.false_positive}</b> false positive (every cause rejected), <b>${c.flips.unclear}</b> unclear, <b>${c.flips.unreviewed}</b> unreviewed.</p>
${table(
  [
    { label: "grader", value: (r) => r.grader },
    { label: "cause", value: (r) => r.kind.replaceAll("_", " ") },
    ...precisionColumns(),
  ],
  d.precisionByKind,
  { caption: "Precision per cause kind", id: "precision-by-kind" },
)}
${table(
  [
    { label: "grader", value: (r) => r.grader },
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
  return html`<h2 id="excluded">Excluded files (${list.length})</h2>
<p class="muted">The experiment excludes these files from every headline number (pass rates, flips, flip rates, precision) and from the rankings; their flips still appear in the flips table, marked.</p>
${table(
  [
    { label: "file", value: (r) => r.path },
    { label: "simulations", value: (r) => r.simulations },
    { label: "reason", value: (r) => r.reason },
  ],
  list,
  { caption: "Excluded files", id: "excluded-files" },
)}`;
}

export function errorSection(d: ReportData): SafeHtml {
  return html`<h2 id="errors">Errors (${d.errorList.length})</h2>
<p class="muted">Files that could not be read and simulations that could not be graded, each with the reason.</p>
${table(
  [
    { label: "what", value: (r) => r.scope },
    { label: "file", value: (r) => r.path },
    { label: "simulation", value: (r) => r.simulation_id },
    { label: "task", value: (r) => r.task_id },
    { label: "stage", value: (r) => r.stage },
    { label: "reason", value: (r) => r.message },
  ],
  d.errorList,
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
