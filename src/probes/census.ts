/**
 * The blind-spot census: every probe kind over every task set of every domain, one row per grader
 * that graded the probes. Every number comes from grading the probes, none from counting task metadata.
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { DomainName } from "../domains/domain.ts";
import { DOMAINS } from "../domains/registry.ts";
import { listTaskSets, type TaskSetRef } from "../formats/tasks.ts";
import { causeLabel } from "../graders/causes.ts";
import type { VerdictRecord } from "../graders/grader.ts";
import { GRADER_IDS, type GraderId, graderOf } from "../graders/registry.ts";
import { PROBE_KINDS, type ProbeKind } from "./kind.ts";
import { loadProbedSet, type ProbeSetup, type ProbeVerdict, runProbe } from "./verdicts.ts";

export interface Disagreement {
  readonly task_id: string;
  readonly cause: string;
}

/** One grader's verdicts on one probe kind over one task set. */
export interface CensusRow {
  readonly domain: string;
  readonly task_version: string;
  readonly kind: ProbeKind;
  readonly grader: GraderId;
  /** Tasks probed (a kind may not apply to every task: see `skipped`). */
  readonly tasks: number;
  readonly pass: number;
  /** Verdicts left unknown (an NL assertion in the basis and no judge, or a verdict built on one). */
  readonly unknown: number;
  /** Tasks where this grader and the grader it is compared with disagree, with this grader's causes. */
  readonly disagreements: readonly Disagreement[];
  /** Simulations whose grading aborted, for every grader (tau2 raises there too, e.g. an assertion on a missing record). */
  readonly errors: readonly { readonly task_id: string; readonly error: string }[];
}

/** What the census keeps of one grader's verdict (small: it crosses threads). */
export interface CensusGraderVerdict {
  readonly grader: GraderId;
  /** Null when unknown. */
  readonly pass: boolean | null;
  /** Why it and the grader it is compared with differ, or null when they agree or either is unknown. */
  readonly disagreement: string | null;
}

/** What the census keeps of one probe verdict. */
export interface CensusVerdict {
  readonly task_id: string;
  /** Every grader that gave a verdict, in registry order. */
  readonly graders: readonly CensusGraderVerdict[];
  readonly error: string | null;
}

/**
 * Why `id`'s verdict differs from its baseline's (the grader it is compared with), or null when they
 * agree, either is unknown, or the baseline is not a grader that graded the probe.
 */
function disagreement(id: GraderId, records: ReadonlyMap<GraderId, VerdictRecord>): string | null {
  const baseline = graderOf(id).comparedWith?.baseline;
  const mine = records.get(id);
  const theirs = baseline === undefined ? undefined : records.get(baseline);
  if (baseline === undefined || mine === undefined || theirs === undefined) return null;
  if (mine.pass === null || theirs.pass === null || mine.pass === theirs.pass) return null;
  if (theirs.pass)
    return mine.causes
      .filter((c) => c.gates)
      .map(causeLabel)
      .join(" ");
  return `${graderOf(id).label} passes what ${graderOf(baseline).label} fails`;
}

export function censusVerdict(v: ProbeVerdict): CensusVerdict {
  const records = new Map<GraderId, VerdictRecord>();
  for (const id of GRADER_IDS) {
    const verdict = v.verdicts[id];
    if (verdict !== undefined) records.set(id, graderOf(id).record(verdict));
  }
  return {
    task_id: v.task_id,
    graders: [...records].map(([grader, r]) => ({
      grader,
      pass: r.pass,
      disagreement: v.error === null ? disagreement(grader, records) : null,
    })),
    error: v.error,
  };
}

/** One row per grader that graded any of `verdicts`, in registry order. */
export function censusRows(
  set: TaskSetRef,
  kind: ProbeKind,
  verdicts: readonly CensusVerdict[],
): CensusRow[] {
  const graded = verdicts.filter((v) => v.error === null);
  const errors = verdicts.flatMap((v) => (v.error === null ? [] : [{ task_id: v.task_id, error: v.error }]));
  const present = new Set(verdicts.flatMap((v) => v.graders.map((g) => g.grader)));
  const of = (v: CensusVerdict, id: GraderId) => v.graders.find((g) => g.grader === id);
  return GRADER_IDS.filter((id) => present.has(id)).map((grader) => ({
    domain: set.domain,
    task_version: set.name,
    kind,
    grader,
    tasks: verdicts.length,
    pass: verdicts.filter((v) => of(v, grader)?.pass === true).length,
    unknown: graded.filter((v) => of(v, grader)?.pass === null).length,
    disagreements: verdicts.flatMap((v) => {
      const cause = of(v, grader)?.disagreement ?? null;
      return cause === null ? [] : [{ task_id: v.task_id, cause }];
    }),
    errors,
  }));
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

/** Rows for every (domain, task set, kind) with at least one applicable task, then grader, in a fixed order. */
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
    .flatMap((e) => censusRows(e.set, e.kind, e.verdicts));
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
