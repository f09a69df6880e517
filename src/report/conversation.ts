/**
 * The conversation view: per simulation, where it comes from (file path, its own id), the task's user
 * instructions and gold actions, every grader's components (vacuous 1.0 scores marked), the causes
 * linked to their turns, and every message with an anchor. Evidence turns are highlighted; long tool
 * results are folded. All text arrives through `html` interpolations, so it is escaped.
 */
import { graderLabel } from "../charts/common.ts";
import { isInheritedKind } from "../graders/causes.ts";
import type { MessageRow } from "../reviews/queries.ts";
import { goldActions, instructionParts, toolCallsOf } from "../reviews/task-text.ts";
import { causeMessage, comparisonAnchor, messageAnchor, simAnchor } from "./anchors.ts";
import { causeItem, kindLabel, reviewBadge } from "./cause-html.ts";
import type { ComponentRow, ConversationView } from "./conversation-data.ts";
import type { CauseRow } from "./drilldown.ts";
import { html, htmlText, type SafeHtml } from "./escape.ts";

/** Tool results longer than this (or with more lines) are folded. */
const FOLD_CHARS = 400;
const FOLD_LINES = 8;
/**
 * A folded tool result that is no evidence turn shows this many characters (most are DB records read
 * back); the page would otherwise carry every record each conversation read. Evidence turns are whole.
 */
export const TOOL_RESULT_CHARS = 400;

const verdict = (pass: boolean | null) => (pass === null ? "unknown" : pass ? "pass" : "fail");

function taskBlock(v: ConversationView): SafeHtml {
  if (v.task === null) return html`<p class="muted">No task text stored for this simulation.</p>`;
  const parts = instructionParts(v.task.instructions);
  const gold = goldActions(v.task.criteria);
  return html`<details class="task" open><summary>Task: user instructions and gold actions</summary>
<dl>${v.task.persona === null ? "" : html`<dt>persona</dt><dd>${htmlText(v.task.persona)}</dd>`}${parts.map((p) => html`<dt>${p.label.replaceAll("_", " ")}</dt><dd>${htmlText(p.text)}</dd>`)}${v.task.ticket === null ? "" : html`<dt>ticket</dt><dd>${htmlText(v.task.ticket)}</dd>`}</dl>
<div><b>Gold actions (${gold.length})</b>${gold.length === 0 ? html` <span class="muted">none: the ACTION component has nothing to check</span>` : ""}</div>
${gold.length === 0 ? "" : html`<ol class="gold">${gold.map((a) => html`<li><code>${a.name}</code>${a.requestor === null || a.requestor === "assistant" ? "" : html` <span class="muted">(by the ${a.requestor})</span>`} <span class="args">${htmlText(a.arguments)}</span></li>`)}</ol>`}
</details>`;
}

function componentCell(c: ComponentRow | undefined): SafeHtml {
  if (c === undefined) return html`<td></td>`; // shown as "–" (CSS)
  const score = c.score === null ? "unknown" : c.score.toFixed(1);
  return html`<td class="${c.in_basis ? "basis" : "off-basis"}">${score}${c.vacuous ? html` <span class="badge vacuous">vacuous</span>` : ""}</td>`;
}

function componentsTable(v: ConversationView): SafeHtml {
  if (v.components.length === 0) return html``;
  const graders = [...new Set(v.components.map((c) => c.grader))];
  const names = [...new Set(v.components.map((c) => c.component))];
  const at = new Map(v.components.map((c) => [`${c.grader}\u0000${c.component}`, c]));
  return html`<div class="scroll"><table class="components"><caption>Components (bold: in the reward basis; vacuous: scored 1.0 because there was nothing to check)</caption>
<thead><tr><th scope="col">component</th>${graders.map((g) => html`<th scope="col">${graderLabel(g)}</th>`)}</tr></thead>
<tbody>${names.map((n) => html`<tr><th scope="row">${n}</th>${graders.map((g) => componentCell(at.get(`${g}\u0000${n}`)))}</tr>`)}</tbody></table></div>`;
}

