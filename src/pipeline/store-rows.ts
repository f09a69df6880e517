/** Table rows for one graded file, typed by `store/schema.ts`; every grader's rows come from its `record`. */

import type { DomainDef } from "../domains/domain.ts";
import type { Message, Simulation, Task, TrajectoryFile } from "../formats/model.ts";
import { configurationOf } from "../formats/run-info.ts";
import type { Cause } from "../graders/causes.ts";
import { recordedPass } from "../graders/comparisons.ts";
import type { Evidence } from "../graders/evidence.ts";
import type { VerdictRecord } from "../graders/grader.ts";
import { GRADER_IDS, type GraderId, graderOf } from "../graders/registry.ts";
import type { NlJudgement } from "../graders/tau3/nl.ts";
import { canonicalJson, sha256Hex } from "../py/json.ts";
import type { PyValue } from "../py/value.ts";
import type { RowOf, TableName } from "../store/schema.ts";
import type { GradedSimulation } from "./grade.ts";

export const simKey = (fileId: string, index: number): string => sha256Hex(`${fileId}:${index}`);

const pyJson = (v: PyValue | undefined): string | null => (v === undefined ? null : canonicalJson(v));

/** What the `files` table records about a file, loaded or not. */
export interface FileMeta {
  readonly variant: string;
  readonly info: Pick<
    TrajectoryFile["info"],
    | "domain"
    | "agent_model"
    | "agent_implementation"
    | "user_model"
    | "user_implementation"
    | "agent_args"
    | "user_args"
  >;
  readonly simulations: number;
  readonly rejected: number;
}

export const metaOf = (file: TrajectoryFile): FileMeta => ({
  variant: file.variant,
  info: file.info,
  simulations: file.simulations.length,
  rejected: file.rejected.length,
});

export const unloadedMeta = (variant: string): FileMeta => ({
  variant,
  info: {
    domain: null,
    agent_model: null,
    agent_implementation: null,
    user_model: null,
    user_implementation: null,
    agent_args: null,
    user_args: null,
  },
  simulations: 0,
  rejected: 0,
});

export interface FileContext {
  readonly runId: string;
  readonly fileId: string;
  readonly path: string;
  readonly file: FileMeta;
  readonly taskVersion: string;
  readonly domain: DomainDef | undefined;
  readonly exclusion: string | null;
}

/** What a simulation's rows need of their file and run. */
export interface RowContext {
  readonly runId: string;
  readonly fileId: string;
  readonly domain: DomainDef | undefined;
  /** Each selected grader's spec hash (`graders/spec.ts`). */
  readonly hashes: Readonly<Partial<Record<GraderId, string>>>;
  /** Whose conversation is stored: simulations whose graders disagree (default), or all. */
  readonly conversations?: "disagreements" | "all";
  /** A comparison reads the recorded reward: where it disagrees with a grader, that is a disagreement too. */
  readonly compareRecorded?: boolean;
}

export function fileRow(ctx: FileContext, status: string, error: string | null): RowOf<"files"> {
  const { file } = ctx;
  return {
    run_id: ctx.runId,
    file_id: ctx.fileId,
    path: ctx.path,
    variant: file.variant,
    domain: file.info.domain,
    agent_model: file.info.agent_model,
    agent_implementation: file.info.agent_implementation,
    user_model: file.info.user_model,
    task_version: ctx.taskVersion,
    simulations: file.simulations,
    rejected: file.rejected,
    status,
    error,
    excluded: ctx.exclusion !== null,
    exclusion_reason: ctx.exclusion,
    configuration:
      status === "graded"
        ? configurationOf(file.info, file.info.domain ?? ctx.domain?.name ?? null, ctx.taskVersion)
        : null,
  };
}

/** The tables a file's rows go to. */
export const FILE_TABLES = [
  "simulations",
  "verdicts",
  "components",
  "causes",
  "evidence",
  "sim_context",
  "conversations",
  "tool_calls",
  "nl_assertions",
  "coverage",
  "errors",
] as const satisfies readonly TableName[];
type FileTable = (typeof FILE_TABLES)[number];

/** Per-table row lists for one file. */
export type SimulationBatch = { readonly [T in FileTable]: RowOf<T>[] };

export function emptyBatch(): SimulationBatch {
  return {
    simulations: [],
    verdicts: [],
    components: [],
    causes: [],
    evidence: [],
    sim_context: [],
    conversations: [],
    tool_calls: [],
    nl_assertions: [],
    coverage: [],
    errors: [],
  };
}

