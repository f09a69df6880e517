/**
 * `report.html`: one self-contained page (inline CSS, inline SVG charts, one inline script, a CSP that
 * forbids every network request) with sortable tables, a drill-down for each flip and the conversation
 * behind it. Usable at 390 px: charts scale to the page down to the width that keeps their text at
 * `MIN_CHART_FONT_PX`, then scroll inside their box, as wide tables do.
 */
import { createHash } from "node:crypto";
import { NO_REPEATS } from "../analysis/noise-views.ts";
import type { ComparisonSummary, Rate } from "../analysis/summary.ts";
import { comparisonLabel, graderLabel } from "../charts/common.ts";
import { chartWarnings, type RenderedChart } from "../charts/index.ts";
import { comparisonAnchor } from "./anchors.ts";
import { causeKindGlossary } from "./cause-html.ts";
import { conversationSection } from "./conversation.ts";
import type { ComparisonData, ReportData } from "./data.ts";
import { html, type SafeHtml, sourceConstant } from "./escape.ts";
import { flipTable } from "./flip-table.ts";
import {
  errorSection,
  excludedSection,
  interval,
  publishedSection,
  reviewSection,
  runLine,
} from "./honesty.ts";
import { SORT_SCRIPT } from "./sort-script.ts";
import { num, pct, table } from "./table.ts";

const CSS = `
body { font: 14px/1.45 "DejaVu Sans", system-ui, sans-serif; margin: 0 auto; max-width: 1280px; padding: 0 24px 64px; color: #222; }
h1 { margin: 24px 0 4px; } h2 { margin-top: 40px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
nav { display: flex; flex-wrap: wrap; gap: 4px 14px; } .muted { color: #666; }
.run-line { color: #444; font-size: 13px; overflow-wrap: anywhere; }
.headline { display: flex; flex-wrap: wrap; gap: 12px; margin: 16px 0; }
.headline > div, .headline > a { border: 1px solid #ddd; border-radius: 6px; padding: 8px 14px; min-width: 120px; color: inherit; }
.headline > a { text-decoration: none; } .headline > a:hover { border-color: #4c78a8; }
.headline b { display: block; font-size: 22px; }
figure { margin: 24px 0; } figcaption { font-weight: bold; margin-bottom: 6px; }
figure img { max-width: 100%; height: auto; display: block; }
.chart { overflow-x: auto; max-width: 100%; } figcaption .note { display: block; font-weight: normal; color: #555; font-size: 13px; }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; margin: 12px 0; font-size: 13px; }
caption { text-align: left; font-weight: bold; padding: 4px 0; }
th, td { border: 1px solid #ddd; padding: 4px 8px; vertical-align: top; text-align: left; }
td { overflow-wrap: anywhere; max-width: 32em; } /* telecom task ids are long unbroken strings */
tr.flip td:last-child { text-align: left; min-width: 28em; max-width: 48em; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
th { background: #f4f4f4; cursor: pointer; user-select: none; }
th { min-width: 4em; } /* headers wrap between words, so a wide table fits a 1280 px page */
th[aria-sort="ascending"]::after { content: " ▲"; } th[aria-sort="descending"]::after { content: " ▼"; }
tr.flip details { max-width: 720px; } summary { cursor: pointer; }
.ev { margin: 6px 0; overflow-wrap: anywhere; } .ev .kind { font-weight: bold; } .ev.reported .kind, .ev.other .kind { font-weight: normal; font-style: italic; }
section.comparison { border-top: 3px solid #4c78a8; margin-top: 40px; } section.comparison h2 { border-bottom: none; margin-top: 12px; overflow-wrap: anywhere; }
.headline > div .muted { display: block; font-size: 12px; }
.quote { font-style: italic; margin: 2px 0; }
.excerpt, .args { white-space: pre-wrap; word-break: break-word; background: #f8f8f8; border-left: 3px solid #ccc; margin: 4px 0; padding: 4px 8px; font-family: "DejaVu Sans Mono", monospace; font-size: 12px; }
.pass_to_fail { color: #b00; } .fail_to_pass { color: #070; }
code { background: #f2f2f2; padding: 0 3px; border-radius: 3px; word-break: break-all; }
.badge { display: inline-block; font-size: 11px; border: 1px solid #bbb; border-radius: 8px; padding: 0 6px; color: #444; background: #fafafa; }
.badge.vacuous { border-color: #c90; color: #850; background: #fff8e0; } .badge.excluded { border-color: #999; color: #555; }
.rv { display: inline-block; font-size: 11px; border-radius: 8px; padding: 0 6px; border: 1px solid; white-space: nowrap; }
.rv-confirmed { color: #1b5e20; border-color: #2e7d32; background: #e8f5e9; }
.rv-false_positive { color: #8e1b1b; border-color: #c62828; background: #fdecea; }
.rv-unclear { color: #7a5200; border-color: #c98a00; background: #fff6e0; }
.rv-unreviewed { color: #555; border-color: #aaa; background: #f4f4f4; border-style: dashed; }
.rv-reason { color: #444; font-size: 12px; }
.conv { border-top: 2px solid #ddd; margin-top: 32px; padding-top: 4px; }
.conv h3 { margin: 8px 0 2px; overflow-wrap: anywhere; } .conv-meta { margin: 2px 0 8px; font-size: 13px; }
.conv-meta code.sim-id { font-weight: bold; }
.task dl { margin: 6px 0; } .task dt { font-weight: bold; margin-top: 4px; }
.task dd { margin: 0 0 0 12px; white-space: pre-wrap; overflow-wrap: anywhere; }
.gold li { margin: 2px 0; } .gold .args { display: block; }
table.components td.basis { font-weight: bold; } table.components td.off-basis { color: #666; }
table.components th[scope="row"] { background: #f4f4f4; cursor: default; }
table.components td:empty::after { content: "–"; color: #666; }
.causes ul { padding-left: 20px; } .glossary dt { font-weight: bold; } .glossary dd { margin: 0 0 4px 12px; }
ol.msgs { list-style: none; padding: 0; margin: 12px 0; }
.msg { border: 1px solid #e2e2e2; border-left: 4px solid #ccc; border-radius: 4px; margin: 6px 0; padding: 4px 10px; scroll-margin-top: 12px; }
.msg.user { border-left-color: #4c78a8; background: #f5f8fc; } .msg.assistant { border-left-color: #999; }
.msg.tool { background: #fafafa; font-size: 13px; } .msg.system { background: #fbf7ef; }
.msg.write { border-left-color: #b279a2; }
.msg.hit { border-left: 6px solid #d62728; background: #fff1f0; }
.msg:target { outline: 3px solid #f58518; outline-offset: 2px; }
.msg .meta { font-size: 12px; color: #555; } .msg .meta a { color: inherit; }
.msg .text { white-space: pre-wrap; overflow-wrap: anywhere; margin: 2px 0; }
.msg .call { margin: 4px 0; } .hit-label { color: #b00; font-weight: bold; }
.pass { color: #070; } .fail { color: #b00; } .unknown { color: #850; }
a.cause-link { color: #1a4f8b; }
.badge, .pass_to_fail, .fail_to_pass { white-space: nowrap; }
@media (max-width: 640px) {
  body { padding: 0 10px 48px; } h1 { font-size: 24px; } figcaption { font-size: 13px; }
  .headline > div, .headline > a { min-width: 0; flex: 1 1 40%; padding: 6px 10px; }
  /* Words keep their width, so a wide table scrolls in its box instead of wrapping letter by letter. */
  td { overflow-wrap: break-word; min-width: 3em; }
  tr.flip td:last-child { min-width: 18em; }
}
`;

