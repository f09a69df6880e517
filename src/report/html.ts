/**
 * `report.html`: one self-contained page (inline CSS, inline SVG charts, one inline script, a CSP that
 * forbids every network request) with sortable tables and a drill-down for each flip.
 */
import { createHash } from "node:crypto";
import type { RenderedChart } from "../charts/index.ts";
import type { ReportData } from "./data.ts";
import { html, type SafeHtml, sourceConstant, trustedSvg } from "./escape.ts";
import { flipTable } from "./flip-table.ts";
import { SORT_SCRIPT } from "./sort-script.ts";
import { type Column, num, pct, table } from "./table.ts";

const CSS = `
body { font: 14px/1.45 "DejaVu Sans", system-ui, sans-serif; margin: 0 auto; max-width: 1280px; padding: 0 24px 64px; color: #222; }
h1 { margin: 24px 0 4px; } h2 { margin-top: 40px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
nav a { margin-right: 14px; } .muted { color: #666; }
.headline { display: flex; flex-wrap: wrap; gap: 12px; margin: 16px 0; }
.headline div { border: 1px solid #ddd; border-radius: 6px; padding: 8px 14px; min-width: 120px; }
.headline b { display: block; font-size: 22px; }
figure { margin: 24px 0; overflow-x: auto; } figcaption { font-weight: bold; margin-bottom: 6px; }
figure svg { max-width: none; height: auto; }
table { border-collapse: collapse; margin: 12px 0; font-size: 13px; }
caption { text-align: left; font-weight: bold; padding: 4px 0; }
th, td { border: 1px solid #ddd; padding: 4px 8px; vertical-align: top; text-align: left; }
td { overflow-wrap: anywhere; max-width: 32em; } /* telecom task ids are long unbroken strings */
tr.flip td:last-child { text-align: left; min-width: 28em; max-width: 48em; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
th { background: #f4f4f4; cursor: pointer; user-select: none; white-space: nowrap; }
th[aria-sort="ascending"]::after { content: " ▲"; } th[aria-sort="descending"]::after { content: " ▼"; }
tr.flip details { max-width: 720px; } summary { cursor: pointer; }
.ev { margin: 6px 0; } .ev .kind { font-weight: bold; } .ev.reported .kind, .ev.tau3 .kind { font-weight: normal; font-style: italic; }
.quote { font-style: italic; margin: 2px 0; }
.excerpt, .args { white-space: pre-wrap; word-break: break-word; background: #f8f8f8; border-left: 3px solid #ccc; margin: 4px 0; padding: 4px 8px; font-family: "DejaVu Sans Mono", monospace; font-size: 12px; }
.pass_to_fail { color: #b00; } .fail_to_pass { color: #070; }
code { background: #f2f2f2; padding: 0 3px; border-radius: 3px; word-break: break-all; }
`;

const interval = (lo: unknown, hi: unknown) =>
  typeof lo === "number" && typeof hi === "number" ? `[${pct(lo)}, ${pct(hi)}]` : "";

function headline(d: ReportData): SafeHtml {
  const s = d.summary;
  const box = (label: string, value: string | number) => html`<div><b>${value}</b>${label}</div>`;
  return html`<div class="headline">
${box("simulations", s.simulations)}${box("graded", s.graded)}${box("errors", s.errors)}
${box("flips pass → fail", s.flips.pass_to_fail)}${box("flips fail → pass", s.flips.fail_to_pass)}
</div>
${table(
  [
    { label: "domain", value: (r) => r[0] },
    { label: "τ³ pass rate", value: (r) => r[1].tau3_pass_rate, format: pct },
    { label: "structured pass rate", value: (r) => r[1].structured_pass_rate, format: pct },
    { label: "pass → fail", value: (r) => r[1].pass_to_fail },
    { label: "fail → pass", value: (r) => r[1].fail_to_pass },
  ] satisfies Column<[string, ReportData["summary"]["by_domain"][string]]>[],
  Object.entries(s.by_domain),
  { caption: "By domain", id: "by-domain" },
)}`;
}

function chartFigure(c: RenderedChart): SafeHtml {
  return html`<figure id="chart-${c.name}">
<figcaption>${c.title} <span class="muted">(<a href="${c.files.spec}">vega-lite</a> · <a href="${c.files.svg}">SVG</a> · <a href="${c.files.png}">PNG</a>)</span></figcaption>
${trustedSvg(c.svg)}
</figure>`;
}

