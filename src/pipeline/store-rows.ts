/** Table rows for one graded file (column order follows `schema.ts`). */
import { createHash } from "node:crypto";
import type { DomainDef } from "../domains/domain.ts";
import type { TrajectoryFile } from "../formats/model.ts";
import { canonicalJson } from "../formats/py/json.ts";
import type { PyValue } from "../formats/py/value.ts";
import type { Evidence } from "../graders/evidence.ts";
import type { StructuredVerdict } from "../graders/structured/grade.ts";
import type { ComponentScores, Tau3Verdict } from "../graders/tau3/evaluate.ts";
import type { Row } from "../store/schema.ts";
import type { FileBatch } from "../store/store.ts";
import type { GradedSimulation } from "./grade.ts";

export const GRADER_VERSIONS = {
  tau3: "tau3-port@tau2-a2c0247/1",
  tau3_corrected: "tau3-port@tau2-a2c0247/1+corrections",
  structured: "structured/1",
} as const;

export const simKey = (fileId: string, index: number): string =>
  createHash("sha256").update(`${fileId}:${index}`).digest("hex");

const json = (v: unknown): string => JSON.stringify(v);
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
  readonly gatedRules: ReadonlySet<string>;
}

/** What a simulation's rows need of their file. */
export type RowContext = Pick<FileContext, "runId" | "fileId" | "domain" | "gatedRules">;

export function fileRow(ctx: FileContext, status: string, error: string | null): Row {
  const { file } = ctx;
  return [
    ctx.runId,
    ctx.fileId,
    ctx.path,
    file.variant,
    file.info.domain,
    file.info.agent_model,
    file.info.agent_implementation,
    file.info.user_model,
    ctx.taskVersion,
    file.simulations,
    file.rejected,
    status,
    error,
    ctx.exclusion !== null,
    ctx.exclusion,
  ];
}

function componentRows(
  run: string,
  key: string,
  grader: string,
  v: Tau3Verdict,
  extra: Record<string, number | null> = {},
): Row[] {
  const basis = new Set(v.basis ?? []);
  const comps: Record<string, number | null> = { ...(v.components as ComponentScores), ...extra };
  return Object.entries(comps).map(([name, score]) => [
    run,
    key,
    grader,
    name,
    score,
    basis.has(name as keyof ComponentScores),
  ]);
}

const verdictRow = (
  run: string,
  key: string,
  grader: keyof typeof GRADER_VERSIONS,
  pass: boolean | null,
  reward: number | null,
  dbMatch: boolean | null,
  causes: readonly string[],
  notes: readonly string[],
): Row => [run, key, grader, GRADER_VERSIONS[grader], pass, reward, dbMatch, json(causes), json(notes)];

const passOf = (reward: number | null) => (reward === null ? null : reward === 1);

/** The basis components that scored 0, or the premature-termination reason. */
function tau3Causes(v: Tau3Verdict): string[] {
  if (v.basis === null)
    return v.reward === 0 ? v.notes.map((n) => `premature:${n.replace(/^.*: /, "")}`) : [];
  return Object.entries(v.breakdown)
    .filter(([, score]) => score === 0)
    .map(([component]) => component);
}

/** A τ³ verdict (plain, or over the corrections overlay) as its verdict row and component rows. */
function tau3Rows(
  batch: Required<FileBatch>,
  run: string,
  key: string,
  grader: "tau3" | "tau3_corrected",
  v: Tau3Verdict,
  extra: Record<string, number | null> = {},
): void {
  batch.verdicts.push(
    verdictRow(run, key, grader, passOf(v.reward), v.reward, v.db_match, tau3Causes(v), v.notes),
  );
  batch.components.push(...componentRows(run, key, grader, v, extra));
}

function evidenceRow(run: string, key: string, seq: number, rule: string, gated: boolean, e: Evidence): Row {
  return [
    run,
    key,
    seq,
    rule,
    gated,
    e.messageIndex ?? null,
    e.turnIdx ?? null,
    e.toolCallId ?? null,
    e.toolName ?? null,
    e.message,
    e.excerpt ?? null,
  ];
}

