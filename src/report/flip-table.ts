/**
 * The flips table: one `tr.flip` per row of the `flips` view (a comparison and a simulation), the failing
 * side's causes and their evidence in a `<details>`.
 */
import { graderLabel } from "../charts/common.ts";
import { comparisonAnchor, simAnchor } from "./anchors.ts";
import { causeItem, kindLabel, REVIEW_LABEL, reviewBadge } from "./cause-html.ts";
import type { FlipDrilldown } from "./drilldown.ts";
import { html, type SafeHtml } from "./escape.ts";
import { table } from "./table.ts";

function evidence(d: FlipDrilldown): SafeHtml {
  const count = d.causes.length;
  const simKey = d.flip.sim_key;
  const failing = graderLabel(d.flip.failing_grader);
  return html`<details><summary>${count === 0 ? `no cause from ${failing}` : `${count} cause${count === 1 ? "" : "s"} from ${failing}`}</summary>
<ul>${d.causes.map((c) => causeItem(c, { cls: "gating", simKey }))}${d.reported.map((c) => causeItem(c, { cls: "reported", simKey }))}${d.other.map((c) => causeItem(c, { cls: "other", simKey }))}</ul>
<div class="muted">file <code>${d.flip.path}</code> · simulation <code>${d.flip.simulation_id ?? d.flip.sim_key.slice(0, 12)}</code> · <a href="#${simAnchor(simKey)}">conversation ↓</a></div></details>`;
}

export function flipTable(drilldown: readonly FlipDrilldown[]): SafeHtml {
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
        format: (_, d) => evidence(d),
      },
    ],
    drilldown,
    { id: "flips-table", rowClass: "flip", caption: "Flips" },
  );
}