function nlBlock(v: ConversationView): SafeHtml {
  if (v.nl.length === 0) return html``;
  const first = v.nl[0] as ConversationView["nl"][number];
  return html`<div class="scroll"><table class="nl"><caption>NL assertions as the judge (${first.judge_model ?? "?"}) judged them${first.degenerate === null ? "" : html` · <span class="badge">degenerate reply</span> ${first.degenerate}`}${first.cache_key === null ? "" : html` · <span class="muted">reply <code>${first.cache_key.slice(0, 12)}</code></span>`}</caption>
<thead><tr><th scope="col">assertion</th><th scope="col">met</th><th scope="col">judge's reasoning</th></tr></thead>
<tbody>${v.nl.map((a) => html`<tr><td>${a.assertion}</td><td class="${a.met ? "pass" : "fail"}">${a.met ? "yes" : "no"}</td><td>${a.reasoning ?? ""}</td></tr>`)}</tbody></table></div>`;
}

/**
 * The causes of each failing side of the simulation's flips (of every grader when it flips nothing),
 * graders in the comparisons' order: gating causes first (bold, with their review), then those only
 * reported (italic). A grader that builds on another repeats its causes, so only failing sides show.
 */
function shownCauses(v: ConversationView): readonly CauseRow[] {
  const failing = new Set(v.flips.map((f) => f.failing_grader));
  return failing.size === 0 ? v.causes : v.causes.filter((c) => failing.has(c.grader));
}

function causeList(v: ConversationView): SafeHtml {
  const failing = new Set(v.flips.map((f) => f.failing_grader));
  const causes = shownCauses(v);
  if (causes.length === 0) return html`<p class="muted">No causes.</p>`;
  const order = v.verdicts.map((x) => x.grader);
  const rank = (g: string) => (order.includes(g) ? order.indexOf(g) : order.length);
  const graders = [...new Set(causes.map((c) => c.grader))].sort((a, b) => rank(a) - rank(b));
  const simKey = v.sim.sim_key;
  const writes = [...v.writes].sort((a, b) => a - b);
  const cls = (c: CauseRow) => (!c.gates ? "reported" : failing.has(c.grader) ? "gating" : "other");
  const group = (g: string) => {
    const mine = causes.filter((c) => c.grader === g);
    const sorted = [...mine.filter((c) => cls(c) === "gating"), ...mine.filter((c) => cls(c) !== "gating")];
    return html`<li class="grader-causes"><b>${graderLabel(g)}</b><ul>${sorted.map((c) => causeItem(c, { cls: cls(c), simKey, writes, inConversation: true }))}</ul></li>`;
  };
  return html`<div class="causes"><b>Causes</b> <span class="muted">(click one to go to its turn; bold: fails the verdict, italic: reported only)</span>
<ul>${graders.map(group)}</ul></div>`;
}

/** Each side's verdict, and each comparison that flips the simulation with the flip's review. */
function verdictLine(v: ConversationView): SafeHtml {
  const sides = v.verdicts.map(
    (x, i) =>
      html`${i === 0 ? "" : " · "}${graderLabel(x.grader)} <b class="${verdict(x.pass)}">${verdict(x.pass)}</b>`,
  );
  const flips = v.flips.map(
    (f) =>
      html`<br>flip in <a href="#${comparisonAnchor(f.comparison)}">${f.comparison}</a>: <span class="${f.direction}">${f.direction === "pass_to_fail" ? "pass → fail" : "fail → pass"}</span> · review ${reviewBadge(f.review)}`,
  );
  return html`${sides}${flips}`;
}

/** Message index → the causes whose turn it is. */
function hitsOf(causes: readonly CauseRow[]): Map<number, CauseRow[]> {
  const out = new Map<number, CauseRow[]>();
  const add = (i: number | null, c: CauseRow) => {
    if (i === null) return;
    const l = out.get(i) ?? [];
    if (!l.includes(c)) l.push(c);
    out.set(i, l);
  };
  for (const c of causes) {
    if (isInheritedKind(c.kind)) continue;
    add(causeMessage(c), c);
    for (const e of c.evidence) add(e.message_index, c);
  }
  return out;
}

