/**
 * A cause and its evidence as HTML, shared by the flips table and the conversation view: the cause names
 * its turn and links to it (`#m-…`), and carries its review (verdict, reason, reviewer) when it has one.
 */
import { CAUSE_KINDS } from "../graders/causes.ts";
import { causeMessage, messageAnchor } from "./anchors.ts";
import type { CauseReview, CauseRow, EvidenceRow } from "./drilldown.ts";
import { html, htmlText, type SafeHtml } from "./escape.ts";

/** Excerpts are stored up to 2,000 characters; the page shows the start. */
const EXCERPT_CHARS = 800;

export const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);

export const kindLabel = (kind: string) => kind.replaceAll("_", " ");

export const REVIEW_LABEL: Readonly<Record<string, string>> = {
  confirmed: "confirmed",
  false_positive: "false positive",
  unclear: "unclear",
  unreviewed: "unreviewed",
};

export const reviewBadge = (status: string) =>
  html`<span class="rv rv-${status}">${REVIEW_LABEL[status] ?? status}</span>`;

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
  const v = (x: string | null) =>
    html`<code>${x === null ? "absent" : htmlText(clip(x, EXCERPT_CHARS))}</code>`;
  return html`<div class="args"><code>${e.db ?? "?"}: ${e.path}</code>: initial ${v(e.initial_value)}, gold ${v(e.gold_value)}, predicted ${v(e.predicted_value)}</div>`;
}

/**
 * One piece of evidence. `turnShown`: the page shows the evidence's message right there (the
 * conversation), so its excerpt and call arguments are not repeated.
 */
const evidenceItem = (e: EvidenceRow, turnShown: boolean) => {
  const repeat = !(turnShown && e.message_index !== null);
  return html`<li class="ev-item">${e.message}${e.tool_name === null ? "" : html` <code>${e.tool_name}</code>`}${where(e)}
${e.quote === null ? "" : html`<div class="quote">“${htmlText(e.quote)}”</div>`}${!repeat || e.arguments === null ? "" : html`<div class="args">${htmlText(clip(e.arguments, EXCERPT_CHARS))}</div>`}${fieldValues(e)}${!repeat || e.excerpt === null || e.excerpt.trim() === "" ? "" : html`<div class="excerpt">${htmlText(clip(e.excerpt, EXCERPT_CHARS))}</div>`}</li>`;
};

function review(r: CauseReview | null, flipCause: boolean): SafeHtml {
  if (r === null) return flipCause ? html` ${reviewBadge("unreviewed")}` : html``;
  return html` ${reviewBadge(r.verdict)} <span class="rv-reason">${r.reason}${r.reviewer === null ? "" : html` — ${r.reviewer}`}${r.date === null ? "" : html`, ${r.date}`}</span>`;
}

/** Where the cause's turn is, as a link into the conversation; writes stand in for a DB-field cause. */
function turnLink(c: CauseRow, simKey: string, writes: readonly number[]): SafeHtml {
  if (causeMessage(c) !== null) return html``; // the cause's label links to its turn
  if (writes.length === 0) return html` <span class="muted">(DB end state)</span>`;
  return html` <span class="muted">(DB end state; writes: ${writes.map((w, i) => html`${i === 0 ? "" : ", "}<a href="#${messageAnchor(simKey, w)}">#${w}</a>`)})</span>`;
}

export interface CauseItemOptions {
  /** gating (a flip's failing side) | reported | other */
  readonly cls: string;
  readonly simKey: string;
  readonly writes?: readonly number[];
  /** The cause is shown beside its conversation: evidence excerpts of its turns are not repeated. */
  readonly inConversation?: boolean;
}

export function causeItem(c: CauseRow, o: CauseItemOptions): SafeHtml {
  const at = causeMessage(c);
  // What each kind means is said once, in `causeKindGlossary`.
  const label = html`<span class="kind">${kindLabel(c.kind)}</span> <code>${c.reference}</code>`;
  const head =
    at === null ? label : html`<a class="cause-link" href="#${messageAnchor(o.simKey, at)}">${label}</a>`;
  return html`<li class="ev ${o.cls} ${c.kind}">${head}: ${c.message}${where(c)}${turnLink(c, o.simKey, o.writes ?? [])}${review(c.review, o.cls === "gating")}
${c.evidence.length === 0 ? "" : html`<ul>${c.evidence.map((e) => evidenceItem(e, o.inConversation === true))}</ul>`}</li>`;
}

/** What each cause kind the page shows means, said once (not on every cause). */
export function causeKindGlossary(kinds: Iterable<string>): SafeHtml {
  const shown = [...new Set(kinds)].filter((k) => k in CAUSE_KINDS).sort();
  if (shown.length === 0) return html``;
  return html`<details class="glossary"><summary>Cause kinds (${shown.length})</summary><dl>${shown.map((k) => html`<dt>${kindLabel(k)}</dt><dd>${CAUSE_KINDS[k as keyof typeof CAUSE_KINDS].about}</dd>`)}</dl></details>`;
}
