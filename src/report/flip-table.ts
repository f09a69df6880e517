/** The flips table: one `tr.flip` per row of the `flips` view, its causes and their evidence in a `<details>`. */
import { CAUSE_KINDS } from "../graders/causes.ts";
import type { CauseRow, EvidenceRow, FlipDrilldown } from "./drilldown.ts";
import { html, type SafeHtml } from "./escape.ts";
import { table } from "./table.ts";

/** Excerpts are stored up to 2,000 characters; the page shows the start. */
const EXCERPT_CHARS = 800;

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);

const kindLabel = (kind: string) => kind.replaceAll("_", " ");

function where(e: {
  turn_idx: number | null;
  message_index: number | null;
  tool_call_id: string | null;
  actor: string | null;
}): SafeHtml {
  if (e.turn_idx === null && e.message_index === null && e.tool_call_id === null) return html``;
  const parts = [
    ...(e.turn_idx === null ? [] : [html`turn ${e.turn_idx}`]),
    ...(e.message_index === null ? [] : [html`message ${e.message_index}`]),
    ...(e.tool_call_id === null ? [] : [html`tool call <code>${e.tool_call_id}</code>`]),
    ...(e.actor === null ? [] : [html`by the ${e.actor}`]),
  ];
  return html` <span class="muted">(${parts.map((p, i) => html`${i === 0 ? "" : ", "}${p}`)})</span>`;
}

function fieldValues(e: EvidenceRow): SafeHtml {
  if (e.path === null) return html``;
  const v = (x: string | null) => html`<code>${x === null ? "absent" : clip(x, EXCERPT_CHARS)}</code>`;
  return html`<div class="args"><code>${e.db ?? "?"}: ${e.path}</code>: initial ${v(e.initial_value)}, gold ${v(e.gold_value)}, predicted ${v(e.predicted_value)}</div>`;
}

const evidenceItem = (e: EvidenceRow) =>
  html`<li class="ev-item">${e.message}${e.tool_name === null ? "" : html` <code>${e.tool_name}</code>`}${where(e)}
${e.quote === null ? "" : html`<div class="quote">“${e.quote}”</div>`}${e.arguments === null ? "" : html`<div class="args">${clip(e.arguments, EXCERPT_CHARS)}</div>`}${fieldValues(e)}${e.excerpt === null || e.excerpt.trim() === "" ? "" : html`<div class="excerpt">${clip(e.excerpt, EXCERPT_CHARS)}</div>`}</li>`;

const causeItem = (c: CauseRow, cls: string) =>
  html`<li class="ev ${cls} ${c.kind}"><span class="kind" title="${CAUSE_KINDS[c.kind]?.about ?? ""}">${kindLabel(c.kind)}</span> <code>${c.reference}</code>: ${c.message}${where(c)}
${c.evidence.length === 0 ? "" : html`<ul>${c.evidence.map(evidenceItem)}</ul>`}</li>`;

function evidence(d: FlipDrilldown): SafeHtml {
  const count = d.causes.length;
  return html`<details><summary>${count === 0 ? "no structured cause" : `${count} cause${count === 1 ? "" : "s"}`}</summary>
<ul>${d.causes.map((c) => causeItem(c, "gating"))}${d.tau3.map((c) => causeItem(c, "tau3"))}${d.reported.map((c) => causeItem(c, "reported"))}</ul>
<div class="muted">file <code>${d.flip.path}</code> · simulation <code>${d.flip.simulation_id ?? d.flip.sim_key.slice(0, 12)}</code></div></details>`;
}

export function flipTable(drilldown: readonly FlipDrilldown[]): SafeHtml {
  return table(
    [
      { label: "domain", value: (d) => d.flip.domain },
      { label: "task set", value: (d) => d.flip.task_version },
      { label: "task", value: (d) => d.flip.task_id },
      { label: "trial", value: (d) => d.flip.trial },
      { label: "model", value: (d) => d.flip.model },
      {
        label: "direction",
        value: (d) => d.flip.direction,
        format: (v) =>
          html`<span class="${String(v)}">${v === "pass_to_fail" ? "pass → fail" : "fail → pass"}</span>`,
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