function body(m: MessageRow, hit: boolean): SafeHtml {
  const text = m.content ?? "";
  if (text === "") return html``;
  const long = text.length > FOLD_CHARS || text.split("\n").length > FOLD_LINES;
  if (m.role !== "tool" || !long) return html`<div class="text">${htmlText(text)}</div>`;
  const first = text.slice(0, 100).replace(/\s+/g, " ");
  const cut = !hit && text.length > TOOL_RESULT_CHARS;
  const shown = cut ? text.slice(0, TOOL_RESULT_CHARS) : text;
  return html`<details${hit ? html` open` : ""}><summary>tool result, ${text.length} characters: <span class="muted">${htmlText(first)}…</span></summary><div class="text">${htmlText(shown)}</div>${cut ? html`<p class="muted">… the first ${TOOL_RESULT_CHARS} of ${text.length} characters; the store's <code>conversations</code> table holds it whole</p>` : ""}</details>`;
}

function message(simKey: string, m: MessageRow, hits: readonly CauseRow[], write: boolean): SafeHtml {
  const hit = hits.length > 0;
  const calls = toolCallsOf(m.tool_calls);
  return html`<li id="${messageAnchor(simKey, m.message_index)}" class="msg ${m.role}${hit ? " hit" : ""}${write ? " write" : ""}">
<div class="meta">#${m.message_index}${m.turn_idx === null || m.turn_idx === m.message_index ? "" : html` · turn ${m.turn_idx}`} · <b>${m.role}</b>${m.role === "tool" && m.tool_call_id !== null ? html` · <code>${m.tool_call_id}</code>` : ""}${m.tool_error === true ? html` · <span class="fail">error</span>` : ""}${hits.map((c) => html` <span class="hit-label">evidence: ${kindLabel(c.kind)} <code>${c.reference}</code></span>`)}</div>
${body(m, hit)}${calls.map((c) => html`<div class="call">→ <code>${c.name}</code>${c.id === null ? "" : html` <span class="muted">${c.id}</span>`}<div class="args">${htmlText(c.arguments)}</div></div>`)}</li>`;
}

function conversation(v: ConversationView): SafeHtml {
  const s = v.sim;
  const hits = hitsOf(shownCauses(v));
  return html`<section class="conv" id="${simAnchor(s.sim_key)}">
<h3>${s.domain} · task ${s.task_id}${s.trial === null ? "" : html` · trial ${s.trial}`} · ${s.model}</h3>
<p class="conv-meta">simulation <code class="sim-id">${s.simulation_id ?? "(no id)"}</code> · file <code>${s.path}</code> · task set ${s.task_version}<br>
${verdictLine(v)}${s.excluded ? html` · <span class="badge excluded">excluded</span> <span class="muted">${s.exclusion_reason ?? ""}</span>` : ""}${s.fingerprint === null ? "" : html` · <span class="muted">fingerprint <code>${s.fingerprint.slice(0, 12)}</code></span>`} · <a href="#flips">↑ flips</a></p>
${taskBlock(v)}
${componentsTable(v)}
${nlBlock(v)}
${causeList(v)}
<ol class="msgs">${v.messages.map((m) => message(s.sim_key, m, hits.get(m.message_index) ?? [], v.writes.has(m.message_index)))}</ol>
</section>`;
}

/**
 * The conversations `conversationSet` picks; `notEmbedded` counts the flipped simulations left out (those
 * in excluded files and tasks), which `report --all-conversations` embeds too.
 */
export function conversationSection(
  views: readonly ConversationView[],
  all: boolean,
  notEmbedded = 0,
): SafeHtml {
  return html`<h2 id="conversations">Conversations (${views.length})</h2>
<p class="muted">${all ? "Every simulation whose conversation the run stored" : "Every flipped simulation outside excluded files and tasks"}: the task, the components, the causes (each links to its turn) and every message. Evidence turns are highlighted; long tool results are folded, and cut at ${TOOL_RESULT_CHARS} characters unless they are evidence.${notEmbedded === 0 ? "" : html` The ${notEmbedded} flipped simulation(s) in excluded files or tasks are left out: <code>tau-rescore report --all-conversations</code> embeds them too.`}</p>
${views.length === 0 ? html`<p class="empty">No conversation to show.</p>` : views.map(conversation)}`;
}
