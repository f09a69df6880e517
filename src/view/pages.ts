/**
 * The pages of `tau-rescore view`, rendered on the server from the store's rows. Every value from the
 * corpus or the store reaches the page through the `html` template (escaped); the one script is
 * `CLIENT_SCRIPT`, served as a file. Links carry no token: the first page sets a cookie.
 */

import { html, SafeHtml } from "../report/escape.ts";
import { REVIEW_VERDICTS, SAMPLE_VERDICTS } from "../reviews/file.ts";
import { goldActions, instructionParts } from "../reviews/task-text.ts";
import type { ShowCause, ShowMessage } from "../show/view.ts";
import {
  type FlipFilter,
  type FlipPage,
  REVIEW_STATES,
  type RunOverview,
  type SampleRow,
  type SimulationPage,
} from "./data.ts";

const CSS = `
:root { color-scheme: light; }
body { font: 14px/1.45 "DejaVu Sans", system-ui, sans-serif; margin: 0 auto; max-width: 1280px; padding: 0 20px 64px; color: #222; }
header.top { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 18px; border-bottom: 1px solid #ddd; padding: 10px 0; }
header.top a.home { font-weight: bold; text-decoration: none; color: #222; }
header.top form { margin-left: auto; display: flex; gap: 6px; }
h1 { font-size: 22px; margin: 18px 0 6px; overflow-wrap: anywhere; } h2 { font-size: 17px; margin-top: 28px; border-bottom: 1px solid #ddd; padding-bottom: 3px; }
.muted { color: #666; } .keys { font-size: 12px; color: #555; }
kbd { border: 1px solid #bbb; border-bottom-width: 2px; border-radius: 3px; padding: 0 4px; font-size: 12px; background: #fafafa; }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; margin: 10px 0; font-size: 13px; }
th, td { border: 1px solid #ddd; padding: 4px 8px; vertical-align: top; text-align: left; }
th { background: #f4f4f4; } td { overflow-wrap: anywhere; max-width: 36em; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
form.filters { display: flex; flex-wrap: wrap; gap: 8px 14px; align-items: end; margin: 10px 0; }
form.filters label { display: flex; flex-direction: column; font-size: 12px; color: #444; }
select, input, textarea, button { font: inherit; font-size: 13px; }
textarea { width: 100%; box-sizing: border-box; min-height: 3.5em; }
.pass_to_fail { color: #b00; } .fail_to_pass { color: #070; }
.rv { display: inline-block; font-size: 11px; border-radius: 8px; padding: 0 6px; border: 1px solid; white-space: nowrap; }
.rv-confirmed, .rv-clean { color: #1b5e20; border-color: #2e7d32; background: #e8f5e9; }
.rv-false_positive, .rv-missed { color: #8e1b1b; border-color: #c62828; background: #fdecea; }
.rv-unclear { color: #7a5200; border-color: #c98a00; background: #fff6e0; }
.rv-unreviewed { color: #555; border-color: #aaa; background: #f4f4f4; border-style: dashed; }
.rv-stale { color: #fff; border-color: #6a1b9a; background: #8e24aa; }
.badge { display: inline-block; font-size: 11px; border: 1px solid #bbb; border-radius: 8px; padding: 0 6px; color: #444; background: #fafafa; }
code { background: #f2f2f2; padding: 0 3px; border-radius: 3px; overflow-wrap: anywhere; }
.pre { white-space: pre-wrap; overflow-wrap: anywhere; font-family: "DejaVu Sans Mono", monospace; font-size: 12px; background: #f8f8f8; border-left: 3px solid #ccc; padding: 4px 8px; margin: 4px 0; }
.grid { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 0 28px; }
@media (max-width: 900px) { .grid { grid-template-columns: minmax(0, 1fr); } header.top form { margin-left: 0; } }
@media (max-width: 600px) { .scroll td { min-width: 7em; overflow-wrap: break-word; } }
select { max-width: 100%; } form.filters label { max-width: 100%; }
.cause { border: 1px solid #e2e2e2; border-radius: 4px; padding: 4px 10px; margin: 6px 0; }
.cause.gates { border-left: 4px solid #c62828; } .cause .label { font-weight: bold; }
.review { border: 1px solid #cfd8e3; background: #f7f9fc; border-radius: 4px; padding: 6px 10px; margin: 8px 0; }
.review.stale { border-color: #8e24aa; background: #faf2fc; }
.review .row { display: flex; flex-wrap: wrap; gap: 6px 12px; align-items: center; margin: 4px 0; }
.review .status { font-size: 12px; } .review .error { color: #b00; font-size: 12px; }
ol.msgs { list-style: none; padding: 0; margin: 10px 0; }
.msg { border: 1px solid #e2e2e2; border-left: 4px solid #ccc; border-radius: 4px; margin: 6px 0; padding: 4px 10px; scroll-margin-top: 12px; }
.msg.user { border-left-color: #4c78a8; background: #f5f8fc; } .msg.assistant { border-left-color: #999; }
.msg.tool { background: #fafafa; font-size: 13px; } .msg.marked { outline: 2px solid #f0b400; background: #fffbe6; }
.msg .head { font-size: 12px; color: #555; } .msg .mark { font-weight: bold; color: #8a5a00; }
.msg .content { white-space: pre-wrap; overflow-wrap: anywhere; margin: 2px 0; }
summary { cursor: pointer; }
dl.task dt { font-weight: bold; margin-top: 4px; } dl.task dd { margin: 0 0 0 12px; white-space: pre-wrap; overflow-wrap: anywhere; }
`;