function headline(d: ReportData): SafeHtml {
  const s = d.summary;
  const box = (label: string, value: string | number) => html`<div><b>${value}</b>${label}</div>`;
  const link = (href: string, label: string, value: string | number) =>
    html`<a href="${href}"><b>${value}</b>${label}</a>`;
  const excludedSims = s.excluded_files.reduce((n, f) => n + f.simulations, 0);
  const head = d.comparisons.find((k) => k.headline);
  return html`<div class="headline">
${box("simulations", s.simulations)}${box("graded", s.graded)}${link("#errors", "errors (list)", s.errors + d.errorList.filter((e) => e.scope === "file").length)}
${link("#excluded", "in excluded files", excludedSims)}${link("#excluded", "excluded tasks", s.excluded_tasks.length)}
${
  head === undefined
    ? ""
    : html`${link(`#${comparisonAnchor(head.ref.comparison)}`, `headline flips pass → fail (${comparisonLabel(head.ref)})`, s.flips.pass_to_fail)}${box("headline flips fail → pass", s.flips.fail_to_pass)}
${link("#reviews", "headline flips confirmed", s.reviews.flips.confirmed)}${link("#reviews", "headline flips unreviewed", s.reviews.flips.unreviewed)}`
}
</div>
<p class="muted">Pass rates, flips and rankings below leave out the ${s.excluded_files.length} excluded file(s) (${excludedSims} simulations) and the ${s.excluded_tasks.length} excluded task(s) (<a href="#excluded">reasons</a>).</p>
${comparisonList(d)}`;
}

