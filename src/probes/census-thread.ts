/** The census's inputs as plain data, so a grading thread can rebuild the same probe setup. */
import type { GradingSpec } from "../graders/spec.ts";
import { runInWorkers } from "../pipeline/parallel.ts";
import type { ThreadTask } from "../pipeline/thread-protocol.ts";
import { type CensusChunk, type ChunkResult, gradeCensusChunk } from "./census.ts";
import { type ProbeFixtureDirs, probeGradingSpec, probeSetup } from "./grading.ts";
import type { ProbeSetup } from "./verdicts.ts";

export interface CensusSources extends ProbeFixtureDirs {
  readonly dataDir: string;
  /** What grades the probes (plain JSON: it crosses into threads as is). */
  readonly spec: GradingSpec;
}

/** The census's sources, graded with the probes' default spec (`probeGradingSpec`). */
export const censusSources = (dataDir: string, dirs: ProbeFixtureDirs): CensusSources => ({
  dataDir,
  requirementsDir: dirs.requirementsDir,
  policiesDir: dirs.policiesDir,
  spec: probeGradingSpec(dirs),
});

export interface CensusWork {
  /** One census: its chunks share a setup per thread; the next census starts afresh. */
  readonly census: string;
  readonly sources: CensusSources;
  readonly chunk: CensusChunk;
}

/** The probe setup the sources name (the CLI's, and each thread's). */
export const censusSetup = (sources: CensusSources): Promise<ProbeSetup> =>
  probeSetup(sources.dataDir, sources, sources.spec);

/** This thread's setup for the census under way: its contexts keep the gold replay of every task probed. */
let current: { readonly census: string; readonly setup: Promise<ProbeSetup> } | null = null;

export async function gradeCensusWork(work: CensusWork): Promise<ChunkResult> {
  if (current?.census !== work.census) current = { census: work.census, setup: censusSetup(work.sources) };
  return gradeCensusChunk(await current.setup, work.chunk);
}

/** The thread imports this module (built or source, whichever runs) and calls `gradeCensusWork`. */
const CENSUS_TASK: ThreadTask = { module: import.meta.url, name: "gradeCensusWork" };

/** Grades census chunks on `count` shared grading threads; results in chunk order. */
export const censusInWorkers = (work: readonly CensusWork[], count: number): Promise<ChunkResult[]> =>
  runInWorkers<CensusWork, ChunkResult>(CENSUS_TASK, work, count);
