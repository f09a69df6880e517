/**
 * A simulation view as terminal text, or as one JSON object. The text never cuts a message, a tool
 * result or an argument list; the margin of each message names the causes (`C1`, …) whose place or
 * evidence it is. Trajectory text is untrusted: control characters are shown as `\xNN` (`printable`).
 */
import { RECORDED } from "../graders/comparisons.ts";
import { printable } from "../reviews/terminal.ts";
import type { ShowCause, ShowEvidence, ShowMessage, SimulationView } from "./view.ts";

const indent = (text: string, pad: string) => text.replaceAll("\n", `\n${pad}`);

const num = (n: number | null) => (n === null ? "none" : String(n));

function verdictWord(pass: boolean | null): string {
  return pass === null ? "unknown" : pass ? "pass" : "FAIL";
}

function header(v: SimulationView): string[] {
  const s = v.simulation;
  const src = v.source;
  const lines = [
    `simulation ${s.simulation_id ?? "(no id)"}`,
    `file: ${s.path} (simulation ${s.sim_index + 1} of the file)${s.excluded ? `  excluded: ${s.exclusion_reason ?? ""}` : ""}`,
    `fingerprint: ${s.fingerprint ?? "not stored (the run kept no context for it)"}`,
    src.kind === "store"
      ? `run: ${src.run_id} of ${src.experiment} in ${src.db}`
      : `graded now with: ${src.graders.join(", ")}`,
    `task: ${s.task_id ?? "?"}${s.trial === null ? "" : ` · trial ${s.trial}`} · ${s.domain ?? "?"}${s.task_version === null ? "" : ` · task set ${s.task_version}`}`,
    `model: ${s.model}${s.user_model === null ? "" : ` (user: ${s.user_model})`}`,
    `termination: ${s.termination_reason ?? "?"}`,
    `recorded reward: ${num(s.recorded_reward)}`,
  ];
  if (s.error !== null) lines.push(`not graded: ${s.error}`);
  return lines;
}

function verdictLines(v: SimulationView): string[] {
  if (v.verdicts.length === 0) return ["verdicts: none"];
  const width = Math.max(...v.verdicts.map((x) => x.grader.length));
  const lines = ["verdicts:"];
  for (const x of v.verdicts) {
    lines.push(
      `  ${x.grader.padEnd(width)}  ${verdictWord(x.pass).padEnd(7)}  reward ${num(x.reward)}` +
        `${x.db_match === null ? "" : `  db_match ${x.db_match}`}${x.judge_failure === null ? "" : `  judge failure: ${x.judge_failure}`}`,
    );
    if (x.components.length > 0)
      lines.push(
        `  ${" ".repeat(width)}  ${x.components
          .map((c) => {
            const notes = [c.in_basis ? null : "not in basis", c.vacuous ? "vacuous" : null].filter(
              (x): x is string => x !== null,
            );
            return `${c.component} ${num(c.score)}${notes.length === 0 ? "" : ` (${notes.join(", ")})`}`;
          })
          .join(", ")}`,
      );
  }
  if (v.comparisons.length > 0) {
    lines.push("comparisons:");
    // A side without a verdict (a grader that does not apply, a file without a reward) is said so.
    const side = (grader: string, pass: boolean | null) =>
      pass !== null
        ? verdictWord(pass)
        : grader === RECORDED
          ? "no reward"
          : v.verdicts.some((x) => x.grader === grader)
            ? "unknown"
            : "no verdict";
    for (const c of v.comparisons)
      lines.push(
        `  ${c.name}: ${c.baseline} ${side(c.baseline, c.baseline_pass)}, ${c.candidate} ${side(c.candidate, c.candidate_pass)}${
          c.flip === null ? "" : `  (flip ${c.flip === "pass_to_fail" ? "pass→fail" : "fail→pass"})`
        }`,
      );
  }
  return lines;
}

/** Where a cause or a piece of evidence is: message, turn, tool and actor. */
function place(p: {
  message_index: number | null;
  turn_idx: number | null;
  tool_name: string | null;
  actor: string | null;
}): string {
  const parts = [
    p.message_index === null ? null : `#${p.message_index}`,
    p.turn_idx === null ? null : `turn ${p.turn_idx}`,
    p.tool_name === null ? null : `tool ${p.tool_name}`,
    p.actor,
  ].filter((x): x is string => x !== null);
  return parts.length === 0 ? "" : ` at ${parts.join(", ")}`;
}

