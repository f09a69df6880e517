/**
 * The blind-spot census: every probe kind over every task set of every domain, graded by both
 * graders. Every number comes from grading the probes, none from counting task metadata.
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { DomainName } from "../domains/domain.ts";
import { DOMAINS } from "../domains/registry.ts";
import { listTaskSets, type TaskSetRef } from "../formats/tasks.ts";
import { causeLabel } from "../graders/causes.ts";
import { PROBE_KINDS, type ProbeKind } from "./kind.ts";
import { loadProbedSet, type ProbeSetup, type ProbeVerdict, runProbe } from "./verdicts.ts";

export interface Disagreement {
  readonly task_id: string;
  readonly cause: string;
}

export interface CensusRow {
  readonly domain: string;
  readonly task_version: string;
  readonly kind: ProbeKind;
  /** Tasks probed (a kind may not apply to every task: see `skipped`). */
  readonly tasks: number;
  readonly tau3_pass: number;
  readonly structured_pass: number;
  /** Tasks where one grader passes and the other fails, with the structured grader's causes. */
  readonly disagreements: readonly Disagreement[];
  /** τ³ verdicts left unknown (an NL assertion in the basis and no judge). */
  readonly tau3_unknown: number;
  /** Structured verdicts left unknown (τ³ unknown and nothing else failing). */
  readonly structured_unknown: number;
  /** Simulations whose grading aborted (tau2 raises there too, e.g. an assertion on a missing record). */
  readonly errors: readonly { readonly task_id: string; readonly error: string }[];
}

/** Why the two verdicts differ, or null when they agree or either is unknown or aborted. */
export function disagreement(v: ProbeVerdict): string | null {
  if (v.error !== null) return null;
  const tau3 = v.tau3?.reward ?? null;
  const structured = v.structured?.pass ?? null;
  if (tau3 === null || structured === null) return null;
  if (tau3 === 1 && structured === false)
    return (
      v.structured?.causes
        .filter((c) => c.gates)
        .map(causeLabel)
        .join(" ") ?? "structured fails"
    );
  if (tau3 !== 1 && structured === true) return "structured passes what τ³ fails";
  return null;
}

/** What the census keeps of one probe verdict (small: it crosses threads). */
export interface CensusVerdict {
  readonly task_id: string;
  /** τ³'s reward, null when unknown, undefined when τ³ gave no verdict. */
  readonly tau3_reward: number | null | undefined;
  readonly structured_pass: boolean | null | undefined;
  readonly disagreement: string | null;
  readonly error: string | null;
}

export const censusVerdict = (v: ProbeVerdict): CensusVerdict => ({
  task_id: v.task_id,
  tau3_reward: v.tau3 === null ? undefined : v.tau3.reward,
  structured_pass: v.structured === null ? undefined : v.structured.pass,
  disagreement: disagreement(v),
  error: v.error,
});

export function censusRow(set: TaskSetRef, kind: ProbeKind, verdicts: readonly CensusVerdict[]): CensusRow {
  const graded = verdicts.filter((v) => v.error === null);
  return {
    domain: set.domain,
    task_version: set.name,
    kind,
    tasks: verdicts.length,
    tau3_pass: verdicts.filter((v) => v.tau3_reward === 1).length,
    structured_pass: verdicts.filter((v) => v.structured_pass === true).length,
    disagreements: verdicts.flatMap((v) =>
      v.disagreement === null ? [] : [{ task_id: v.task_id, cause: v.disagreement }],
    ),
    tau3_unknown: graded.filter((v) => v.tau3_reward === null).length,
    structured_unknown: graded.filter((v) => v.structured_pass === null).length,
    errors: verdicts.flatMap((v) => (v.error === null ? [] : [{ task_id: v.task_id, error: v.error }])),
  };
}

/** Part `part` of `parts` equal slices of one task set, probed with every kind: the unit of census work. */
export interface CensusChunk {
  readonly set: TaskSetRef;
  readonly part: number;
  readonly parts: number;
  readonly kinds: readonly ProbeKind[];
}

