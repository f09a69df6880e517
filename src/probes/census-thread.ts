/** The census's inputs as plain data, so a grading thread can rebuild the same probe setup. */
import { TAU2_QUIRKS } from "../domains/quirks.ts";
import { loadClauses } from "../graders/structured/clauses/load.ts";
import { loadRequirements } from "../graders/structured/requirements/load.ts";
import { ContextPool } from "../pipeline/contexts.ts";
import { runInWorkers } from "../pipeline/parallel.ts";
import type { ThreadTask } from "../pipeline/thread-protocol.ts";
import { type CensusChunk, type ChunkResult, gradeCensusChunk } from "./census.ts";
import type { ProbeSetup } from "./verdicts.ts";

export interface CensusSources {
  readonly dataDir: string;
  readonly requirementsDir: string;
  readonly policiesDir: string;
}

export interface CensusWork {
  /** One census: its chunks share a setup per thread; the next census starts afresh. */
  readonly census: string;
  readonly sources: CensusSources;
  readonly chunk: CensusChunk;
}

/** The probe setup the sources name (the CLI's, and each thread's). */
export const censusSetup = (sources: CensusSources): ProbeSetup => ({
  dataDir: sources.dataDir,
  pool: new ContextPool(sources.dataDir, TAU2_QUIRKS),
  requirements: loadRequirements(sources.requirementsDir),
  clauses: loadClauses(sources.policiesDir),
});

/** This thread's setup for the census under way: its contexts keep the gold replay of every task probed. */
let current: { readonly census: string; readonly setup: ProbeSetup } | null = null;

export function gradeCensusWork(work: CensusWork): Promise<ChunkResult> {
  if (current?.census !== work.census) current = { census: work.census, setup: censusSetup(work.sources) };
  return gradeCensusChunk(current.setup, work.chunk);
}

/** The thread imports this module (built or source, whichever runs) and calls `gradeCensusWork`. */
const CENSUS_TASK: ThreadTask = { module: import.meta.url, name: "gradeCensusWork" };

/** Grades census chunks on `count` shared grading threads; results in chunk order. */
export const censusInWorkers = (work: readonly CensusWork[], count: number): Promise<ChunkResult[]> =>
  runInWorkers<CensusWork, ChunkResult>(CENSUS_TASK, work, count);