/** A live judge's per-assertion verdicts (recorded ones stay in the trajectory file they came from). */
function nlRows(batch: SimulationBatch, run: string, key: string, nl: NlJudgement | null): void {
  if (nl?.status !== "judged" || nl.provenance === undefined) return;
  const p = nl.provenance;
  for (const [seq, r] of nl.results.entries())
    batch.nl_assertions.push({
      run_id: run,
      sim_key: key,
      seq,
      assertion: r.assertion,
      met: r.met,
      reasoning: r.justification,
      source: nl.source,
      judge_model: p.model,
      cache_key: p.cacheKey,
      degenerate: p.degenerate,
    });
}

/** JSON that also writes ints beyond 2^53 (as numbers) and Python floats (as numbers). */
const plainJson = (v: unknown): string =>
  JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? Number(x) : x));

/** A simulation's content fingerprint: what reviews are keyed by (not its file's bytes, not its index). */
export function simulationFingerprint(sim: Simulation): string {
  return sha256Hex(
    plainJson({
      id: sim.id,
      task_id: sim.task_id,
      trial: sim.trial,
      termination_reason: sim.termination_reason,
      messages: sim.messages,
    }),
  );
}

/** The task text and the whole conversation, for reviewers and the report's conversation view. */
function contextRows(batch: SimulationBatch, run: string, key: string, sim: Simulation, task: Task): void {
  const instructions = task.user_scenario.instructions;
  batch.sim_context.push({
    run_id: run,
    sim_key: key,
    fingerprint: simulationFingerprint(sim),
    persona: task.user_scenario.persona,
    instructions: typeof instructions === "string" ? instructions : plainJson(instructions),
    ticket: task.ticket,
    criteria: task.evaluation_criteria === null ? null : plainJson(task.evaluation_criteria),
  });
  sim.messages.forEach((m, i) => {
    batch.conversations.push({
      run_id: run,
      sim_key: key,
      message_index: i,
      role: m.role,
      content: m.content,
      tool_calls:
        (m.role === "assistant" || m.role === "user") && m.tool_calls !== null
          ? plainJson(m.tool_calls)
          : null,
      tool_call_id: m.role === "tool" ? m.id : null,
      tool_error: m.role === "tool" ? m.error : null,
      turn_idx: m.turn_idx,
    });
  });
}

/** Evidence texts are stored up to this many characters (the report shows the start). */
const MAX_EXCERPT = 2000;

/** Where one grader's rows of one simulation go. Rows are written out field by field: spreads cost ~3× here. */
interface RowBase {
  readonly run_id: string;
  readonly sim_key: string;
  readonly grader: GraderId;
}

function causeRow(b: RowBase, seq: number, c: Cause): RowOf<"causes"> {
  return {
    run_id: b.run_id,
    sim_key: b.sim_key,
    grader: b.grader,
    seq,
    kind: c.kind,
    reference: c.reference,
    gates: c.gates,
    message: c.message,
    message_index: c.messageIndex,
    turn_idx: c.turnIdx,
    tool_call_id: c.toolCallId,
    tool_name: c.toolName,
    actor: c.actor,
  };
}

function evidenceRow(
  b: RowBase,
  causeSeq: number,
  seq: number,
  e: Evidence,
  messages: readonly Message[],
): RowOf<"evidence"> {
  const content = e.messageIndex === undefined ? null : (messages[e.messageIndex]?.content ?? null);
  const values = e.values;
  return {
    run_id: b.run_id,
    sim_key: b.sim_key,
    grader: b.grader,
    cause_seq: causeSeq,
    seq,
    code: e.code,
    message: e.message,
    message_index: e.messageIndex ?? null,
    turn_idx: e.turnIdx ?? null,
    tool_call_id: e.toolCallId ?? null,
    tool_name: e.toolName ?? null,
    actor: e.actor ?? null,
    arguments: pyJson(e.arguments),
    db: e.db ?? null,
    path: e.path ?? null,
    initial_value: values === undefined ? null : pyJson(values.initial),
    gold_value: values === undefined ? null : pyJson(values.gold),
    predicted_value: values === undefined ? null : pyJson(values.predicted),
    quote: e.quote ?? null,
    excerpt: e.excerpt ?? (content === null ? null : content.slice(0, MAX_EXCERPT)),
  };
}

/**
 * One grader's verdict, components, causes and evidence rows; returns the verdict's pass. `checked`: a
 * grader module's record, already checked (its `record` is not called again).
 */