function rankingSection(d: ReportData): SafeHtml {
  const withCi = (
    p: keyof ReportData["ranking"][number],
    lo: keyof ReportData["ranking"][number],
    hi: keyof ReportData["ranking"][number],
  ) =>
    ({
      value: (r: ReportData["ranking"][number]) => r[p] as number | null,
      format: (v: unknown, r: ReportData["ranking"][number]) =>
        `${pct(v as number | null)} ${interval(r[lo], r[hi])}`,
    }) as const;
  return html`${table(
    [
      { label: "domain", value: (r) => r.domain },
      { label: "task set", value: (r) => r.task_version },
      { label: "model", value: (r) => r.model },
      { label: "τ³ rank", value: (r) => r.tau3_rank },
      { label: "τ³ pass^1 [95% CI]", ...withCi("tau3_pass1", "tau3_lo", "tau3_hi") },
      { label: "structured rank", value: (r) => r.structured_rank },
      {
        label: "structured pass^1 [95% CI]",
        ...withCi("structured_pass1", "structured_lo", "structured_hi"),
      },
    ],
    d.ranking,
    { caption: "Ranking per group", id: "ranking" },
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
  d.agreement,
  { caption: "Rank agreement (τ³ vs structured)", id: "agreement" },
)}
${table(
  [
    { label: "domain", value: (r) => r.domain },
    { label: "task set", value: (r) => r.task_version },
    { label: "model A", value: (r) => r.model_a },
    { label: "model B", value: (r) => r.model_b },
  ],
  d.swapped,
  { caption: "Swapped pairs", id: "swapped" },
)}`;
}

function causeSection(d: ReportData): SafeHtml {
  return html`${table(
    [
      { label: "domain", value: (r) => r.domain },
      { label: "cause", value: (r) => r.cause_kind.replaceAll("_", " ") },
      { label: "reference", value: (r) => r.reference },
      { label: "direction", value: (r) => r.direction },
      { label: "flips", value: (r) => r.flips },
    ],
    d.flipsByCause,
    { caption: "Flips by cause", id: "flips-by-cause" },
  )}
${table(
  [
    { label: "domain", value: (r) => r.domain },
    { label: "action", value: (r) => r.action },
    { label: "kind", value: (r) => r.kind },
    { label: "simulations", value: (r) => r.simulations },
    { label: "flips among callers", value: (r) => r.flips_among_callers },
    { label: "flips caused", value: (r) => r.flips_attributed },
    { label: "score delta", value: (r) => r.score_delta, format: pct },
  ],
  d.actions,
  { caption: "Flips and score delta by action (actions in at least one flipped simulation)", id: "actions" },
)}
${table(
  [
    { label: "domain", value: (r) => r.domain },
    { label: "grader", value: (r) => r.grader },
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

function modelSection(d: ReportData): SafeHtml {
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
    ],
    d.flipRates,
    { caption: "Flip rates by model (Wilson intervals)", id: "flip-rates" },
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
  d.mcnemar,
  { caption: "McNemar test per model", id: "mcnemar" },
)}`;
}

function probeSection(d: ReportData): SafeHtml {
  if (d.probeCensus === null) return html``;
  return html`<h2 id="probes">Blind-spot census</h2>
${table(
  [
    { label: "domain", value: (r) => r.domain },
    { label: "task set", value: (r) => r.task_version },
    { label: "probe kind", value: (r) => r.kind },
    { label: "tasks", value: (r) => r.tasks },
    { label: "τ³ passes", value: (r) => r.tau3_pass },
    { label: "structured passes", value: (r) => r.structured_pass },
  ],
  d.probeCensus,
  { id: "probe-census" },
)}`;
}

/** The script's hash goes into the CSP, so no other inline script could run even if one got in. */
const scriptHash = `sha256-${createHash("sha256").update(SORT_SCRIPT).digest("base64")}`;
const CSP = `default-src 'none'; style-src 'unsafe-inline'; script-src '${scriptHash}'; img-src data:`;

export function renderHtml(
  d: ReportData,
  charts: readonly RenderedChart[],
  title = "tau-rescore report",
): string {
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
<p class="muted">τ³ (the tau2 grader, ported) against the structured grader, paired on the same simulations. Click a column header to sort.</p>
<nav><a href="#charts">charts</a><a href="#models">models</a><a href="#ranking-section">ranking</a><a href="#causes">causes</a>${d.probeCensus === null ? "" : html`<a href="#probes">probes</a>`}<a href="#flips">flips (${d.flipCount})</a></nav>
${headline(d)}
<h2 id="charts">Charts</h2>
${charts.length === 0 ? html`<p class="empty">No chart has data.</p>` : charts.map(chartFigure)}
<h2 id="models">Flips by model</h2>
${modelSection(d)}
<h2 id="ranking-section">Ranking</h2>
${rankingSection(d)}
<h2 id="causes">Causes and actions</h2>
${causeSection(d)}
${probeSection(d)}
<h2 id="flips">Flips (${d.flipCount})</h2>
<p class="muted">One row per flipped simulation; open a row's evidence for each cause behind it (requirement, delta-gate field, policy rule, …), its turn and tool call, and the facts that decided it.</p>
${flipTable(d.drilldown)}
<script>${sourceConstant(SORT_SCRIPT)}</script>
</body>
</html>
`;
  return page.value;
}