/** The run's comparisons, headline first, each with its flips and a link to its section. */
function comparisonList(d: ReportData): SafeHtml {
  return table(
    [
      {
        label: "comparison",
        value: (k) => k.ref.comparison,
        format: (v, k) =>
          html`<a href="#${comparisonAnchor(k.ref.comparison)}">${v}</a>${k.headline ? html` <span class="badge">headline</span>` : ""}`,
      },
      { label: "baseline", value: (k) => graderLabel(k.ref.baseline) },
      { label: "candidate", value: (k) => graderLabel(k.ref.candidate) },
      { label: "pass → fail", value: (k) => summaryOf(d, k).flips.pass_to_fail },
      { label: "fail → pass", value: (k) => summaryOf(d, k).flips.fail_to_pass },
      {
        label: "flip rate [95% CI]",
        value: (k) => summaryOf(d, k).flip_rate.value,
        format: (v, k) => `${pct(v)} ${rateInterval(summaryOf(d, k).flip_rate)}`,
      },
      {
        label: "precision [95% CI]",
        value: (k) => summaryOf(d, k).precision.value,
        format: (v, k) => `${pct(v)} ${rateInterval(summaryOf(d, k).precision)}`,
      },
    ],
    d.comparisons,
    { caption: "Comparisons (outside excluded files and tasks)", id: "comparisons" },
  );
}

const EMPTY_SUMMARY: ComparisonSummary = {
  baseline: "",
  candidate: "",
  headline: false,
  paired: 0,
  flips: { pass_to_fail: 0, fail_to_pass: 0 },
  flip_rate: { value: null, lo: null, hi: null },
  pass_rates: { baseline: null, candidate: null },
  mcnemar: { b: 0, c: 0, method: "none", p_value: null },
  reviews: { confirmed: 0, false_positive: 0, unclear: 0, unreviewed: 0 },
  confirmed_flip_rate: { value: null, lo: null, hi: null },
  precision: { value: null, lo: null, hi: null },
  recall: { value: null, lo: null, hi: null, real_violations: 0, caught: 0 },
  miss_rate: {
    value: null,
    lo: null,
    hi: null,
    sampled: 0,
    clean: 0,
    missed: 0,
    unclear: 0,
    stale: 0,
    both_pass: 0,
    weighted: null,
    seeds: [],
  },
  reward_agreement: { with_baseline_reward: 0, same_reward: 0 },
  rankings: {},
};
/** A p-value to four places; below that, as a bound. */
export const pValue = (p: number | null): string => (p === null ? "–" : p < 1e-4 ? "< 0.0001" : num(4)(p));

const summaryOf = (d: ReportData, k: ComparisonData): ComparisonSummary =>
  d.summary.comparisons[k.ref.comparison] ?? EMPTY_SUMMARY;
const rateInterval = (r: Rate) => interval(r.lo, r.hi);

/** A comparison's headline: its flips, rates, test, rank agreement and what review made of its flips. */
function comparisonHeadline(d: ReportData, k: ComparisonData): SafeHtml {
  const s = summaryOf(d, k);
  const box = (label: string, value: string | number, detail = "") =>
    html`<div><b>${value}</b>${label}${detail === "" ? "" : html` <span class="muted">${detail}</span>`}</div>`;
  const p = s.mcnemar.p_value;
  const taus = Object.entries(s.rankings).map(([domain, r]) => {
    const [lo, hi] = r.kendall_tau_b_ci;
    return box(
      `Kendall τ-b, ${domain}`,
      r.kendall_tau_b === null ? "–" : num(3)(r.kendall_tau_b),
      lo === null || hi === null ? "" : `[${num(3)(lo)}, ${num(3)(hi)}]`,
    );
  });
  const swaps = Object.values(s.rankings).reduce((n, r) => n + r.swapped_pairs.length, 0);
  return html`<div class="headline">
${box("flips pass → fail", s.flips.pass_to_fail)}${box("flips fail → pass", s.flips.fail_to_pass)}
${box("flip rate", pct(s.flip_rate.value), rateInterval(s.flip_rate))}
${box(`McNemar p (${s.mcnemar.method.replaceAll("_", " ")})`, pValue(p))}
${taus}${box("swapped pairs", swaps)}
${box("confirmed-only flip rate", pct(s.confirmed_flip_rate.value), rateInterval(s.confirmed_flip_rate))}
${box("flips confirmed", s.reviews.confirmed)}${box("false positive", s.reviews.false_positive)}${box("unreviewed", s.reviews.unreviewed)}
${box("precision", pct(s.precision.value), rateInterval(s.precision))}
${
  s.miss_rate.sampled + s.miss_rate.stale === 0
    ? box("miss rate", "–", "no sampled review")
    : box(
        `miss rate (${s.miss_rate.missed} missed / ${s.miss_rate.clean + s.miss_rate.missed} sampled)`,
        pct(s.miss_rate.value),
        rateInterval(s.miss_rate),
      )
}
${box(`recall (${s.recall.caught} / ${s.recall.real_violations})`, pct(s.recall.value), rateInterval(s.recall))}
${box("rewards equal", `${s.reward_agreement.same_reward} / ${s.reward_agreement.with_baseline_reward}`)}
</div>`;
}

