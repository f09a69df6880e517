/**
 * The flips table: one `tr.flip` per row of the `flips` view (a comparison and a simulation), with a link
 * to its conversation's causes and evidence (flips in excluded files and tasks have none embedded).
 */
import { graderLabel } from "../charts/common.ts";
import { comparisonAnchor, simAnchor } from "./anchors.ts";
import { kindLabel, REVIEW_LABEL, reviewBadge } from "./cause-html.ts";
import type { FlipDrilldown } from "./drilldown.ts";
import { html, type SafeHtml } from "./escape.ts";
import { table } from "./table.ts";

/**
 * Where the flip's evidence is. A flip whose conversation the page holds links to it, where every cause of
 * its failing side stands with its evidence and review (the page holds them once); a flip in an excluded
 * file or task has none here, and says how to embed it. `embedded`: the simulations whose conversation
 * the page holds.
 */
function evidence(d: FlipDrilldown, embedded: ReadonlySet<string>): SafeHtml {
  const count = d.causes.length;
  const simKey = d.flip.sim_key;
  const failing = graderLabel(d.flip.failing_grader);
  const causes =
    count === 0 ? `no cause from ${failing}` : `${count} cause${count === 1 ? "" : "s"} from ${failing}`;
  if (embedded.has(simKey))
    return html`<a href="#${simAnchor(simKey)}">${causes}: evidence and conversation ↓</a>`;
  return html`<span class="muted">${causes}; <code>${d.flip.path}</code>, simulation <code>${d.flip.simulation_id ?? d.flip.sim_key.slice(0, 12)}</code>; not embedded (excluded)</span>`;
}

export function flipTable(drilldown: readonly FlipDrilldown[], embedded: ReadonlySet<string>): SafeHtml {
  return table(
    [
      { label: "domain", value: (d) => d.flip.domain },
      { label: "task set", value: (d) => d.flip.task_version },
      { label: "task", value: (d) => d.flip.task_id },
      { label: "trial", value: (d) => d.flip.trial },
      {
        label: "model",
        value: (d) => d.flip.model,
        format: (v, d) =>
          html`${v}${d.flip.excluded ? html` <span class="badge excluded">excluded</span>` : ""}`,
      },
      {
        label: "comparison",
        value: (d) => d.flip.comparison,
        format: (v) => html`<a href="#${comparisonAnchor(String(v))}">${v}</a>`,
      },
      {
        label: "direction",
        value: (d) => d.flip.direction,
        format: (v) =>
          html`<span class="${String(v)}">${v === "pass_to_fail" ? "pass → fail" : "fail → pass"}</span>`,
      },
      {
        label: "review",
        value: (d) => REVIEW_LABEL[d.flip.review] ?? d.flip.review,
        format: (_, d) => reviewBadge(d.flip.review),
      },
      {
        label: "failing side's causes",
        value: (d) => d.causes.map((c) => `${kindLabel(c.kind)}: ${c.reference}`).join(", "),
        format: (v, d) => html`<span class="muted">${graderLabel(d.flip.failing_grader)}:</span> ${v}`,
      },
      {
        label: "evidence",
        value: (d) => d.causes.reduce((n, c) => n + c.evidence.length, 0),
        format: (_, d) => evidence(d, embedded),
      },
    ],
    drilldown,
    { id: "flips-table", rowClass: "flip", caption: "Flips" },
  );
}