function graderRows(
  batch: SimulationBatch,
  ctx: RowContext,
  key: string,
  id: GraderId,
  verdict: unknown,
  checked: VerdictRecord | undefined,
  messages: readonly Message[],
): boolean | null {
  const g = graderOf(id);
  const r = checked ?? g.record(verdict);
  const b: RowBase = { run_id: ctx.runId, sim_key: key, grader: id };
  batch.verdicts.push({
    run_id: b.run_id,
    sim_key: key,
    grader: id,
    grader_version: g.version,
    spec_hash: ctx.hashes[id] ?? "unhashed",
    pass: r.pass,
    reward: r.reward,
    db_match: r.dbMatch,
    notes: JSON.stringify(r.notes),
    judge_failure: r.judgeFailure,
  });
  for (const c of r.components)
    batch.components.push({
      run_id: b.run_id,
      sim_key: key,
      grader: id,
      component: c.name,
      score: c.score,
      in_basis: c.inBasis,
      vacuous: c.vacuous,
    });
  if (r.coverage !== undefined)
    batch.coverage.push({
      run_id: b.run_id,
      sim_key: key,
      grader: id,
      fixtures: JSON.stringify(r.coverage.fixtures),
      fixtures_applied: r.coverage.fixtures.length,
      facts_applied: r.coverage.facts,
      clauses_applicable: r.coverage.clauses,
      skipped: JSON.stringify(r.coverage.skipped),
    });
  for (let seq = 0; seq < r.causes.length; seq++) {
    const c = r.causes[seq] as Cause;
    batch.causes.push(causeRow(b, seq, c));
    for (let i = 0; i < c.evidence.length; i++)
      batch.evidence.push(evidenceRow(b, seq, i, c.evidence[i] as Evidence, messages));
  }
  return r.pass;
}

/**
 * Appends the rows of the file's `index`-th simulation. Rows are built as each simulation is graded,
 * so its verdict (replayed DB states, evidence) can be collected before the next one is graded.
 */
export function appendSimulationRows(
  batch: SimulationBatch,
  ctx: RowContext,
  g: GradedSimulation,
  index: number,
): void {
  const run = ctx.runId;
  const key = simKey(ctx.fileId, index);
  const r = g.row;
  const transfer = g.verdicts.structured?.transfer;
  batch.simulations.push({
    run_id: run,
    sim_key: key,
    file_id: ctx.fileId,
    sim_index: index,
    simulation_id: r.simulation_id,
    task_id: r.task_id,
    trial: r.trial,
    termination_reason: r.termination_reason,
    // Python writes a missing reward as NaN: no recorded reward, not one that was not reproduced.
    recorded_reward: Number.isNaN(r.recorded_reward) ? null : r.recorded_reward,
    domain: r.domain,
    task_version: r.task_version,
    model: r.agent_model ?? "unknown",
    graded: r.error === undefined,
    should_transfer: transfer?.should ?? null,
    handoff_rule: transfer?.rule ?? null,
    did_transfer: transfer?.did ?? null,
  });
  if (r.error !== undefined) {
    batch.errors.push({ run_id: run, file_id: ctx.fileId, sim_key: key, stage: "grade", message: r.error });
    return;
  }
  const messages = g.sim?.messages ?? [];
  let passes = 0;
  let fails = 0;
  for (const id of GRADER_IDS) {
    const v = g.verdicts[id];
    if (v === undefined) continue;
    const pass = graderRows(batch, ctx, key, id, v, g.records?.[id], messages);
    if (pass === true) passes++;
    else if (pass === false) fails++;
  }
  const recorded = ctx.compareRecorded === true ? recordedPass(g.row.recorded_reward) : null;
  if (recorded === true) passes++;
  else if (recorded === false) fails++;
  if (g.sim !== null && g.task !== null && ((passes > 0 && fails > 0) || ctx.conversations === "all"))
    contextRows(batch, run, key, g.sim, g.task);
  nlRows(batch, run, key, g.tau3?.nl ?? null);
  let seq = 0;
  messages.forEach((m, messageIndex) => {
    if (m.role !== "assistant" && m.role !== "user") return;
    for (const call of m.tool_calls ?? []) {
      const toolkit = call.requestor === "user" ? ctx.domain?.userTools : ctx.domain?.agentTools;
      batch.tool_calls.push({
        run_id: run,
        sim_key: key,
        seq: seq++,
        message_index: messageIndex,
        tool_call_id: call.id,
        name: call.name,
        requestor: call.requestor,
        kind: toolkit?.tools.get(call.name)?.kind ?? null,
      });
    }
  });
}
