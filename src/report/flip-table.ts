/** The flips table: one `tr.flip` per row of the `flips` view, its evidence in a `<details>`. */
import type { FieldEvidence, FlipDrilldown, PolicyEvidence, RequirementEvidence } from "./drilldown.ts";
import { html, type SafeHtml } from "./escape.ts";
import { table } from "./table.ts";

/** Excerpts are stored up to 2,000 characters; the page shows the start. */
const EXCERPT_CHARS = 800;

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);

function where(e: { turn_idx: number | null; message_index: number | null }, extra?: SafeHtml): SafeHtml {
  if (e.turn_idx === null && e.message_index === null) return html``;
  return html` <span class="muted">(turn ${e.turn_idx ?? "?"}, message ${e.message_index ?? "?"}${extra ?? ""})</span>`;
}

function excerpt(text: string | null): SafeHtml {
  if (text === null || text.trim() === "") return html``;
  return html`<div class="excerpt">${clip(text, EXCERPT_CHARS)}</div>`;
}

const requirement = (e: RequirementEvidence) =>
  html`<li class="ev requirement"><span class="kind">requirement</span> <code>${e.rule_id}</code> on <code>${e.action}</code>: “${e.quote}”${where(e, e.tool_call_id === null ? undefined : html`, tool call <code>${e.tool_call_id}</code>`)}
${e.arguments === null ? "" : html`<div class="args">${clip(e.arguments, EXCERPT_CHARS)}</div>`}${excerpt(e.excerpt)}</li>`;

const field = (e: FieldEvidence) =>
  html`<li class="ev field"><span class="kind">delta-gate field</span> <code>${e.db}: ${e.path}</code>: initial <code>${e.initial_value ?? "–"}</code>, gold <code>${e.gold_value ?? "–"}</code>, predicted <code>${e.predicted_value ?? "–"}</code></li>`;

const policy = (e: PolicyEvidence) =>
  html`<li class="ev policy"><span class="kind">policy rule</span> <code>${e.rule}</code>${e.tool_name === null ? "" : html` on <code>${e.tool_name}</code>`}: ${e.message}${where(e)}${excerpt(e.excerpt)}</li>`;

function evidence(d: FlipDrilldown): SafeHtml {
  const items = [
    ...d.requirements.map(requirement),
    ...d.fields.map(field),
    ...d.policies.map(policy),
    ...d.otherCauses.map(
      (c) => html`<li class="ev other"><span class="kind">cause</span> <code>${c}</code></li>`,
    ),
  ];
  const tau3 = d.flip.tau3_causes;
  const tau3Line =
    tau3.length === 0
      ? ""
      : html`<li class="ev tau3"><span class="kind">τ³ failed on</span> ${tau3.join(", ")}</li>`;
  const count = items.length;
  return html`<details><summary>${count === 0 ? "no structured evidence" : `${count} item${count === 1 ? "" : "s"}`}</summary>
<ul>${items}${tau3Line}</ul>
<div class="muted">file <code>${d.flip.path}</code> · simulation <code>${d.flip.sim_key.slice(0, 12)}</code></div></details>`;
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
      { label: "structured causes", value: (d) => d.flip.structured_causes.join(", ") },
      {
        label: "evidence",
        value: (d) => d.requirements.length + d.fields.length + d.policies.length,
        format: (_, d) => evidence(d),
      },
    ],
    drilldown,
    { id: "flips-table", rowClass: "flip", caption: "Flips" },
  );
}