export type ChunkResult = readonly {
  readonly kind: ProbeKind;
  readonly verdicts: readonly CensusVerdict[];
}[];

/** Probes and grades one chunk (in this thread or a grading thread). */
export async function gradeCensusChunk(setup: ProbeSetup, chunk: CensusChunk): Promise<ChunkResult> {
  const all = loadProbedSet(setup, chunk.set).tasks;
  const at = (k: number) => Math.floor((k * all.length) / chunk.parts);
  const tasks = all.slice(at(chunk.part), at(chunk.part + 1));
  const out: { kind: ProbeKind; verdicts: CensusVerdict[] }[] = [];
  for (const kind of chunk.kinds) {
    const run = await runProbe(setup, chunk.set, kind, tasks);
    out.push({ kind, verdicts: run.verdicts.map(censusVerdict) });
  }
  return out;
}

/**
 * Task-file bytes per chunk. Chunks are sized without parsing the set (threads parse it); every kind
 * of a task runs in one thread, so its gold replay is computed once.
 */
export const CHUNK_BYTES = 512 * 1024;

const setBytes = (path: string): number =>
  statSync(path).isDirectory()
    ? readdirSync(path).reduce((n, f) => n + statSync(join(path, f)).size, 0)
    : statSync(path).size;

export function censusChunks(setup: ProbeSetup, options: CensusOptions = {}): CensusChunk[] {
  const chunks: CensusChunk[] = [];
  for (const domain of options.domains ?? (Object.keys(DOMAINS) as DomainName[])) {
    for (const set of listTaskSets(setup.dataDir, domain)) {
      const parts = Math.max(1, Math.ceil(setBytes(set.path) / (options.chunkBytes ?? CHUNK_BYTES)));
      for (let part = 0; part < parts; part++)
        chunks.push({ set, part, parts, kinds: options.kinds ?? PROBE_KINDS });
    }
  }
  return chunks;
}

export interface CensusOptions {
  readonly domains?: readonly DomainName[];
  readonly kinds?: readonly ProbeKind[];
  /** Task-file bytes per chunk (default `CHUNK_BYTES`). */
  readonly chunkBytes?: number;
  /** Grades the chunks (in order of the result); by default one after another in this thread. */
  readonly gradeChunks?: (chunks: readonly CensusChunk[]) => Promise<readonly ChunkResult[]>;
}

/** Rows for every (domain, task set, kind) with at least one applicable task, in a fixed order. */
export async function runCensus(setup: ProbeSetup, options: CensusOptions = {}): Promise<CensusRow[]> {
  const chunks = censusChunks(setup, options);
  const results =
    options.gradeChunks === undefined
      ? await inOrder(chunks, (c) => gradeCensusChunk(setup, c))
      : await options.gradeChunks(chunks);
  const bySetKind = new Map<string, { set: TaskSetRef; kind: ProbeKind; verdicts: CensusVerdict[] }>();
  chunks.forEach((chunk, i) => {
    for (const { kind, verdicts } of results[i] ?? []) {
      const key = `${chunk.set.domain}\u0000${chunk.set.name}\u0000${kind}`;
      const entry = bySetKind.get(key) ?? { set: chunk.set, kind, verdicts: [] };
      entry.verdicts.push(...verdicts);
      bySetKind.set(key, entry);
    }
  });
  // Map order is first-insertion order: domain, task set, then kind, as the chunks were listed.
  return [...bySetKind.values()]
    .filter((e) => e.verdicts.length > 0)
    .map((e) => censusRow(e.set, e.kind, e.verdicts));
}

async function inOrder<T, R>(items: readonly T[], f: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (const t of items) {
    // A chunk grades without yielding (up to half a second): between chunks, a signal's handler runs.
    await new Promise((next) => setImmediate(next));
    out.push(await f(t));
  }
  return out;
}