/** Per domain and overall: pass rates, flips, their review, precision and recall. */
function domainTable(k: ComparisonData, id: string): SafeHtml {
  const b = graderLabel(k.ref.baseline);
  const c = graderLabel(k.ref.candidate);
  return table(
    [
      { label: "domain", value: (r) => r.domain },
      { label: "paired", value: (r) => r.paired },
      { label: `${b} pass rate`, value: (r) => r.baseline_pass_rate, format: pct },
      { label: `${c} pass rate`, value: (r) => r.candidate_pass_rate, format: pct },
      { label: "pass → fail", value: (r) => r.pass_to_fail },
      { label: "fail → pass", value: (r) => r.fail_to_pass },
      {
        label: "flip rate [95% CI]",
        value: (r) => r.flip_rate,
        format: (v, r) => `${pct(v)} ${interval(r.flip_rate_lo, r.flip_rate_hi)}`,
      },
      { label: "confirmed", value: (r) => r.confirmed },
      { label: "false positive", value: (r) => r.false_positive },
      { label: "unclear", value: (r) => r.unclear },
      { label: "unreviewed", value: (r) => r.unreviewed },
      {
        label: "confirmed flip rate [95% CI]",
        value: (r) => r.confirmed_flip_rate,
        format: (v, r) => `${pct(v)} ${interval(r.confirmed_flip_rate_lo, r.confirmed_flip_rate_hi)}`,
      },
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
    k.domains,
    {
      caption: "By domain (outside excluded files and tasks)",
      id,
    },
  );
}

/** No chart text is drawn smaller than this on a narrow screen: the chart scrolls in its box instead. */
export const MIN_CHART_FONT_PX = 10;

/**
 * The narrowest a chart may be drawn so that its smallest text stays at `MIN_CHART_FONT_PX`: its width
 * scaled by that over its smallest font size (wider than drawn when some text is smaller than that;
 * null when it has no sized text or no width).
 */
export function chartMinWidth(svg: string, minFontPx = MIN_CHART_FONT_PX): number | null {
  const width = /<svg[^>]*\swidth="([\d.]+)"/.exec(svg)?.[1];
  const sizes = [...svg.matchAll(/font-size="([\d.]+)(?:px)?"/g)].map((m) => Number(m[1]));
  if (width === undefined || sizes.length === 0) return null;
  const smallest = Math.min(...sizes);
  return Math.ceil((Number(width) * minFontPx) / smallest);
}

/** A chart's caption: its title and what it leaves out. */
const chartCaption = (c: RenderedChart) =>
  html`${c.title}${c.note ? html`<span class="note">${c.note}.</span>` : ""}`;

function chartFigure(c: RenderedChart): SafeHtml {
  if (c.failure?.stage === "vega")
    return html`<figure id="chart-${c.name}">
<figcaption>${chartCaption(c)} <span class="muted">(<a href="${c.files.spec}">vega-lite</a>)</span></figcaption>
<p class="unknown">Chart not drawn: ${c.failure.reason}</p>
</figure>`;
  const png =
    c.failure === null
      ? html`<a href="${c.files.png}">PNG</a>`
      : html`<span class="unknown">PNG not drawn: ${c.failure.reason}</span>`;
  const min = chartMinWidth(c.svg);
  const size = /<svg[^>]*\swidth="([\d.]+)"[^>]*\sheight="([\d.]+)"/.exec(c.svg);
  // The SVG file beside the page, drawn once (not inlined): scaled to the page down to `min`; narrower,
  // the chart scrolls in its own box.
  return html`<figure id="chart-${c.name}">
<figcaption>${chartCaption(c)} <span class="muted">(<a href="${c.files.spec}">vega-lite</a> · <a href="${c.files.svg}">SVG</a> · ${png})</span></figcaption>
<div class="chart"><img src="${c.files.svg}" alt="${c.title}"${size === null ? "" : html` width="${size[1]}" height="${size[2]}"`}${min === null ? "" : html` style="min-width: ${min}px"`} loading="lazy"></div>
</figure>`;
}

/** The charts' warnings, counted, above the charts (nothing when there are none). */
function chartWarningList(charts: readonly RenderedChart[]): SafeHtml {
  const warnings = chartWarnings(charts);
  if (warnings.length === 0) return html``;
  return html`<p class="unknown" id="chart-warnings">${warnings.length} chart warning(s):</p>
<ul class="unknown">${warnings.map((w) => html`<li>${w}</li>`)}</ul>
`;
}

function rankingSection(k: ComparisonData, id: string): SafeHtml {
  type Row = ComparisonData["ranking"][number];
  const b = graderLabel(k.ref.baseline);
  const c = graderLabel(k.ref.candidate);
  const withCi = (p: keyof Row, lo: keyof Row, hi: keyof Row) =>
    ({
      value: (r: Row) => r[p] as number | null,
      format: (v: unknown, r: Row) => `${pct(v as number | null)} ${interval(r[lo], r[hi])}`,
    }) as const;
  return html`${table(
    [
      { label: "domain", value: (r) => r.domain },
      { label: "task set", value: (r) => r.task_version },
      { label: "model", value: (r) => r.model },
      { label: `${b} rank`, value: (r) => r.baseline_rank },
      { label: `${b} pass^1 [95% CI]`, ...withCi("baseline_pass1", "baseline_lo", "baseline_hi") },
      { label: `${c} rank`, value: (r) => r.candidate_rank },
      { label: `${c} pass^1 [95% CI]`, ...withCi("candidate_pass1", "candidate_lo", "candidate_hi") },
    ],
    k.ranking,
    { caption: "Ranking per group", id: `${id}-ranking` },
  )}
${table(
  [
    { label: "domain", value: (r) => r.domain },
    { label: "task set", value: (r) => r.task_version },
    { label: "model pairs", value: (r) => r.pairs },
    { label: "concordant", value: (r) => r.concordant },
    { label: "discordant", value: (r) => r.discordant },
    { label: "Kendall τ-b", value: (r) => r.tau_b, format: num(3) },
    {
      label: "bootstrap 95% CI",
      value: (r) => r.tau_b_lo,
      format: (_, r) => (r.tau_b_lo === null ? "–" : `[${num(3)(r.tau_b_lo)}, ${num(3)(r.tau_b_hi)}]`),
    },
  ],
  k.agreement,
  { caption: `Rank agreement (${b} vs ${c})`, id: `${id}-agreement` },
)}
${table(
  [
    { label: "domain", value: (r) => r.domain },
    { label: "task set", value: (r) => r.task_version },
    { label: "model A", value: (r) => r.model_a },
    { label: "model B", value: (r) => r.model_b },
  ],
  k.swapped,
  { caption: "Swapped pairs", id: `${id}-swapped` },
)}`;
}

function causeSection(k: ComparisonData, id: string): SafeHtml {
  const c = graderLabel(k.ref.candidate);
  return html`${table(
    [
      { label: "failing side", value: (r) => graderLabel(r.grader) },
      { label: "domain", value: (r) => r.domain },
      { label: "cause", value: (r) => r.cause_kind.replaceAll("_", " ") },
      { label: "reference", value: (r) => r.reference },
      { label: "direction", value: (r) => r.direction },
      { label: "flips", value: (r) => r.flips },
      { label: "confirmed", value: (r) => r.confirmed },
      { label: "false positive", value: (r) => r.false_positive },
      { label: "unclear", value: (r) => r.unclear },
      { label: "unreviewed", value: (r) => r.unreviewed },
    ],
    k.flipsByCause,
    { caption: "Flips by cause and review (outside excluded files and tasks)", id: `${id}-flips-by-cause` },
  )}
${table(
  [
    { label: "domain", value: (r) => r.domain },
    { label: "cause", value: (r) => r.cause_kind.replaceAll("_", " ") },
    { label: "gating", value: (r) => (r.gates ? "yes" : "reported only") },
    { label: "flips", value: (r) => r.flips },
    { label: `${graderLabel(k.ref.baseline)}-passing simulations with it`, value: (r) => r.simulations },
  ],
  k.causeKinds,
  {
    caption: `${c}'s cause kinds among the simulations ${graderLabel(k.ref.baseline)} passes (outside excluded files and tasks)`,
    id: `${id}-cause-kinds`,
  },
)}
${table(
  [
    { label: "domain", value: (r) => r.domain },
    { label: "action", value: (r) => r.action },
    { label: "kind", value: (r) => r.kind },
    { label: "simulations", value: (r) => r.simulations },
    { label: "flips among callers", value: (r) => r.flips_among_callers },
    { label: "flips caused", value: (r) => r.flips_attributed },
    {
      label: `score delta (${c} − ${graderLabel(k.ref.baseline)})`,
      value: (r) => r.score_delta,
      format: pct,
    },
  ],
  k.actions,
  {
    caption: "Flips and score delta by action (actions in at least one flipped simulation)",
    id: `${id}-actions`,
  },
)}`;
}

function vacuousSection(d: ReportData): SafeHtml {
  return html`<h2 id="vacuous-section">Vacuous scores</h2>
