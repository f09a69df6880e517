/**
 * One flip cause as plain terminal text for `tau-rescore review`: where it is, the cause, the comparisons
 * whose flip it explains (which side passed, which failed) and its evidence, the user's instructions,
 * and the conversation around the evidence turns (marked `>>`).
 * Trajectory text is untrusted: control characters (terminal escape sequences) are shown as `\xNN`.
 */
import { visibleText } from "../util/visible-text.ts";
import type {
  EvidenceText,
  MessageRow,
  ReviewTarget,
  SampledSimulation,
  TargetFlip,
  TaskText,
} from "./queries.ts";
import { goldActions, instructionParts, toolCallsOf } from "./task-text.ts";

/**
 * Trajectory text → printable text: escape sequences, carriage returns and other control characters
 * shown as `\xNN` / `\uNNNN`; tabs and newlines kept, as a page of text is made of lines.
 */
export const printable = (text: string): string => visibleText(text, "\t\n");

const clip = (text: string, max: number) =>
  text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;

const indent = (text: string, pad: string) => text.replaceAll("\n", `\n${pad}`);

export interface TargetView {
  readonly target: ReviewTarget;
  readonly position: { readonly index: number; readonly total: number };
  readonly evidence: readonly EvidenceText[];
  readonly task: TaskText | null;
  readonly messages: readonly MessageRow[];
  /** Messages that made a write call, shown when the cause has no turn of its own (a DB field). */
  readonly writes: readonly number[];
  /** Messages shown before and after each marked one. */
  readonly context: number;
}

function evidenceLine(e: EvidenceText): string {
  const where = e.turn_idx === null ? "" : `turn ${e.turn_idx}: `;
  const call =
    e.tool_name === null ? "" : ` ${e.tool_name}${e.arguments === null ? "" : clip(e.arguments, 300)}`;
  const field =
    e.path === null
      ? ""
      : `\n      ${e.db ?? "?"}: ${e.path}: initial ${e.initial_value ?? "absent"}, gold ${e.gold_value ?? "absent"}, predicted ${e.predicted_value ?? "absent"}`;
  const quote = e.quote === null ? "" : `\n      quote: “${e.quote}”`;
  return `    - ${where}${e.message}${call}${field}${quote}`;
}

function messageLines(m: MessageRow, marked: boolean): string[] {
  const head = `${marked ? ">>" : "  "} #${m.message_index}${m.turn_idx === null ? "" : ` [turn ${m.turn_idx}]`} ${m.role}${
    m.role === "tool" && m.tool_error ? " (error)" : ""
  }: `;
  const pad = " ".repeat(8);
  const body =
    m.content === null || m.content === ""
      ? ""
      : indent(clip(m.content, m.role === "tool" ? 400 : 1500), pad);
  const calls = toolCallsOf(m.tool_calls).map(
    (c) => `${pad}→ ${c.name}(${indent(clip(c.arguments, 600), pad)})`,
  );
  return [head + body, ...calls];
}

/** Indices to show: each marked message with `context` neighbours, at most `limit` in all. */
function window(marked: ReadonlySet<number>, count: number, context: number, limit = 40): number[] {
  const shown = new Set<number>();
  const centres = marked.size > 0 ? [...marked] : [count - 1];
  for (const i of centres)
    for (let j = Math.max(0, i - context); j <= Math.min(count - 1, i + context); j++) shown.add(j);
  return [...shown].sort((a, b) => a - b).slice(0, limit);
}

/** `tau3-vs-structured: tau3 passed, structured failed`. */
function flipLine(f: TargetFlip): string {
  const [passed, failed] =
    f.direction === "pass_to_fail" ? [f.baseline, f.candidate] : [f.candidate, f.baseline];
  return `${f.comparison}: ${passed} passed, ${failed} failed`;
}

