/** Table rows for one graded file, typed by `store/schema.ts`; every grader's rows come from its `record`. */
import { createHash } from "node:crypto";
import type { DomainDef } from "../domains/domain.ts";
import type { Message, TrajectoryFile } from "../formats/model.ts";
import type { Cause } from "../graders/causes.ts";
import type { Evidence } from "../graders/evidence.ts";
import { GRADER_IDS, type GraderId, graderOf } from "../graders/registry.ts";
import { canonicalJson } from "../py/json.ts";
import type { PyValue } from "../py/value.ts";
import type { RowOf } from "../store/schema.ts";
import type { GradedSimulation } from "./grade.ts";

export const simKey = (fileId: string, index: number): string =>
  createHash("sha256").update(`${fileId}:${index}`).digest("hex");

const pyJson = (v: PyValue | undefined): string | null => (v === undefined ? null : canonicalJson(v));

/** What the `files` table records about a file, loaded or not. */
export interface FileMeta {
  readonly variant: string;
  readonly info: Pick<
    TrajectoryFile["info"],
    "domain" | "agent_model" | "agent_implementation" | "user_model"
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
  info: { domain: null, agent_model: null, agent_implementation: null, user_model: null },
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
  };
}

/** Per-table row lists for one file (the tables a file's rows go to). */
export type SimulationBatch = {
  readonly [T in
    | "simulations"
    | "verdicts"
    | "components"
    | "causes"
    | "evidence"
    | "tool_calls"
    | "errors"]: RowOf<T>[];
};

export function emptyBatch(): SimulationBatch {
  return {
    simulations: [],
    verdicts: [],
    components: [],
    causes: [],
    evidence: [],
    tool_calls: [],
    errors: [],
  };
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

/** One grader's verdict, components, causes and evidence rows. */
function graderRows(
  batch: SimulationBatch,
  ctx: RowContext,
  key: string,
  id: GraderId,
  verdict: unknown,
  messages: readonly Message[],
): void {
  const g = graderOf(id);
  const r = g.record(verdict);
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
  for (let seq = 0; seq < r.causes.length; seq++) {
    const c = r.causes[seq] as Cause;
    batch.causes.push(causeRow(b, seq, c));
    for (let i = 0; i < c.evidence.length; i++)
      batch.evidence.push(evidenceRow(b, seq, i, c.evidence[i] as Evidence, messages));
  }
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
    recorded_reward: r.recorded_reward,
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
  for (const id of GRADER_IDS) {
    const v = g.verdicts[id];
    if (v !== undefined) graderRows(batch, ctx, key, id, v, messages);
  }
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