${table(
  [
    { label: "domain", value: (r) => r.domain },
    { label: "grader", value: (r) => graderLabel(r.grader) },
    { label: "component", value: (r) => r.component },
    { label: "in basis", value: (r) => r.in_basis },
    { label: "vacuous (nothing to check)", value: (r) => r.vacuous_in_basis },
    {
      label: "share",
      value: (r) => (r.in_basis === 0 ? null : r.vacuous_in_basis / r.in_basis),
      format: pct,
    },
  ],
  d.vacuous,
  {
    caption: "Vacuous scores: reward-basis components scored 1.0 because there was nothing to check",
    id: "vacuous",
  },
)}`;
}

function modelSection(k: ComparisonData, id: string): SafeHtml {
  return html`${table(
    [
      { label: "domain", value: (r) => r.domain },
      { label: "model", value: (r) => r.model },
      { label: "n", value: (r) => r.n },
      { label: "pass → fail", value: (r) => r.pass_to_fail },
      {
        label: "rate [95% CI]",
        value: (r) => r.pass_to_fail_rate,
        format: (v, r) => `${pct(v)} ${interval(r.pass_to_fail_lo, r.pass_to_fail_hi)}`,
      },
      { label: "fail → pass", value: (r) => r.fail_to_pass },
      {
        label: "rate [95% CI] ",
        value: (r) => r.fail_to_pass_rate,
        format: (v, r) => `${pct(v)} ${interval(r.fail_to_pass_lo, r.fail_to_pass_hi)}`,
      },
      { label: "confirmed flips", value: (r) => r.confirmed_flips },
      {
        label: "confirmed rate [95% CI]",
        value: (r) => r.confirmed_flip_rate,
        format: (v, r) => `${pct(v)} ${interval(r.confirmed_flip_rate_lo, r.confirmed_flip_rate_hi)}`,
      },
      { label: "unreviewed flips", value: (r) => r.unreviewed_flips },
    ],
    k.flipRates,
    {
      caption:
        "Flip rates by model, raw and counting only reviewer-confirmed flips (Wilson intervals; excluded files and tasks left out)",
      id: `${id}-flip-rates`,
    },
  )}