export interface PageContext {
  /** Where the "next unreviewed" key goes from this page; null when there is nothing left. */
  readonly next?: string | null;
  readonly title: string;
}

const pct = (v: number | null | undefined): string =>
  v === null || v === undefined ? "–" : `${(v * 100).toFixed(1)}%`;
const ci = (lo: number | null, hi: number | null): string =>
  lo === null || hi === null ? "" : ` [${pct(lo)}, ${pct(hi)}]`;

const href = (path: string, params: Record<string, string | number | undefined> = {}): string => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== "") q.set(k, String(v));
  const s = q.toString();
  return s === "" ? path : `${path}?${s}`;
};

export const comparisonPath = (c: string) => `/comparison/${encodeURIComponent(c)}`;
export const simulationPath = (simKey: string, params: Record<string, string | number | undefined> = {}) =>
  href(`/simulation/${encodeURIComponent(simKey)}`, params);

export function layout(ctx: PageContext, body: SafeHtml): string {
  return `<!doctype html>\n${html`<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${ctx.title} · tau-rescore view</title>
<style>${new SafeHtml(CSS)}</style>
<script src="/assets/view.js" defer></script>
</head><body data-next="${ctx.next ?? ""}">
<header class="top"><a class="home" href="/">tau-rescore view</a>
<span class="keys"><kbd>n</kbd> next unreviewed · <kbd>/</kbd> search · <kbd>c</kbd>/<kbd>f</kbd>/<kbd>u</kbd> verdict · <kbd>Ctrl</kbd>+<kbd>Enter</kbd> save</span>
<form action="/find" method="get" role="search"><input name="id" id="search" placeholder="simulation id" aria-label="simulation id" size="22"><button>open</button></form>
</header>
<main>${body}</main></body></html>`}`;
}

