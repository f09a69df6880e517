/**
 * One simulation, whole, as `tau-rescore show` prints it: where it is, each grader's verdict, every
 * cause with its evidence, and the conversation with the messages that evidence points at. Built from
 * the store's rows of one simulation, whether they were read from a run's store or made by grading the
 * simulation now (`appendSimulationRows`), so both print alike.
 */
import { RECORDED, recordedPass } from "../graders/comparisons.ts";
import { GRADER_IDS, isBuiltInGraderId } from "../graders/registry.ts";
import type { RowOf } from "../store/schema.ts";
import { EXIT_USAGE, RescoreError } from "../util/errors.ts";

/** The simulation asked for is not there, or not alone there: exit 2, one line naming where it looked. */
export class ShowError extends RescoreError {
  override readonly code = "show";
  override readonly exitStatus = EXIT_USAGE;
  override readonly name = "ShowError";
}

/** Where the verdicts come from: a run of a store, or grading the file now. */
export type ShowSource =
  | {
      readonly kind: "store";
      readonly db: string;
      readonly run_id: string;
      readonly experiment: string;
      /** The experiment's `conversations` option in that run. */
      readonly conversations: string | null;
    }
  | { readonly kind: "file"; readonly path: string; readonly graders: readonly string[] };

export interface ShowSimulation {
  readonly simulation_id: string | null;
  /** What reviews are keyed by; null when the run stored no context for it. */
  readonly fingerprint: string | null;
  readonly path: string;
  /** Its position in the file (0-based). */
  readonly sim_index: number;
  readonly task_id: string | null;
  readonly trial: number | null;
  readonly domain: string | null;
  readonly task_version: string | null;
  readonly model: string;
  readonly user_model: string | null;
  readonly termination_reason: string | null;
  readonly recorded_reward: number | null;
  readonly excluded: boolean;
  readonly exclusion_reason: string | null;
  /** Why it was not graded; null when it was. */
  readonly error: string | null;
}

export interface ShowComponent {
  readonly component: string;
  readonly score: number | null;
  readonly in_basis: boolean;
  readonly vacuous: boolean;
}

export interface ShowVerdict {
  readonly grader: string;
  readonly pass: boolean | null;
  readonly reward: number | null;
  readonly db_match: boolean | null;
  readonly judge_failure: string | null;
  readonly components: readonly ShowComponent[];
}

export interface ShowComparison {
  readonly name: string;
  readonly baseline: string;
  readonly candidate: string;
  readonly baseline_pass: boolean | null;
  readonly candidate_pass: boolean | null;
  /** `pass_to_fail` or `fail_to_pass` when the sides disagree; null otherwise. */
  readonly flip: "pass_to_fail" | "fail_to_pass" | null;
}

/** A piece of evidence as the store keeps it (values, arguments: JSON text). */
export type ShowEvidence = Omit<RowOf<"evidence">, "run_id" | "sim_key" | "grader" | "cause_seq">;

export interface ShowCause {
  /** `C1`, `C2`, …: what marks the messages its evidence points at. */
  readonly label: string;
  readonly grader: string;
  readonly seq: number;
  readonly kind: string;
  readonly reference: string;
  readonly gates: boolean;
  readonly message: string;
  readonly message_index: number | null;
  readonly turn_idx: number | null;
  readonly tool_call_id: string | null;
  readonly tool_name: string | null;
  readonly actor: string | null;
  readonly evidence: readonly ShowEvidence[];
}

export interface ShowToolCall {
  readonly id: string | null;
  readonly name: string;
  readonly arguments: unknown;
  readonly requestor: string | null;
}

export interface ShowMessage {
  readonly message_index: number;
  readonly role: string;
  readonly turn_idx: number | null;
  readonly content: string | null;
  readonly tool_calls: readonly ShowToolCall[];
  /** A tool message's call id. */
  readonly tool_call_id: string | null;
  readonly tool_error: boolean | null;
  /** The labels of the causes whose place or evidence is this message. */
  readonly marks: readonly string[];
}

export interface SimulationView {
  readonly source: ShowSource;
  readonly simulation: ShowSimulation;
  readonly verdicts: readonly ShowVerdict[];
  readonly comparisons: readonly ShowComparison[];
  readonly causes: readonly ShowCause[];
  /** The whole conversation; null when it is not available (`conversation_note` says why). */
  readonly messages: readonly ShowMessage[] | null;
  readonly conversation_note: string | null;
}

/** The rows of one simulation a view is built from. */
export interface SimulationRows {
  readonly simulation: ShowSimulation;
  readonly verdicts: readonly Pick<
    RowOf<"verdicts">,
    "grader" | "pass" | "reward" | "db_match" | "judge_failure"
  >[];
  readonly components: readonly Pick<
    RowOf<"components">,
    "grader" | "component" | "score" | "in_basis" | "vacuous"
  >[];
  readonly causes: readonly Omit<RowOf<"causes">, "run_id" | "sim_key">[];
  readonly evidence: readonly Omit<RowOf<"evidence">, "run_id" | "sim_key">[];
  readonly conversation: readonly Omit<RowOf<"conversations">, "run_id" | "sim_key">[] | null;
  readonly comparisons: readonly Pick<ShowComparison, "name" | "baseline" | "candidate">[];
}