${table(
  [
    { label: "domain", value: (r) => r.domain },
    { label: "model", value: (r) => r.model },
    { label: "n", value: (r) => r.n },
    { label: "pass → fail (b)", value: (r) => r.b },
    { label: "fail → pass (c)", value: (r) => r.c },
    { label: "test", value: (r) => r.method },
    { label: "p", value: (r) => r.p_value, format: num(4) },
  ],
  k.mcnemar,
  { caption: "McNemar test per model", id: `${id}-mcnemar` },
)}`;
}

/** Per domain: what the sampled both-pass simulations say both sides missed (nothing when none was sampled). */
function missRateTable(k: ComparisonData, id: string): SafeHtml {
  if (k.missRates.length === 0) return html``;
  return html`<p class="muted">Simulations both sides pass, drawn at random per domain (<code>review sample</code>) and read whole by a reviewer: missed when the agent broke a rule or the user's wishes and neither side failed it. Miss rate = missed / (clean + missed), Wilson 95%; the <code>all</code> row pools the samples as drawn (equal per domain, not weighted by domain size). Stale reviews (the simulation changed or no longer passes both sides) count apart.</p>
${table(
  [
    { label: "domain", value: (r) => r.domain },
    { label: "both pass", value: (r) => r.both_pass },
    { label: "sampled", value: (r) => r.sampled },
    { label: "clean", value: (r) => r.clean },
    { label: "missed", value: (r) => r.missed },
    { label: "unclear", value: (r) => r.unclear },
    {
      label: "miss rate [95% CI]",
      value: (r) => r.miss_rate,
      format: (v, r) => `${pct(v)} ${interval(r.miss_rate_lo, r.miss_rate_hi)}`,
    },
    { label: "stale", value: (r) => r.stale },
    { label: "seeds", value: (r) => r.seeds ?? "–" },
  ],
  k.missRates,
  { caption: "Miss rate per domain (sampled simulations both sides pass)", id },
)}`;
}

/** Per side that records it: how many simulations had a fixture, facts, or nothing to check beyond τ³. */
function coverageTable(k: ComparisonData, id: string): SafeHtml {
  if (k.coverage.length === 0) return html``;
  return html`<p class="muted">What each side could check beyond the conversation's DB and tool calls: a requirement fixture applies where every quote it relies on stands in the simulation's own task; facts come with it. A skipped fixture was written for the task, but its quotes are not in this simulation's task text. Clauses: policy clauses verified for the domain, on average.</p>
${table(
  [
    { label: "side", value: (r) => r.side },
    { label: "grader", value: (r) => graderLabel(r.grader) },
    { label: "domain", value: (r) => r.domain },
    { label: "simulations", value: (r) => r.simulations },
    { label: "with a fixture", value: (r) => r.with_fixture },
    { label: "with facts", value: (r) => r.with_facts },
    { label: "with none", value: (r) => r.with_none },
    { label: "fixture skipped", value: (r) => r.fixture_skipped },
    { label: "not graded", value: (r) => r.simulations - r.graded },
    { label: "clauses", value: (r) => r.clauses_applicable, format: num(1) },
  ],
  k.coverage,
  { caption: "Coverage: what each side had to check, per domain", id },
)}`;
}

const signedPct = (v: number | null): string =>
  v === null ? "–" : `${v > 0 ? "+" : v < 0 ? "−" : "±"}${pct(Math.abs(v))}`;
const signedInterval = (lo: number | null, hi: number | null): string =>
  lo === null || hi === null ? "" : `[${signedPct(lo)}, ${signedPct(hi)}]`;

/** The grader's shift of each configuration's pass rate beside the spread of re-running the agent. */
function noiseTable(k: ComparisonData, id: string): SafeHtml {
  if (k.noise.length === 0) return html``;
  const measured = k.noise.filter((r) => r.verdict !== NO_REPEATS);
  const others = k.noise.length - measured.length;
  return html`<p class="muted">Does changing the grader move a score more than re-running the agent would? Per run configuration with repeated runs (agent and user simulator with their models and arguments, domain, task set): the pass-rate shift from ${graderLabel(k.ref.baseline)} to ${graderLabel(k.ref.candidate)} with its interval over resampled trials, beside 95% of the change one re-run of the agent makes to ${graderLabel(k.ref.baseline)}'s pass rate (trials resampled within tasks). Rows of excluded files are marked and stay out of headline figures. ${measured.length === 0 ? html`<strong>${NO_REPEATS}</strong>: no configuration ran a task more than once.` : others === 0 ? "" : `${others} configuration(s) without repeated runs (${NO_REPEATS}) are in grader_effect_vs_noise.csv.`}</p>
