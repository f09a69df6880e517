/**
 * `report.md`: the headline numbers, the flips, the rankings and links to the charts, as GitHub-
 * flavoured Markdown that can be pasted into an issue. Every value from the store goes through
 * `escapeMarkdown` (model names, task ids and causes come from trajectory files).
 */
import type { RenderedChart } from "../charts/index.ts";
import type { ReportData } from "./data.ts";
import { escapeMarkdown } from "./escape.ts";

type MdCell = string | number | null | undefined;

/** Numbers and percentages we formatted ourselves carry no markup, so they stay readable unescaped. */
const NUMERIC = /^[-+]?[0-9][0-9.,]*%?$/;

const pct = (v: number | null | undefined) => (typeof v === "number" ? `${(v * 100).toFixed(1)}%` : "–");

/** A GFM table; cells are escaped here, so callers pass raw values. */
export function mdTable(header: readonly string[], body: readonly (readonly MdCell[])[]): string {
  const line = (cells: readonly MdCell[]) =>
    `| ${cells.map((c) => (c === null || c === undefined ? "–" : NUMERIC.test(String(c)) ? String(c) : escapeMarkdown(String(c)))).join(" | ")} |`;
  return [line(header), `|${header.map(() => " --- ").join("|")}|`, ...body.map(line)].join("\n");
}

/** Flip rows beyond this go to the HTML report (GitHub issues cap at 65,536 characters). */
const MAX_FLIP_ROWS = 200;

export function renderMarkdown(d: ReportData, charts: readonly RenderedChart[]): string {
  const s = d.summary;
  const out: string[] = [
    "# tau-rescore report",
    "",
    `**${s.simulations}** simulations, **${s.graded}** graded, **${s.errors}** errors. ` +
      `Flips from τ³ to the structured grader: **${s.flips.pass_to_fail}** pass → fail, **${s.flips.fail_to_pass}** fail → pass.`,
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
    const tau = g.kendall_tau_b === null ? "–" : g.kendall_tau_b.toFixed(3);
    const [lo, hi] = g.kendall_tau_b_ci;
    const ci = lo === null || hi === null ? "" : ` (bootstrap 95% CI ${lo.toFixed(3)} to ${hi.toFixed(3)})`;
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
  const flips = d.drilldown.slice(0, MAX_FLIP_ROWS);
  out.push(
    `## Flips (${d.flipCount})`,
    "",
    mdTable(
      ["domain", "task", "trial", "model", "direction", "causes"],
      flips.map(({ flip: f, causes }) => [
        f.domain,
        f.task_id,
        f.trial,
        f.model,
        f.direction === "pass_to_fail" ? "pass → fail" : "fail → pass",
        causes.map((c) => `${c.kind}:${c.reference}`).join(", "),
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
  for (const c of charts)
    out.push(
      `- [${escapeMarkdown(c.title)}](${c.files.png}) ([vega-lite spec](${c.files.spec}), [SVG](${c.files.svg}))`,
    );
  if (charts.length === 0) out.push("No chart has data.");
  return `${out.join("\n")}\n`;
}
