/**
 * Grades files on worker threads (one per core, capped by the file count), yielding results as
 * they complete. Results are small row batches; trajectories never cross threads.
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { FileJob, FileResult } from "./process-file.ts";
import type { WorkerInit } from "./worker.ts";
import { workerScript } from "./worker-bundle.ts";

/**
 * Worker threads to use; 1 means grading in the main thread. Grading allocates heavily, and a lone
 * thread already keeps a second core busy with V8's parallel GC: on 2 cores, two workers measured
 * slower than one thread (`npm run bench -- --workers 2`), so threads start at 4 cores.
 * `TAU_RESCORE_WORKERS` overrides.
 */
export function workerCount(files: number, env: NodeJS.ProcessEnv = process.env): number {
  const forced = Number(env.TAU_RESCORE_WORKERS);
  const cores = availableParallelism();
  const wanted = Number.isInteger(forced) && forced > 0 ? forced : cores >= 4 ? Math.min(cores - 1, 8) : 1;
  return Math.max(1, Math.min(wanted, files));
}

type Reply = { seq: number; result?: FileResult; failure?: string; busyMs?: number };

export async function* gradeInWorkers(
  jobs: readonly FileJob[],
  init: WorkerInit,
  count: number,
): AsyncGenerator<FileResult> {
  const entry = await workerScript();
  const workers = Array.from({ length: count }, () => new Worker(entry, { workerData: init }));
  const done: FileResult[] = [];
  let wake: (() => void) | null = null;
  let failure: Error | null = null;
  let next = 0;
  let outstanding = 0;
  const feed = (w: Worker) => {
    if (next < jobs.length) {
      outstanding++;
      w.postMessage({ job: jobs[next], seq: next });
      next++;
    }
  };
  const started = performance.now();
  let busyMs = 0;
  for (const w of workers) {
    w.on("message", (m: Reply) => {
      outstanding--;
      busyMs += m.busyMs ?? 0;
      if (m.failure !== undefined)
        failure ??= new Error(`worker failed on ${jobs[m.seq]?.path}: ${m.failure}`);
      else if (m.result !== undefined) done.push(m.result);
      feed(w);
      wake?.();
    });
    w.on("error", (e) => {
      failure ??= e;
      wake?.();
    });
  }
  // Two jobs per worker in flight keeps every thread busy while results are written.
  for (const w of workers) {
    feed(w);
    feed(w);
  }
  try {
    while (outstanding > 0 || done.length > 0) {
      if (failure !== null) throw failure;
      const r = done.shift();
      if (r !== undefined) {
        yield r;
        continue;
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      wake = null;
    }
    if (failure !== null) throw failure;
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
    if (process.env.TAU_RESCORE_DEBUG_WORKERS) {
      const wall = performance.now() - started;
      process.stderr.write(
        `workers: ${count}, wall ${wall.toFixed(0)} ms, busy ${busyMs.toFixed(0)} ms (${((100 * busyMs) / (wall * count)).toFixed(0)}% of capacity)\n`,
      );
    }
  }
}