${table(
  [
    { label: "configuration", value: (r) => r.configuration },
    { label: "excluded", value: (r) => (r.excluded ? "yes" : "") },
    { label: "simulations", value: (r) => r.simulations },
    { label: "flips", value: (r) => r.flips },
    { label: "baseline pass", value: (r) => r.baseline_pass_rate, format: (v) => pct(v) },
    { label: "candidate pass", value: (r) => r.candidate_pass_rate, format: (v) => pct(v) },
    {
      label: "shift [95%]",
      value: (r) => r.shift,
      format: (_, r) => `${signedPct(r.shift)} ${signedInterval(r.shift_lo, r.shift_hi)}`,
    },
    {
      label: "one re-run moves it [95%]",
      value: (r) => r.noise_lo,
      format: (_, r) => signedInterval(r.noise_lo, r.noise_hi) || "–",
    },
    { label: "verdict", value: (r) => r.verdict },
  ],
  measured,
  { caption: "The grader's effect beside re-running the agent, per configuration", id },
)}`;
}

/** Whether the grader swaps two ranked entries, beside how often re-running the agents does. */
function rankingNoiseTable(k: ComparisonData, id: string): SafeHtml {
  const pairs = k.rankingNoise;
  if (pairs.length === 0) return html``;
  const swapped = pairs.filter((r) => r.grader_swaps).length;
  const lead = `Ranking beside re-running the agents: changing the grader swaps ${swapped} of ${pairs.length} pair(s) of ranked entries.`;
  if (!pairs.some((r) => r.repeated))
    return html`<p class="muted">${lead} No ranked entry ran a task more than once: <strong>${NO_REPEATS}</strong>.</p>`;
  const shown = pairs.filter((r) => r.grader_swaps || r.repeated);
  return html`<p class="muted">${lead} For pairs with repeated runs, the share of re-runs (trials resampled within tasks, ${graderLabel(k.ref.baseline)}) that put them in the other order; all pairs are in ranking_swaps_vs_noise.csv.</p>
${table(
  [
    { label: "domain", value: (r) => r.domain },
    { label: "task set", value: (r) => r.task_version },
    {
      label: `${graderLabel(k.ref.baseline)} order`,
      value: (r) => r.model_a,
      format: (_, r) =>
        r.baseline_a >= r.baseline_b ? `${r.model_a} ≥ ${r.model_b}` : `${r.model_b} > ${r.model_a}`,
    },
    { label: "grader swaps", value: (r) => (r.grader_swaps ? "yes" : "no") },
    {
      label: "re-runs that swap",
      value: (r) => r.rerun_swap_share,
      format: (v, r) => (v === null ? (r.repeated ? "– (tied)" : NO_REPEATS) : pct(v as number)),
    },
  ],
  shown,
  { caption: "Ranked pairs: the grader's swap beside re-running's", id },
)}`;
}

/** One comparison: its headline numbers first, then its charts, models, rankings and causes. */
function comparisonSection(d: ReportData, k: ComparisonData, charts: readonly RenderedChart[]): SafeHtml {
  const id = comparisonAnchor(k.ref.comparison);
  const mine = charts.filter((c) => c.comparison === k.ref.comparison);
  const excluded = d.drilldown.filter(
    (f) => f.flip.comparison === k.ref.comparison && f.flip.excluded,
  ).length;
  return html`<section class="comparison" id="${id}">