/** Built-in graders in registry order, then any other (a grader module's) by name. */
export function graderOrder(a: string, b: string): number {
  const rank = (g: string) => (isBuiltInGraderId(g) ? GRADER_IDS.indexOf(g) : GRADER_IDS.length);
  return rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0);
}

function toolCallsOf(json: string | null): ShowToolCall[] {
  if (json === null) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return [{ id: null, name: "(unreadable tool calls)", arguments: json, requestor: null }];
  }
  if (!Array.isArray(parsed)) return [{ id: null, name: "(tool calls)", arguments: parsed, requestor: null }];
  return parsed.map((c: unknown) => {
    const o = (c !== null && typeof c === "object" ? c : {}) as Record<string, unknown>;
    return {
      id: typeof o.id === "string" ? o.id : null,
      name: typeof o.name === "string" ? o.name : "(unnamed)",
      arguments: o.arguments ?? null,
      requestor: typeof o.requestor === "string" ? o.requestor : null,
    };
  });
}

/** Evidence with its keys in one order, whichever query or batch it came from. */
const evidenceOf = (e: SimulationRows["evidence"][number]): ShowEvidence => ({
  seq: e.seq,
  code: e.code,
  message: e.message,
  message_index: e.message_index,
  turn_idx: e.turn_idx,
  tool_call_id: e.tool_call_id,
  tool_name: e.tool_name,
  actor: e.actor,
  arguments: e.arguments,
  db: e.db,
  path: e.path,
  initial_value: e.initial_value,
  gold_value: e.gold_value,
  predicted_value: e.predicted_value,
  quote: e.quote,
  excerpt: e.excerpt,
});

/** The simulation with its keys in one order. */
const simulationOf = (s: ShowSimulation): ShowSimulation => ({
  simulation_id: s.simulation_id,
  fingerprint: s.fingerprint,
  path: s.path,
  sim_index: s.sim_index,
  task_id: s.task_id,
  trial: s.trial,
  domain: s.domain,
  task_version: s.task_version,
  model: s.model,
  user_model: s.user_model,
  termination_reason: s.termination_reason,
  recorded_reward: s.recorded_reward,
  excluded: s.excluded,
  exclusion_reason: s.exclusion_reason,
  error: s.error,
});

export function buildView(
  source: ShowSource,
  rows: SimulationRows,
  conversationNote: string,
): SimulationView {
  const verdicts = [...rows.verdicts]
    .sort((a, b) => graderOrder(a.grader, b.grader))
    .map(
      (v): ShowVerdict => ({
        grader: v.grader,
        pass: v.pass,
        reward: v.reward,
        db_match: v.db_match,
        judge_failure: v.judge_failure,
        components: rows.components
          .filter((c) => c.grader === v.grader)
          // The store keeps no order of a verdict's components: by name, wherever they come from.
          .sort((a, b) => (a.component < b.component ? -1 : a.component > b.component ? 1 : 0))
          .map((c) => ({ component: c.component, score: c.score, in_basis: c.in_basis, vacuous: c.vacuous })),
      }),
    );
  const passOf = (side: string): boolean | null =>
    side === RECORDED
      ? recordedPass(rows.simulation.recorded_reward)
      : (verdicts.find((v) => v.grader === side)?.pass ?? null);
  const comparisons = rows.comparisons.map((c): ShowComparison => {
    const b = passOf(c.baseline);
    const k = passOf(c.candidate);
    return {
      name: c.name,
      baseline: c.baseline,
      candidate: c.candidate,
      baseline_pass: b,
      candidate_pass: k,
      flip: b === null || k === null || b === k ? null : b ? "pass_to_fail" : "fail_to_pass",
    };
  });
  const causes = [...rows.causes]
    .sort((a, b) => graderOrder(a.grader, b.grader) || a.seq - b.seq)
    .map(
      (c, i): ShowCause => ({
        label: `C${i + 1}`,
        grader: c.grader,
        seq: c.seq,
        kind: c.kind,
        reference: c.reference,
        gates: c.gates,
        message: c.message,
        message_index: c.message_index,
        turn_idx: c.turn_idx,
        tool_call_id: c.tool_call_id,
        tool_name: c.tool_name,
        actor: c.actor,
        evidence: rows.evidence
          .filter((e) => e.grader === c.grader && e.cause_seq === c.seq)
          .sort((a, b) => a.seq - b.seq)
          .map(evidenceOf),
      }),
    );
  const marks = new Map<number, string[]>();
  for (const c of causes) {
    const at = new Set(
      [c.message_index, ...c.evidence.map((e) => e.message_index)].filter((i): i is number => i !== null),
    );
    for (const i of at) marks.set(i, [...(marks.get(i) ?? []), c.label]);
  }
  const messages =
    rows.conversation === null
      ? null
      : [...rows.conversation]
          .sort((a, b) => a.message_index - b.message_index)
          .map(
            (m): ShowMessage => ({
              message_index: m.message_index,
              role: m.role,
              turn_idx: m.turn_idx,
              content: m.content,
              tool_calls: toolCallsOf(m.tool_calls),
              tool_call_id: m.tool_call_id,
              tool_error: m.tool_error,
              marks: marks.get(m.message_index) ?? [],
            }),
          );
  return {
    source,
    simulation: simulationOf(rows.simulation),
    verdicts,
    comparisons,
    causes,
    messages,
    conversation_note: messages === null ? conversationNote : null,
  };
}