export function renderTarget(v: TargetView): string {
  const t = v.target;
  const lines = [
    "",
    `━━ ${v.position.index} of ${v.position.total} ━━ ${t.domain} · task ${t.task_id}${t.trial === null ? "" : ` · trial ${t.trial}`} · ${t.model}`,
    `file: ${t.path}`,
    `simulation: ${t.simulation_id ?? "(no id)"}${t.excluded ? "  (excluded file)" : ""}`,
    // One review serves every comparison listed.
    ...t.flips.map((f) => `flip: ${flipLine(f)}`),
    `cause: ${t.kind} ${t.reference} (${t.grader})`,
    `  ${indent(t.message, "  ")}`,
  ];
  if (v.evidence.length > 0) lines.push("  evidence:", ...v.evidence.map((e) => indent(evidenceLine(e), "")));
  if (v.task !== null) {
    lines.push("task:");
    if (v.task.persona !== null) lines.push(`  persona: ${indent(clip(v.task.persona, 600), "    ")}`);
    for (const p of instructionParts(v.task.instructions))
      lines.push(`  ${p.label}: ${indent(clip(p.text, 1200), "    ")}`);
  }
  const evidenceTurns = new Set(
    [t.message_index, ...v.evidence.map((e) => e.message_index)].filter((i): i is number => i !== null),
  );
  const marked = evidenceTurns.size > 0 ? evidenceTurns : new Set(v.writes);
  const shown = window(marked, v.messages.length, v.context);
  const why =
    evidenceTurns.size > 0
      ? ">> marks the evidence"
      : marked.size > 0
        ? "no turn of its own (a DB end state): >> marks the messages that wrote to the DB"
        : "no turn of its own and no writes: the end of the conversation";
  lines.push(`conversation (${v.messages.length} messages; ${why}):`);
  let last = -1;
  for (const i of shown) {
    const m = v.messages[i];
    if (m === undefined) continue;
    if (i > last + 1) lines.push("   …");
    lines.push(...messageLines(m, marked.has(i)));
    last = i;
  }
  if (last < v.messages.length - 1) lines.push("   …");
  // Everything from the store is trajectory text (ids, paths, models too): one pass over the whole.
  return `${printable(lines.join("\n"))}\n`;
}

/** A cause some grader reported for a sampled simulation (gating for a grader outside the comparison, or not). */
export interface SampleCause {
  grader: string;
  kind: string;
  reference: string;
  gates: boolean;
  message: string;
  message_index: number | null;
  turn_idx: number | null;
}

export interface SampleView {
  readonly simulation: SampledSimulation;
  readonly comparison: string;
  readonly seed: number;
  readonly position: { readonly index: number; readonly total: number };
  /** Simulations both sides pass in its domain: what the sample stands for. */
  readonly population: number | null;
  readonly causes: readonly SampleCause[];
  readonly task: TaskText | null;
  readonly messages: readonly MessageRow[];
  /** The domain's policy text and clause files, for the reviewer to check the conversation against. */
  readonly pointers: readonly string[];
}

/**
 * A drawn simulation for `review sample`: both sides passed it, so there is no cause to judge; the
 * reviewer reads the whole conversation for a violation both missed. Causes other graders reported
 * (and those reported without failing) are marked `>>` as places to look.
 */
export function renderSample(v: SampleView): string {
  const s = v.simulation;
  const lines = [
    "",
    `━━ ${v.position.index} of ${v.position.total} ━━ ${s.domain ?? "?"} · task ${s.task_id ?? "?"}${s.trial === null ? "" : ` · trial ${s.trial}`} · ${s.model}`,
    `file: ${s.path}`,
    `simulation: ${s.simulation_id ?? "(no id)"}`,
    `sample: ${v.comparison}: ${s.baseline} and ${s.candidate} both passed; seed ${v.seed}, draw ${s.rank}${v.population === null ? "" : ` of ${v.population} both-pass simulations in ${s.domain ?? "?"}`}`,
    "question: did the agent break the policy or the user's wishes where both sides saw nothing?",
  ];
  if (v.pointers.length > 0) lines.push(`policy: ${v.pointers.join("  ")}`);
  if (v.causes.length > 0) {
    lines.push("reported by graders (places to look):");
    for (const c of v.causes)
      lines.push(
        `  - ${c.grader}: ${c.kind} ${c.reference}${c.gates ? " (fails it)" : " (reported)"}${c.turn_idx === null ? "" : ` at turn ${c.turn_idx}`}: ${indent(clip(c.message, 400), "    ")}`,
      );
  }
  if (v.task !== null) {
    lines.push("task:");
    if (v.task.persona !== null) lines.push(`  persona: ${indent(clip(v.task.persona, 600), "    ")}`);
    for (const p of instructionParts(v.task.instructions))
      lines.push(`  ${p.label}: ${indent(clip(p.text, 1200), "    ")}`);
    const gold = goldActions(v.task.criteria);
    if (gold.length > 0) {
      lines.push("  gold actions:");
      for (const a of gold) lines.push(`    ${a.name}(${clip(a.arguments, 300)})`);
    }
  }
  const marked = new Set(v.causes.map((c) => c.message_index).filter((i): i is number => i !== null));
  lines.push(
    `conversation (${v.messages.length} messages, whole${marked.size > 0 ? "; >> marks where a grader reported a cause" : ""}):`,
  );
  for (const m of v.messages) lines.push(...messageLines(m, marked.has(m.message_index)));
  return `${printable(lines.join("\n"))}\n`;
}