function structuredRows(
  ctx: RowContext,
  key: string,
  s: StructuredVerdict,
  batch: Required<FileBatch>,
  excerptAt: (i: number | undefined) => string | null,
): void {
  const run = ctx.runId;
  s.preflight.violations.forEach((v, seq) => {
    batch.violations.push([
      run,
      key,
      seq,
      v.ruleId,
      v.toolName ?? "",
      v.messageIndex ?? null,
      v.turnIdx ?? null,
      v.toolCallId ?? null,
      v.quote,
      v.arguments === undefined ? null : pyJson(v.arguments),
      excerptAt(v.messageIndex),
    ]);
  });
  if (s.delta_gate.ran) {
    for (const f of s.delta_gate.violations)
      batch.field_diffs.push([
        run,
        key,
        f.db,
        f.path,
        pyJson(f.initial),
        pyJson(f.gold),
        pyJson(f.predicted),
      ]);
  }
  let seq = 0;
  for (const [rule, hits] of Object.entries(s.policy))
    for (const e of hits)
      batch.policy_hits.push(evidenceRow(run, key, seq++, rule, ctx.gatedRules.has(rule), e));
  for (const e of s.format_errors)
    batch.policy_hits.push(evidenceRow(run, key, seq++, e.code, ctx.gatedRules.has("format_errors"), e));
  // A conversation that belongs to another task: reported, gating only when configured.
  for (const e of s.consistency.evidence)
    batch.policy_hits.push(evidenceRow(run, key, seq++, e.code, ctx.gatedRules.has(e.code), e));
}

/** A batch with every table present and empty. */
export function emptyBatch(): Required<FileBatch> {
  return {
    runs: [],
    files: [],
    simulations: [],
    verdicts: [],
    components: [],
    violations: [],
    field_diffs: [],
    policy_hits: [],
    tool_calls: [],
    errors: [],
  };
}

/**
 * Appends the rows of the file's `index`-th simulation. Rows are built as each simulation is graded,
 * so its verdict (replayed DB states, evidence) can be collected before the next one is graded.
 */
export function appendSimulationRows(
  batch: Required<FileBatch>,
  ctx: RowContext,
  g: GradedSimulation,
  index: number,
): void {
  const run = ctx.runId;
  const key = simKey(ctx.fileId, index);
  const r = g.row;
  batch.simulations.push([
    run,
    key,
    ctx.fileId,
    index,
    r.simulation_id,
    r.task_id,
    r.trial,
    r.termination_reason,
    r.recorded_reward,
    r.domain,
    r.task_version,
    r.agent_model ?? "unknown",
    r.error === undefined,
    g.structured?.transfer.should ?? null,
    g.structured?.transfer.rule ?? null,
    g.structured?.transfer.did ?? null,
  ]);
  if (r.error !== undefined) {
    batch.errors.push([run, ctx.fileId, key, "grade", r.error]);
    return;
  }
  const messages = g.sim?.messages ?? [];
  const excerptAt = (i: number | undefined): string | null => {
    const m = i === undefined ? undefined : messages[i];
    return m === undefined || m.content === null ? null : m.content.slice(0, 2000);
  };
  if (g.tau3 !== null) tau3Rows(batch, run, key, "tau3", g.tau3);
  if (g.corrected !== undefined) {
    const { tau3, nlCurated } = g.corrected;
    tau3Rows(
      batch,
      run,
      key,
      "tau3_corrected",
      tau3,
      nlCurated === null ? {} : { NL_CURATED: nlCurated.score },
    );
  }
  if (g.structured !== undefined) {
    const s = g.structured;
    batch.verdicts.push(
      verdictRow(
        run,
        key,
        "structured",
        s.pass,
        s.pass === null ? null : s.pass ? 1 : 0,
        g.tau3?.db_match ?? null,
        s.causes,
        [],
      ),
    );
    structuredRows(ctx, key, s, batch, excerptAt);
  }
  let seq = 0;
  messages.forEach((m, messageIndex) => {
    if (m.role !== "assistant" && m.role !== "user") return;
    for (const call of m.tool_calls ?? []) {
      const toolkit = call.requestor === "user" ? ctx.domain?.userTools : ctx.domain?.agentTools;
      const kind = toolkit?.tools.get(call.name)?.kind ?? null;
      batch.tool_calls.push([run, key, seq++, messageIndex, call.id, call.name, call.requestor, kind]);
    }
  });
}