export function runPage(o: RunOverview, db: string, reviewsFile: string): string {
  const rows = o.comparisons.map(
    (c) => html`<tr>
<td><a href="${comparisonPath(c.comparison)}">${c.comparison}</a><div class="muted">${c.baseline} → ${c.candidate}</div></td>
<td class="num">${c.paired}</td>
<td class="num">${pct(c.baseline_pass_rate)}</td><td class="num">${pct(c.candidate_pass_rate)}</td>
<td class="num">${pct(c.flip_rate)}<span class="muted">${ci(c.flip_rate_lo, c.flip_rate_hi)}</span></td>
<td class="num"><span class="pass_to_fail">${c.pass_to_fail}</span> / <span class="fail_to_pass">${c.fail_to_pass}</span></td>
<td class="num">${c.confirmed} / ${c.false_positive} / ${c.unclear} / ${c.unreviewed > 0 ? html`<a href="${href("/next", { comparison: c.comparison })}">${c.unreviewed}</a>` : "0"}</td>
<td class="num">${pct(c.precision)}<span class="muted">${ci(c.precision_lo, c.precision_hi)}</span></td>
<td class="num">${c.sampled === 0 ? "–" : `${c.missed} of ${c.sampled}`}</td>
</tr>`,
  );
  return layout(
    { title: `run ${o.run.run_id}`, next: o.comparisons.some((c) => c.unreviewed > 0) ? "/next" : null },
    html`<h1>${o.run.experiment} <span class="muted">run ${o.run.run_id}</span></h1>
<p class="muted">${o.simulations} simulations graded (${o.excluded} in excluded files, left out of every rate), ${o.errors} not graded (errors table); tool ${o.run.tool_version}; store <code>${db}</code>; reviews <code>${reviewsFile}</code>${o.stale_reviews > 0 ? html`; <a href="/stale"><span class="rv rv-stale">${o.stale_reviews} stale review(s)</span></a>` : ""}</p>
<div class="scroll"><table id="comparisons">
<thead><tr><th>comparison</th><th>paired</th><th>baseline pass</th><th>candidate pass</th><th>flip rate [95% CI]</th><th>pass→fail / fail→pass</th><th>confirmed / false positive / unclear / unreviewed</th><th>precision [95% CI]</th><th>sampled: missed</th></tr></thead>
<tbody>${rows}</tbody></table></div>
<p class="muted">Rates are over simulations outside excluded files, as in the report. A flip counts as confirmed when a reviewer confirmed one of its causes.</p>`,
  );
}

const select = (name: string, label: string, options: readonly string[], value: string | undefined) =>
  html`<label>${label}<select name="${name}"><option value="">any</option>${options.map(
    (o) => html`<option value="${o}"${o === value ? html` selected` : ""}>${o}</option>`,
  )}</select></label>`;

