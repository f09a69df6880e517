/**
 * `report.md`: the headline numbers, the flips, the rankings and links to the charts, as GitHub-
 * flavoured Markdown that can be pasted into an issue. Every value from the store goes through
 * `escapeMarkdown` (model names, task ids and causes come from trajectory files).
 */
import { chartWarnings, type RenderedChart } from "../charts/index.ts";
import type { ReportData } from "./data.ts";
import { escapeMarkdown } from "./escape.ts";
import { gateLabel } from "./honesty.ts";
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

/** Flip rows beyond this go to the HTML report (GitHub issues cap at 65,536 characters). */
const MAX_FLIP_ROWS = 200;

const md = (v: string | null | undefined) => (v === null || v === undefined ? "–" : escapeMarkdown(v));

/** Run id, experiment, tool version, config hash, reviews and date: what the numbers rest on. */
function provenance(d: ReportData): string {
  const r = d.summary.run;
  const reviews =
    d.meta.reviewsSource === null
      ? "reviews as the store holds them"
      : `reviews from ${md(d.meta.reviewsSource)}`;
  const written = `written ${md(d.meta.writtenAt)}`;
  if (r === null) return `No completed run in the store; ${written}.`;
  return `Run \`${r.run_id}\` of experiment **${md(r.experiment)}**, tool version ${md(r.tool_version)}, config hash \`${r.config_hash.slice(0, 12)}\`; ${reviews}; ${written}.`;
}