<h2>${comparisonLabel(k.ref)} <span class="muted">(<code>${k.ref.comparison}</code>)</span>${k.headline ? html` <span class="badge">headline</span>` : ""}</h2>
<p class="muted">Baseline ${graderLabel(k.ref.baseline)}, candidate ${graderLabel(k.ref.candidate)}, paired on the same simulations; a flip fails on one side and passes on the other. ${k.flipCount} flip(s) in all${excluded === 0 ? "" : `, ${excluded} of them in excluded files or tasks`} (<a href="#flips">flips table</a>). Precision counts the flips a reviewer confirmed among those judged; a real violation is a pass → fail flip a reviewer confirmed in any comparison from ${graderLabel(k.ref.baseline)}, and recall is the share of them ${graderLabel(k.ref.candidate)} fails.</p>
${comparisonHeadline(d, k)}
${domainTable(k, `${id}-by-domain`)}
${missRateTable(k, `${id}-miss-rate`)}
${coverageTable(k, `${id}-coverage`)}
${noiseTable(k, `${id}-noise`)}
${mine.length === 0 ? html`<p class="empty">No chart has data for this comparison.</p>` : mine.map(chartFigure)}
<h3 id="${id}-models">Flips by model</h3>
${modelSection(k, id)}
<h3 id="${id}-ranking-section">Ranking</h3>
${rankingSection(k, id)}
${rankingNoiseTable(k, `${id}-ranking-noise`)}
<h3 id="${id}-causes">Causes and actions</h3>
${causeSection(k, id)}
</section>`;
}

function probeSection(d: ReportData): SafeHtml {
  if (d.probeCensus === null) return html``;
  return html`<h2 id="probes">Blind-spot census</h2>
${table(
  [
    { label: "domain", value: (r) => r.domain },
    { label: "task set", value: (r) => r.task_version },
    { label: "probe kind", value: (r) => r.kind },
    { label: "grader", value: (r) => r.grader },
    { label: "tasks", value: (r) => r.tasks },
    { label: "passes", value: (r) => r.pass },
    { label: "unknown", value: (r) => r.unknown },
  ],
  d.probeCensus,
  { id: "probe-census" },
)}`;
}

const excludedFlips = (d: ReportData) => d.drilldown.filter((f) => f.flip.excluded).length;

/** The script's hash goes into the CSP, so no other inline script could run even if one got in. */
const scriptHash = `sha256-${createHash("sha256").update(SORT_SCRIPT).digest("base64")}`;
/** Images: the chart SVGs in the report's own folder (`'self'`), nothing from elsewhere. */
const CSP = `default-src 'none'; style-src 'unsafe-inline'; script-src '${scriptHash}'; img-src data: 'self'`;

export function renderHtml(
  d: ReportData,
  charts: readonly RenderedChart[],
  title = "tau-rescore report",
): string {
  const shown = new Set(d.comparisons.map((k) => k.ref.comparison));
  // Charts of no comparison shown here (the probe census, say) go in a section of their own.
  const other = charts.filter((c) => c.comparison === null || !shown.has(c.comparison));
  const embedded = new Set(d.conversations.map((v) => v.sim.sim_key));
  const flipped = new Set(d.drilldown.map((f) => f.flip.sim_key));
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>${sourceConstant(CSS)}</style>
</head>
<body>
<h1>${title}</h1>
${runLine(d)}
<p class="muted">Each comparison grades the same simulations under two graders, a baseline and a candidate (or the reward the file recorded), and pairs their verdicts; the first is the headline. Click a column header to sort.</p>
<nav>${d.comparisons.map((k) => html`<a href="#${comparisonAnchor(k.ref.comparison)}">${k.ref.comparison}</a>`)}<a href="#reviews">reviews</a>${other.length === 0 ? "" : html`<a href="#charts">other charts</a>`}<a href="#vacuous-section">vacuous</a>${d.probeCensus === null ? "" : html`<a href="#probes">probes</a>`}<a href="#published">published</a><a href="#excluded">excluded</a><a href="#errors">errors</a><a href="#flips">flips (${d.flipCount})</a><a href="#conversations">conversations</a></nav>
${headline(d)}
${chartWarningList(charts)}${d.comparisons.length === 0 ? html`<p class="empty">The run declares no comparison.</p>` : d.comparisons.map((k) => comparisonSection(d, k, charts))}
${reviewSection(d)}
${
  other.length === 0
    ? ""
    : html`<h2 id="charts">Other charts</h2>
${other.map(chartFigure)}`
}
${vacuousSection(d)}
${probeSection(d)}
${publishedSection(d)}
${excludedSection(d)}
${errorSection(d)}
<h2 id="flips">Flips (${d.flipCount}${excludedFlips(d) === 0 ? "" : `, ${excludedFlips(d)} of them in excluded files or tasks`})</h2>
<p class="muted">One row per comparison and flipped simulation, excluded files and tasks included (marked). A row's evidence link goes to its conversation below: each cause of the failing side (requirement, policy clause, DB field, component, …), its turn and tool call, the facts that decided it and its review, each cause linked to its turn. Flips in excluded files and tasks have no conversation or evidence here (<code>tau-rescore report --all-conversations</code> embeds them).</p>
${causeKindGlossary(d.drilldown.flatMap((f) => [...f.causes, ...f.reported, ...f.other].map((c) => c.kind)))}
${flipTable(d.drilldown, embedded)}
${conversationSection(d.conversations, d.meta.allConversations, flipped.size - d.conversations.filter((v) => flipped.has(v.sim.sim_key)).length)}
<script>${sourceConstant(SORT_SCRIPT)}</script>
</body>
</html>
`;
  return page.value;
}