export function comparisonPage(
  comparison: string,
  f: FlipFilter,
  page: FlipPage,
  next: string | null,
  sampleSeed: number,
): string {
  const rows = page.rows.map(
    (r) => html`<tr data-sim="${r.sim_key}">
<td><a href="${simulationPath(r.sim_key, { comparison })}">${r.simulation_id ?? r.sim_key.slice(0, 12)}</a></td>
<td>${r.path}</td><td>${r.domain ?? "?"}</td><td>${r.model}</td><td>${r.task_id ?? "?"}${r.trial === null ? "" : ` #${r.trial}`}</td>
<td class="${r.direction}">${r.direction.replace("_to_", "→")} (${r.grader})</td>
<td>${r.causes.map((c, i) => html`${i > 0 ? ", " : ""}<code>${c}</code>`)}</td>
<td><span class="rv rv-${r.review}">${r.review}</span>${r.excluded ? html` <span class="badge">excluded</span>` : ""}</td>
</tr>`,
  );
  return layout(
    { title: comparison, next: next === null ? null : href("/next", { comparison }) },
    html`<h1>${comparison}</h1>
<p><a href="/">run</a> · <a href="${href(`${comparisonPath(comparison)}/sample`, { n: 5, seed: sampleSeed })}">sample simulations both sides pass</a>${next === null ? html` · <span class="muted">every flip cause has a review</span>` : html` · <a href="${href("/next", { comparison })}">next unreviewed</a>`}</p>
<form class="filters" method="get" id="filters">
${select("domain", "domain", page.options.domain, f.domain)}
${select("model", "model", page.options.model, f.model)}
${select("task", "task", page.options.task, f.task)}
${select("kind", "cause kind", page.options.kind, f.kind)}
${select("review", "review", REVIEW_STATES, f.review)}
<label>search<input name="q" value="${f.q ?? ""}" placeholder="simulation id or text" size="22"></label>
<label><span><input type="checkbox" name="excluded" value="1"${f.excluded === true ? html` checked` : ""}> excluded files</span></label>
<button>filter</button> <a href="${comparisonPath(comparison)}">clear</a>
</form>
<p class="muted" id="count">${page.rows.length} of ${page.total} flip(s)</p>
<div class="scroll"><table id="flips"><thead><tr><th>simulation</th><th>file</th><th>domain</th><th>model</th><th>task</th><th>flip (failing grader)</th><th>gating causes</th><th>review</th></tr></thead>
<tbody>${rows}</tbody></table></div>`,
  );
}

export function samplePageHtml(
  comparison: string,
  n: number,
  seed: number,
  draw: { domains: readonly { domain: string | null; both_pass: number; drawn: number }[] },
  rows: readonly SampleRow[],
): string {
  const next = rows.find((r) => r.verdict === null);
  return layout(
    {
      title: `${comparison}: sample`,
      next: next === undefined ? null : simulationPath(next.sim_key, { comparison, seed, n }),
    },
    html`<h1>${comparison}: simulations both sides pass</h1>
<p class="muted">The draw <code>tau-rescore review sample --comparison ${comparison} --n ${n} --seed ${seed}</code> makes: the first ${n} of each domain in an order fixed by the seed. ${draw.domains.map((d, i) => html`${i > 0 ? ", " : ""}${d.domain ?? "?"} ${d.drawn} of ${d.both_pass}`)}.</p>
<form class="filters" method="get"><label>per domain<input name="n" value="${n}" size="4"></label><label>seed<input name="seed" value="${seed}" size="10"></label><button>draw</button></form>
<div class="scroll"><table id="sample"><thead><tr><th>domain</th><th>#</th><th>simulation</th><th>file</th><th>model</th><th>task</th><th>sampled review</th></tr></thead><tbody>
${rows.map(
  (r) => html`<tr><td>${r.domain ?? "?"}</td><td class="num">${r.rank}</td>
<td><a href="${simulationPath(r.sim_key, { comparison, seed, n })}">${r.simulation_id ?? r.sim_key.slice(0, 12)}</a></td>
<td>${r.path}</td><td>${r.model}</td><td>${r.task_id ?? "?"}</td>
<td><span class="rv rv-${r.verdict ?? "unreviewed"}">${r.verdict ?? "unreviewed"}</span></td></tr>`,
)}
</tbody></table></div>`,
  );
}

export interface StaleEntry {
  kind: "flip" | "sample";
  simulation_id: string | null;
  path: string | null;
  fingerprint: string;
  what: string;
  verdict: string;
  reason: string;
  stale_reason: string | null;
  grader?: string;
  cause_kind?: string;
  reference?: string;
  comparison?: string;
}

export function stalePage(entries: readonly StaleEntry[]): string {
  return layout(
    { title: "stale reviews" },
    html`<h1>Stale reviews</h1>
<p class="muted">Reviews in the file whose simulation or cause this run no longer has. They count in no rate; withdraw one, or keep it for a run where it applies again.</p>
${entries.map(
  (e) => html`<div class="review stale">
<div class="row"><span class="rv rv-stale">stale</span> <b>${e.kind}</b> <code>${e.what}</code> ${e.simulation_id ?? "?"} <span class="muted">${e.path ?? "?"}</span></div>
<div class="row"><span class="rv rv-${e.verdict}">${e.verdict}</span> ${e.reason}</div>
<div class="row muted">${e.stale_reason ?? ""}</div>
${withdrawButton(e)}
</div>`,
)}`,
  );
}

const withdrawButton = (e: StaleEntry) =>
  e.kind === "flip"
    ? html`<form data-api="/api/review/withdraw" class="row"><input type="hidden" name="fingerprint" value="${e.fingerprint}"><input type="hidden" name="grader" value="${e.grader ?? ""}"><input type="hidden" name="kind" value="${e.cause_kind ?? ""}"><input type="hidden" name="reference" value="${e.reference ?? ""}"><button>withdraw</button><span class="error" role="alert"></span></form>`
    : html`<form data-api="/api/sample/withdraw" class="row"><input type="hidden" name="fingerprint" value="${e.fingerprint}"><input type="hidden" name="comparison" value="${e.comparison ?? ""}"><button>withdraw</button><span class="error" role="alert"></span></form>`;

const json = (text: string | null): string => {
  if (text === null) return "";
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
};
const jsonValue = (v: unknown): string => (typeof v === "string" ? json(v) : JSON.stringify(v, null, 2));

function causeBlock(c: ShowCause): SafeHtml {
  return html`<div class="cause${c.gates ? " gates" : ""}" id="${c.label}">
<div><span class="label">${c.label}</span> <code>${c.kind}:${c.reference}</code> <span class="muted">${c.grader}${c.gates ? ", gates" : ", reported"}</span>${c.message_index === null ? "" : html` · <a href="#m${c.message_index}">message ${c.message_index}</a>`}${c.turn_idx === null ? "" : ` (turn ${c.turn_idx})`}${c.tool_name === null ? "" : html` · <code>${c.tool_name}</code>`}</div>
<div>${c.message}</div>
${
  c.evidence.length === 0
    ? ""
    : html`<details><summary>${c.evidence.length} piece(s) of evidence</summary>${c.evidence.map(
        (e) =>
          html`<div class="pre">${e.code}: ${e.message}${e.message_index === null ? "" : ` [message ${e.message_index}]`}${e.tool_name === null ? "" : ` ${e.tool_name}`}${e.path === null ? "" : ` ${e.db ?? ""}${e.path}`}${e.predicted_value === null ? "" : `\npredicted: ${e.predicted_value}`}${e.gold_value === null ? "" : `\ngold: ${e.gold_value}`}${e.initial_value === null ? "" : `\ninitial: ${e.initial_value}`}${e.quote === null ? "" : `\nquote: ${e.quote}`}${e.excerpt === null ? "" : `\nexcerpt: ${e.excerpt}`}${e.arguments === null ? "" : `\narguments: ${e.arguments}`}</div>`,
      )}</details>`
}
</div>`;
}

function messageBlock(m: ShowMessage): SafeHtml {
  const long = m.role === "tool" && (m.content?.length ?? 0) > 240;
  const content =
    m.content === null || m.content === ""
      ? ""
      : long
        ? html`<details><summary>tool result, ${m.content.length} characters${m.tool_error === true ? " (error)" : ""}</summary><div class="content">${m.content}</div></details>`
        : html`<div class="content">${m.content}</div>`;
  return html`<li class="msg ${m.role}${m.marks.length > 0 ? " marked" : ""}" id="m${m.message_index}">
<div class="head">#${m.message_index} ${m.role}${m.turn_idx === null ? "" : ` · turn ${m.turn_idx}`}${m.tool_call_id === null ? "" : ` · ${m.tool_call_id}`}${m.marks.length > 0 ? html` · <span class="mark">${m.marks.map((l, i) => html`${i > 0 ? " " : ""}<a href="#${l}">${l}</a>`)}</span>` : ""}</div>
${content}
${m.tool_calls.map((t) => html`<div class="pre">${t.name}(${jsonValue(t.arguments)})${t.id === null ? "" : `  [${t.id}]`}</div>`)}
</li>`;
}

const reviewerInput = (reviewer: string | null) =>
  html`<label>reviewer <input name="reviewer" value="${reviewer ?? ""}" size="14" required></label>`;

function flipReviewForms(
  p: SimulationPage,
  simKey: string,
  reviewer: string | null,
  next: string | null,
): SafeHtml {
  // One review per cause, whichever comparisons it explains.
  const byCause = new Map<string, SimulationPage["targets"]>();
  for (const t of p.targets) {
    const k = `${t.grader}\u0000${t.kind}\u0000${t.reference}`;
    byCause.set(k, [...(byCause.get(k) ?? []), t]);
  }
  if (byCause.size === 0 && p.stale.length === 0) return html``;
  const fp = p.view.simulation.fingerprint;
  return html`<h2>Flip reviews</h2>
${[...byCause.values()].map((ts) => {
  const t = ts[0] as SimulationPage["targets"][number];
  const state = t.verdict ?? "unreviewed";
  return html`<div class="review" data-cause="${t.kind}:${t.reference}">
<div class="row"><code>${t.kind}:${t.reference}</code> <span class="muted">${t.grader}; flips ${ts.map((x) => x.comparison).join(", ")}${t.excluded ? " (excluded file)" : ""}</span> <span class="rv rv-${state}">${state}</span></div>
${t.verdict === null ? "" : html`<div class="row status">${t.reason} <span class="muted">— ${t.reviewer ?? "?"}${t.date === null ? "" : `, ${t.date}`}</span></div>`}
<form data-api="/api/review" data-next="${next ?? ""}">
<input type="hidden" name="sim_key" value="${simKey}"><input type="hidden" name="grader" value="${t.grader}"><input type="hidden" name="kind" value="${t.kind}"><input type="hidden" name="reference" value="${t.reference}">
<div class="row">${REVIEW_VERDICTS.map((v) => html`<label><input type="radio" name="verdict" value="${v}"${t.verdict === v ? html` checked` : ""} required> ${v}</label>`)}</div>
<textarea name="reason" placeholder="why, citing the turns" required>${t.reason ?? ""}</textarea>
<div class="row">${reviewerInput(t.reviewer ?? reviewer)}<button type="submit">${t.verdict === null ? "save" : "change"}</button>${t.verdict === null ? "" : html`<button type="button" data-withdraw="/api/review/withdraw">withdraw</button>`}<span class="error" role="alert"></span></div>
${fp === null ? "" : html`<input type="hidden" name="fingerprint" value="${fp}">`}
</form></div>`;
})}
${p.stale.map((s) =>
  fp === null
    ? ""
    : html`<div class="review stale"><div class="row"><span class="rv rv-stale">stale</span> <code>${s.kind}:${s.reference}</code> <span class="muted">${s.grader}; ${s.stale_reason ?? ""}</span></div>
<div class="row"><span class="rv rv-${s.verdict}">${s.verdict}</span> ${s.reason}</div>
${withdrawButton({ kind: "flip", simulation_id: null, path: null, fingerprint: fp, what: "", verdict: s.verdict, reason: s.reason, stale_reason: s.stale_reason, grader: s.grader, cause_kind: s.kind, reference: s.reference })}</div>`,
)}`;
}

function sampledForms(
  p: SimulationPage,
  simKey: string,
  reviewer: string | null,
  seed: number | undefined,
  next: string | null,
): SafeHtml {
  const fp = p.view.simulation.fingerprint;
  const comparisons = [...new Set([...p.bothPass, ...p.sampled.map((s) => s.comparison)])];
  if (comparisons.length === 0 || fp === null) return html``;
  return html`<h2>Sampled reviews</h2>
<p class="muted">Both sides of these comparisons pass this simulation: did they both miss a violation? Cite the turns.</p>
${comparisons.map((c) => {
  const s = p.sampled.find((x) => x.comparison === c);
  const state = s === undefined ? "unreviewed" : s.stale ? "stale" : s.verdict;
  return html`<div class="review${s?.stale === true ? " stale" : ""}" data-sample="${c}">
<div class="row"><code>${c}</code> <span class="rv rv-${state}">${state}</span>${s === undefined ? "" : html` <span class="rv rv-${s.verdict}">${s.verdict}</span> <span class="muted">seed ${s.seed}</span>`}${s?.stale === true ? html` <span class="muted">${s.stale_reason ?? ""}</span>` : ""}</div>
${s === undefined ? "" : html`<div class="row status">${s.reason} <span class="muted">— ${s.reviewer ?? "?"}${s.date === null ? "" : `, ${s.date}`}</span></div>`}
${
  p.bothPass.includes(c)
    ? html`<form data-api="/api/sample" data-next="${next ?? ""}">
<input type="hidden" name="sim_key" value="${simKey}"><input type="hidden" name="comparison" value="${c}">
<div class="row">${SAMPLE_VERDICTS.map((v) => html`<label><input type="radio" name="verdict" value="${v}"${s?.verdict === v ? html` checked` : ""} required> ${v}</label>`)}
<label>turns <input name="turns" size="10" placeholder="e.g. 5, 7"></label>
<label>seed <input name="seed" value="${s?.seed ?? seed ?? ""}" size="8" required></label></div>
<textarea name="reason" placeholder="what you read, citing the turns" required>${s?.reason ?? ""}</textarea>
<div class="row">${reviewerInput(s?.reviewer ?? reviewer)}<button type="submit">${s === undefined ? "save" : "change"}</button>${s === undefined ? "" : html`<button type="button" data-withdraw="/api/sample/withdraw">withdraw</button>`}<span class="error" role="alert"></span></div>
<input type="hidden" name="fingerprint" value="${fp}">
</form>`
    : ""
}
</div>`;
})}`;
}

export interface SimulationContext {
  readonly simKey: string;
  readonly comparison?: string;
  readonly seed?: number;
  readonly n?: number;
  readonly next: string | null;
  readonly reviewer: string | null;
  /** The fixtures' text by label (read from the experiment's requirements folders); null when not found. */
  readonly fixtureText: (label: string) => string | null;
}

export function simulationPageHtml(p: SimulationPage, ctx: SimulationContext): string {
  const v = p.view;
  const s = v.simulation;
  const parts = p.task === null ? [] : instructionParts(p.task.instructions);
  const gold = goldActions(p.task?.criteria ?? null);
  return layout(
    { title: s.simulation_id ?? ctx.simKey, next: ctx.next },
    html`<h1>${s.simulation_id ?? "(no id)"} <span class="muted">task ${s.task_id ?? "?"}${s.trial === null ? "" : ` · trial ${s.trial}`}</span></h1>
<p class="muted"><code>${s.path}</code> #${s.sim_index} · ${s.domain ?? "?"}${s.task_version === null ? "" : ` ${s.task_version}`} · ${s.model}${s.user_model === null ? "" : ` (user ${s.user_model})`} · ended ${s.termination_reason ?? "?"} · recorded reward ${s.recorded_reward ?? "–"}${s.excluded ? html` · <span class="badge">excluded: ${s.exclusion_reason ?? ""}</span>` : ""}${s.fingerprint === null ? "" : html` · fingerprint <code>${s.fingerprint.slice(0, 16)}…</code>`}</p>
${ctx.comparison === undefined ? "" : html`<p><a href="${ctx.seed === undefined ? comparisonPath(ctx.comparison) : href(`${comparisonPath(ctx.comparison)}/sample`, { n: ctx.n, seed: ctx.seed })}">← ${ctx.comparison}${ctx.seed === undefined ? "" : " sample"}</a></p>`}
${s.error === null ? "" : html`<p class="review stale">Not graded: ${s.error}</p>`}
<div class="grid"><div>
<h2>Verdicts</h2>
<div class="scroll"><table id="verdicts"><thead><tr><th>grader</th><th>verdict</th><th>reward</th><th>components</th></tr></thead><tbody>
${v.verdicts.map((x) => html`<tr><td>${x.grader}</td><td>${x.pass === null ? "–" : x.pass ? "pass" : "fail"}</td><td class="num">${x.reward ?? "–"}</td><td>${x.components.map((c, i) => html`${i > 0 ? ", " : ""}${c.component} ${c.score ?? "–"}${c.in_basis ? "" : " (off basis)"}${c.vacuous ? " (vacuous)" : ""}`)}${x.judge_failure === null ? "" : ` · judge: ${x.judge_failure}`}</td></tr>`)}
</tbody></table></div>
<div class="scroll"><table id="pairs"><thead><tr><th>comparison</th><th>baseline</th><th>candidate</th><th>flip</th></tr></thead><tbody>
${v.comparisons.map((c) => html`<tr><td><a href="${comparisonPath(c.name)}">${c.name}</a></td><td>${c.baseline} ${c.baseline_pass === null ? "–" : c.baseline_pass ? "pass" : "fail"}</td><td>${c.candidate} ${c.candidate_pass === null ? "–" : c.candidate_pass ? "pass" : "fail"}</td><td class="${c.flip ?? ""}">${c.flip === null ? "" : c.flip.replace("_to_", "→")}</td></tr>`)}
</tbody></table></div>
${flipReviewForms(p, ctx.simKey, ctx.reviewer, ctx.next)}
${sampledForms(p, ctx.simKey, ctx.reviewer, ctx.seed, ctx.next)}
<h2>Causes</h2>
${v.causes.length === 0 ? html`<p class="muted">No grader reported a cause.</p>` : v.causes.map(causeBlock)}
</div><div>
<h2>Task</h2>
${parts.length === 0 ? html`<p class="muted">The run stored no task text for this simulation.</p>` : html`<dl class="task">${parts.map((x) => html`<dt>${x.label}</dt><dd>${x.text}</dd>`)}</dl>`}
${p.task?.persona ? html`<details><summary>persona</summary><div class="content">${p.task.persona}</div></details>` : ""}
${p.task?.ticket ? html`<details><summary>ticket</summary><div class="pre">${p.task.ticket}</div></details>` : ""}
${gold.length === 0 ? "" : html`<details><summary>reference solution: ${gold.length} action(s)</summary>${gold.map((g) => html`<div class="pre">${g.name}(${g.arguments})${g.requestor === null ? "" : ` by ${g.requestor}`}</div>`)}</details>`}
<h2>Fixtures and facts</h2>
${
  p.coverage.length === 0
    ? html`<p class="muted">No grader recorded coverage for this simulation.</p>`
    : p.coverage.map((c) => {
        const labels = parseList(c.fixtures);
        const skipped = parseList(c.skipped);
        return html`<div class="cause"><b>${c.grader}</b>: ${c.fixtures_applied} fixture(s), ${c.facts_applied} fact(s), ${c.clauses_applicable} policy clause(s) applied${skipped.length === 0 ? "" : html`; <span class="rv rv-unclear">could not apply</span> ${skipped.join("; ")}`}
${labels.map((l) => {
  const text = ctx.fixtureText(l);
  return html`<details><summary><code>${l}</code></summary>${text === null ? html`<p class="muted">not found in the experiment's requirements folders</p>` : html`<div class="pre">${text}</div>`}</details>`;
})}</div>`;
      })
}
</div></div>
<h2>Conversation</h2>
${v.messages === null ? html`<p class="muted">${v.conversation_note ?? ""}</p>` : html`<ol class="msgs">${v.messages.map(messageBlock)}</ol>`}`,
  );
}

const parseList = (text: string): string[] => {
  try {
    const v = JSON.parse(text) as unknown;
    return Array.isArray(v) ? v.map((x) => (typeof x === "string" ? x : JSON.stringify(x))) : [text];
  } catch {
    return text === "" ? [] : [text];
  }
};

export function findPage(
  id: string,
  found: readonly { sim_key: string; simulation_id: string | null; path: string; task_id: string | null }[],
): string {
  return layout(
    { title: `find ${id}` },
    html`<h1>Simulations matching <code>${id}</code></h1>
${found.length === 0 ? html`<p>No simulation of this run has that id, key or fingerprint (or an id starting with it).</p>` : html`<ul>${found.slice(0, 50).map((f) => html`<li><a href="${simulationPath(f.sim_key)}">${f.simulation_id ?? f.sim_key}</a> <span class="muted">${f.path}, task ${f.task_id ?? "?"}</span></li>`)}</ul>${found.length > 50 ? html`<p class="muted">more than 50: type more of the id</p>` : ""}`}`,
  );
}

export function errorPage(status: number, message: string): string {
  return layout(
    { title: String(status) },
    html`<h1>${status}</h1><p>${message}</p><p><a href="/">run</a></p>`,
  );
}