function reviewLines(d: ReportData): string[] {
  const c = d.summary.reviews;
  const interval = (lo: number | null, hi: number | null) =>
    lo === null || hi === null ? "" : ` [${pct(lo)}, ${pct(hi)}]`;
  return [
    "## Reviews and precision",
    "",
    `Flip causes (outside excluded files): **${c.confirmed}** confirmed, **${c.false_positive}** false positive, ` +
      `**${c.unclear}** unclear, **${c.unreviewed}** unreviewed; **${c.stale}** stale reviews (not applied). ` +
      `Default gate flips: **${c.flips.confirmed}** confirmed, **${c.flips.unreviewed}** unreviewed. ` +
      "Both gates side by side (a real violation is a flip a reviewer confirmed under either gate; recall is the share a gate fails):",
    "",
    mdTable(
      [
        "domain",
        "gate",
        "pass → fail",
        "confirmed",
        "false positive",
        "unclear",
        "unreviewed",
        "precision [95% CI]",
        "real violations caught",
        "recall [95% CI]",
      ],
      d.gateSummary.map((r) => [
        r.domain,
        gateLabel(r.grader),
        r.pass_to_fail,
        r.confirmed,
        r.false_positive,
        r.unclear,
        r.unreviewed,
        `${pct(r.precision)}${interval(r.precision_lo, r.precision_hi)}`,
        `${r.caught} / ${r.real_violations}`,
        `${pct(r.recall)}${interval(r.recall_lo, r.recall_hi)}`,
      ]),
    ),
    "",
    d.precisionByKind.length === 0
      ? "No applied review yet: precision is not measured."
      : mdTable(
          ["grader", "cause", "reviews", "confirmed", "false positive", "unclear", "precision [95% CI]"],
          d.precisionByKind.map((r) => [
            r.grader,
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

export function renderMarkdown(d: ReportData, charts: readonly RenderedChart[]): string {
  const s = d.summary;
  const excludedSims = s.excluded_files.reduce((n, f) => n + f.simulations, 0);
  const out: string[] = [
    "# tau-rescore report",
    "",
    provenance(d),
    "",
    `**${s.simulations}** simulations, **${s.graded}** graded, **${s.errors}** errors. ` +
      `Flips from τ³ to the structured grader: **${s.flips.pass_to_fail}** pass → fail, **${s.flips.fail_to_pass}** fail → pass. ` +
      `Pass rates and flips leave out ${s.excluded_files.length} excluded files (${excludedSims} simulations).`,
    "",
    mdTable(
      ["domain", "τ³ pass rate", "structured pass rate", "pass → fail", "fail → pass"],
      Object.entries(s.by_domain).map(([domain, v]) => [
        domain,
        pct(v.tau3_pass_rate),
        pct(v.structured_pass_rate),
        v.pass_to_fail,
        v.fail_to_pass,
      ]),
    ),
    "",
    "## Ranking",
    "",
  ];
  for (const [domain, g] of Object.entries(s.ranking)) {
    const tau = g.kendall_tau_b === null ? "–" : num(3)(g.kendall_tau_b);
    const [lo, hi] = g.kendall_tau_b_ci;
    const ci = lo === null || hi === null ? "" : ` (bootstrap 95% CI ${num(3)(lo)} to ${num(3)(hi)})`;
    out.push(
      `### ${escapeMarkdown(domain)} · ${escapeMarkdown(g.task_version)}`,
      "",
      `Kendall τ-b ${tau}${ci}; swapped pairs: ${
        g.swapped_pairs.length === 0
          ? "none"
          : g.swapped_pairs.map(([a, b]) => `${escapeMarkdown(a)} ↔ ${escapeMarkdown(b)}`).join("; ")
      }.`,
      "",
      mdTable(
        ["model", "τ³ rank", "τ³ pass^1", "structured rank", "structured pass^1"],
        g.models.map((m) => [
          m.model,
          m.tau3_rank,
          pct(m.tau3_pass1),
          m.structured_rank,
          pct(m.structured_pass1),
        ]),
      ),
      "",
    );
  }
  if (Object.keys(s.ranking).length === 0) out.push("No ranking group has two eligible models.", "");
  out.push(...reviewLines(d));
  out.push(
    "## Flip rates by model",
    "",
    mdTable(
      ["domain", "model", "n", "flips", "rate", "confirmed flips", "confirmed rate", "unreviewed"],
      d.flipRates.map((r) => [
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
    "## Excluded files",
    "",
    s.excluded_files.length === 0
      ? "None."
      : mdTable(
          ["file", "simulations", "reason"],
          s.excluded_files.map((f) => [f.path, f.simulations, f.reason]),
        ),
    "",
  );
  const flips = d.drilldown.slice(0, MAX_FLIP_ROWS);
  out.push(
    `## Flips (${d.flipCount})`,
    "",
    mdTable(
      ["domain", "task", "trial", "model", "direction", "causes", "review"],
      flips.map(({ flip: f, causes }) => [
        f.domain,
        f.task_id,
        f.trial,
        f.model,
        f.direction === "pass_to_fail" ? "pass → fail" : "fail → pass",
        causes.map((c) => `${c.kind}:${c.reference}`).join(", "),
        f.excluded ? `${f.review} (excluded file)` : f.review,
      ]),
    ),
    "",
  );
  if (d.drilldown.length > flips.length)
    out.push(
      `Showing ${flips.length} of ${d.drilldown.length} flips; all are in report.html and flips.csv.`,
      "",
    );
  out.push("## Charts", "");
  const warnings = chartWarnings(charts);
  if (warnings.length > 0)
    out.push(
      `${warnings.length} chart warning(s):`,
      "",
      ...warnings.map((w) => `- ${escapeMarkdown(w)}`),
      "",
    );
  for (const c of charts) {
    const title = escapeMarkdown(c.title);
    if (c.failure?.stage === "vega")
      out.push(
        `- ${title}: not drawn (${escapeMarkdown(c.failure.reason)}) ([vega-lite spec](${c.files.spec}))`,
      );
    else if (c.failure !== null)
      out.push(
        `- [${title}](${c.files.svg}): PNG not drawn (${escapeMarkdown(c.failure.reason)}) ([vega-lite spec](${c.files.spec}))`,
      );
    else out.push(`- [${title}](${c.files.png}) ([vega-lite spec](${c.files.spec}), [SVG](${c.files.svg}))`);
  }
  if (charts.length === 0) out.push("No chart has data.");
  return `${out.join("\n")}\n`;
}