function evidenceLines(e: ShowEvidence, pad: string, withExcerpt: boolean): string[] {
  const lines = [`${pad}- ${e.code}${place(e)}: ${indent(e.message, `${pad}  `)}`];
  const more = `${pad}  `;
  if (e.arguments !== null) lines.push(`${more}arguments: ${indent(e.arguments, more)}`);
  if (e.path !== null)
    lines.push(
      `${more}${e.db ?? "?"}: ${e.path}: initial ${e.initial_value ?? "absent"}, gold ${e.gold_value ?? "absent"}, predicted ${e.predicted_value ?? "absent"}`,
    );
  if (e.quote !== null) lines.push(`${more}quote: “${indent(e.quote, more)}”`);
  if (withExcerpt && e.excerpt !== null) lines.push(`${more}excerpt: ${indent(e.excerpt, more)}`);
  return lines;
}

function causeLines(c: ShowCause, withExcerpt: boolean): string[] {
  const pad = "       ";
  const lines = [
    `  [${c.label}] ${c.grader}  ${c.kind}:${c.reference}  ${c.gates ? "gates" : "reported"}${place(c)}`,
    `${pad}${indent(c.message, pad)}`,
  ];
  if (c.evidence.length > 0) {
    lines.push(`${pad}evidence:`);
    for (const e of c.evidence) lines.push(...evidenceLines(e, `${pad}  `, withExcerpt));
  }
  return lines;
}

const argumentsText = (a: unknown): string => (typeof a === "string" ? a : JSON.stringify(a));

/** `C1,C2,C3,C5` → `C1-C3,C5`: a message many causes point at keeps a narrow margin. */
export function markText(labels: readonly string[]): string {
  const n = labels.map((l) => Number(l.slice(1)));
  const parts: string[] = [];
  for (let i = 0; i < n.length; ) {
    let j = i;
    while (j + 1 < n.length && n[j + 1] === (n[j] as number) + 1) j++;
    parts.push(j - i >= 2 ? `${labels[i]}-${labels[j]}` : labels.slice(i, j + 1).join(","));
    i = j + 1;
  }
  return parts.join(",");
}

function messageLines(m: ShowMessage, margin: number): string[] {
  const mark = markText(m.marks).padEnd(margin);
  const pad = " ".repeat(margin + 4);
  const role =
    m.role === "tool"
      ? `tool${m.tool_call_id === null ? "" : ` (${m.tool_call_id}${m.tool_error ? ", error" : ""})`}${m.tool_call_id === null && m.tool_error ? " (error)" : ""}`
      : m.role;
  const head = `${mark}  #${m.message_index}${m.turn_idx === null ? "" : ` [turn ${m.turn_idx}]`} ${role}:`;
  const body = m.content === null || m.content === "" ? "" : ` ${indent(m.content, pad)}`;
  const calls = m.tool_calls.map(
    (c) =>
      `${pad}→ ${c.name}(${indent(argumentsText(c.arguments), pad)})${c.id === null ? "" : `  [${c.id}]`}${
        c.requestor === null || c.requestor === "assistant" ? "" : `  (by ${c.requestor})`
      }`,
  );
  return [head + body, ...calls];
}

export function renderText(v: SimulationView): string {
  const lines = [...header(v), ...verdictLines(v)];
  if (v.causes.length === 0) lines.push("causes: none");
  else {
    lines.push(
      `causes (${v.causes.length}${v.messages === null ? "" : "; each label marks the messages of its place and evidence below"}):`,
    );
    for (const c of v.causes) lines.push(...causeLines(c, v.messages === null));
  }
  if (v.messages === null) lines.push(`conversation: ${v.conversation_note ?? "not available"}`);
  else {
    lines.push(`conversation (${v.messages.length} messages, whole):`);
    const margin = Math.max(2, ...v.messages.map((m) => markText(m.marks).length));
    for (const m of v.messages) lines.push(...messageLines(m, margin));
  }
  // Everything is trajectory text (ids, paths, models too): one pass over the whole.
  return `${printable(lines.join("\n"))}\n`;
}

/** One JSON object with stable keys (in the order of the view's types), ending with a newline. */
export function renderJson(v: SimulationView): string {
  const out = {
    source: v.source,
    simulation: v.simulation,
    verdicts: v.verdicts,
    comparisons: v.comparisons,
    causes: v.causes,
    conversation_note: v.conversation_note,
    messages: v.messages,
  };
  return `${JSON.stringify(out, null, 2)}\n`;
}
