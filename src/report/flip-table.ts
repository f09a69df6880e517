/** The flips table: one `tr.flip` per row of the `flips` view, its causes and their evidence in a `<details>`. */
import { simAnchor } from "./anchors.ts";
import { causeItem, kindLabel, REVIEW_LABEL, reviewBadge } from "./cause-html.ts";
import type { FlipDrilldown } from "./drilldown.ts";
import { html, type SafeHtml } from "./escape.ts";
import { table } from "./table.ts";

function evidence(d: FlipDrilldown): SafeHtml {
  const count = d.causes.length;
  const simKey = d.flip.sim_key;
  return html`<details><summary>${count === 0 ? "no structured cause" : `${count} cause${count === 1 ? "" : "s"}`}</summary>
<ul>${d.causes.map((c) => causeItem(c, { cls: "gating", simKey }))}${d.tau3.map((c) => causeItem(c, { cls: "tau3", simKey }))}${d.reported.map((c) => causeItem(c, { cls: "reported", simKey }))}</ul>
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
          html`${v}${d.flip.excluded ? html` <span class="badge excluded">excluded file</span>` : ""}`,
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
        label: "structured causes",
        value: (d) => d.causes.map((c) => `${kindLabel(c.kind)}: ${c.reference}`).join(", "),
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
