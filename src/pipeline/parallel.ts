/**
 * Grades files on worker threads, yielding results as they complete. Results are small row batches;
 * trajectories never cross threads.
 *
 * The threads are kept for the life of the process (idle threads do not keep it alive): their cold
 * start (loading the modules and the domain DBs, warming the JIT) measured 0.3–0.4 s on 2
 * cores, most of a warm pass over the default corpus, so a second run in the same process (the
 * bench, an API user) must not pay it again. Runs use the pool one at a time.
 */
import { statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { isTypeScriptModule } from "../experiments/grader-modules.ts";
import { overdueMessage } from "../graders/module-checks.ts";
import { graderModuleLabel } from "../graders/registry.ts";
import type { NlJudge } from "../graders/tau3/nl.ts";
import { YOUNG_GENERATION_MB } from "./heap.ts";
import type { FileJob, FileResult } from "./process-file.ts";
import type { WorkerInit } from "./settings.ts";
import {
  isModuleGraderSignal,
  type ModuleGraderSignal,
  type Reply,
  type ThreadMessage,
  type ThreadTask,
  type WorkerRequest,
} from "./thread-protocol.ts";

/**
 * The thread's entry beside this module: the built one under dist/, or, when this module runs from
 * its TypeScript source (tests, `tsx`), a shim that registers tsx in the thread first.
 */
const FROM_SOURCES = import.meta.url.endsWith(".ts");

/** Whether grading threads can import a TypeScript module: only when they run from the sources. */
export const THREADS_LOAD_TYPESCRIPT = FROM_SOURCES;

/** The TypeScript grader modules grading threads cannot load (Node 20 gives a thread no loader). */
export const modulesThreadsCannotLoad = (modules: readonly string[]): string[] =>
  THREADS_LOAD_TYPESCRIPT ? [] : modules.filter(isTypeScriptModule);

/** What a command says when a TypeScript module keeps grading in its own thread. */
export const typescriptModuleWarning = (module: string): string =>
  `grader module ${module} is TypeScript: graded in one thread (grading threads load JavaScript modules only)`;

/**
 * Whether grading stays in this thread: a live judge's limiter, cache and counts live here, and so
 * does the loader a TypeScript grader module needs (the one the command ran with).
 */
export const gradingStaysHere = (judge: NlJudge, modules: readonly string[]): boolean =>
  judge.cache !== undefined || modulesThreadsCannotLoad(modules).length > 0;
const THREAD_ENTRY = new URL(FROM_SOURCES ? "./thread-entry-tsx.mjs" : "./thread-entry.js", import.meta.url);

/**
 * Below this much input a one-shot run on 2–3 cores grades faster in the main thread: each thread
 * pays its own cold start (modules, domain DBs, JIT, gold targets). Measured with
 * `tau-rescore run` on 2 cores: 55 MB 2.41 s (1 thread) vs 2.55 s (2); 165 MB 4.07 vs 4.02 s;
 * 550 MB 9.4 vs 7.6 s.
 */
export const THREADS_PAY_OFF_BYTES = 128 * 1024 * 1024;

/**
 * Worker threads to use; 1 means grading in the main thread. From 4 cores threads always pay; on
 * 2–3 cores they pay for a large input, or when this process already runs them (no cold start).
 * `forced` (the command line's `TAU_RESCORE_WORKERS`) overrides.
 */
export function workerCount(
  files: number,
  inputBytes: number,
  forced?: number,
  cores: number = availableParallelism(),
): number {
  const wanted =
    forced !== undefined && Number.isInteger(forced) && forced > 0
      ? forced
      : cores >= 4
        ? Math.min(cores - 1, 8)
        : cores >= 2 && (inputBytes >= THREADS_PAY_OFF_BYTES || threadsRunning() >= cores)
          ? cores
          : 1;
  return Math.max(1, Math.min(wanted, files));
}

/** Bytes of input the jobs will read (unreadable files count 0: the grader reports them). */
export function inputBytes(jobs: readonly FileJob[]): number {
  let total = 0;
  for (const j of jobs) total += sizeOf(j);
  return total;
}

const sizeOf = (j: FileJob): number => {
  try {
    return statSync(j.full).size;
  } catch {
    return 0;
  }
};

let running = 0;
let started = 0;

/** Threads this process holds now (0 before the first threaded run). */
export const threadsRunning = (): number => running;
/** Threads this process has ever started (reuse keeps it flat). */
export const threadsStarted = (): number => started;

class ThreadPool {
  private readonly threads: Worker[] = [];
  /** Removes the pool's own listeners from a thread it replaces. */
  private readonly unwatch = new Map<Worker, () => void>();
  private broken = false;
  private queue: Promise<void> = Promise.resolve();

  get usable(): boolean {
    return !this.broken;
  }

  private start(): Worker {
    const w = new Worker(THREAD_ENTRY, {
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
    started++;
    // A thread that dies outside a run must not take the next run down silently.
    const lost = () => {
      this.broken = true;
    };
    w.on("error", lost).on("exit", lost);
    this.unwatch.set(w, () => w.off("error", lost).off("exit", lost));
    return w;
  }

  private grow(count: number): Worker[] {
    while (this.threads.length < count) this.threads.push(this.start());
    running = Math.max(running, this.threads.length);
    return this.threads.slice(0, count);
  }

  /** Terminates `old` (a grader module holds it) and starts a thread in its place, held by the session. */
  replace(old: Worker): Worker {
    this.unwatch.get(old)?.();
    this.unwatch.delete(old);
    old.terminate().catch(() => {}); // it is gone either way
    const w = this.start();
    this.threads[this.threads.indexOf(old)] = w;
    w.ref();
    return w;
  }

  /** Runs `session` with `count` threads once earlier sessions are done. */
  async exclusive<T>(count: number, session: (threads: Worker[]) => Promise<T>): Promise<T> {
    const previous = this.queue;
    let release = () => {};
    this.queue = new Promise<void>((r) => {
      release = r;
    });
    await previous;
    const threads = this.grow(count);
    for (const t of threads) t.ref();
    try {
      return await session(threads);
    } finally {
      for (const t of this.threads) t.unref();
      release();
    }
  }

  async close(): Promise<void> {
    this.broken = true;
    running = 0;
    this.unwatch.clear();
    await Promise.all(this.threads.splice(0).map((w) => w.terminate()));
  }
}

let shared: Promise<ThreadPool> | null = null;

async function threadPool(): Promise<ThreadPool> {
  if (shared !== null) {
    const pool = await shared;
    if (pool.usable) return pool;
    await pool.close();
  }
  shared = Promise.resolve(new ThreadPool());
  return shared;
}

/** Stops the shared threads (tests; a long-lived host that wants its memory back). */
export async function closeWorkers(): Promise<void> {
  const pool = shared;
  shared = null;
  if (pool !== null) await (await pool).close();
}

/** Largest files first, so no big file is left for the end while the other threads idle. */
function largestFirst(jobs: readonly FileJob[]): { job: FileJob; seq: number }[] {
  return jobs
    .map((job, seq) => ({ job, seq, bytes: sizeOf(job) }))
    .sort((a, b) => b.bytes - a.bytes || a.seq - b.seq)
    .map(({ job, seq }) => ({ job, seq }));
}

/**
 * A time limit on each grader module's work on one simulation, kept by the main thread: a module that
 * loops holds its thread, whose own timers then never fire.
 */
interface ModuleWatchdog {
  readonly limitSeconds: number;
  /** Notes that request `index` is sent again with its `simulation` recorded as over the limit. */
  readonly overdue: (index: number, simulation: number, grader: string) => void;
  /** Terminates the thread and starts one, ready for requests, in its place. */
  readonly replace: (w: Worker) => Worker;
}

/**
 * Sends requests 0..count-1 to the threads, two each in flight; settles when every sent one answered.
 * A request's index is its `seq`. With a watchdog, a thread whose grader module takes longer than the
 * limit on a simulation is replaced, and its unanswered requests are sent to the new thread.
 */
function feedThreads(
  threads: readonly Worker[],
  count: number,
  send: (w: Worker, index: number) => void,
  onReply: (m: Reply) => void,
  stopped: () => boolean,
  watchdog?: ModuleWatchdog,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let next = 0;
    let outstanding = 0;
    const slots = threads.map((w) => ({
      w,
      unanswered: new Set<number>(),
      timers: new Map<string, NodeJS.Timeout>(),
      detach: () => {},
    }));
    type Slot = (typeof slots)[number];
    const stopTimers = (slot: Slot) => {
      for (const t of slot.timers.values()) clearTimeout(t);
      slot.timers.clear();
    };
    const finish = (error?: Error) => {
      for (const slot of slots) {
        slot.detach();
        stopTimers(slot);
      }
      if (error === undefined) resolve();
      else reject(error);
    };
    const feed = (slot: Slot) => {
      if (next >= count || stopped()) return;
      outstanding++;
      slot.unanswered.add(next);
      send(slot.w, next++);
    };
    const overdue = (slot: Slot, m: ModuleGraderSignal, dog: ModuleWatchdog) => {
      slot.detach();
      stopTimers(slot);
      dog.overdue(m.seq, m.simulation, m.grader);
      slot.w = dog.replace(slot.w);
      attach(slot);
      for (const index of slot.unanswered) send(slot.w, index);
    };
    const time = (slot: Slot, m: ModuleGraderSignal) => {
      if (watchdog === undefined) return;
      const key = `${m.seq}/${m.simulation}/${m.grader}`;
      clearTimeout(slot.timers.get(key));
      slot.timers.delete(key);
      if (m.running)
        slot.timers.set(
          key,
          setTimeout(() => overdue(slot, m, watchdog), watchdog.limitSeconds * 1000),
        );
    };
    const attach = (slot: Slot) => {
      const w = slot.w;
      const onMessage = (m: ThreadMessage) => {
        if (isModuleGraderSignal(m)) return time(slot, m);
        outstanding--;
        slot.unanswered.delete(m.seq);
        onReply(m);
        feed(slot);
        if (outstanding === 0) finish();
      };
      const onError = (e: Error) => finish(e);
      const onExit = (code: number) => finish(new Error(`a grading thread exited (code ${code})`));
      w.on("message", onMessage).on("error", onError).on("exit", onExit);
      slot.detach = () => w.off("message", onMessage).off("error", onError).off("exit", onExit);
    };
    for (const slot of slots) attach(slot);
    // Two requests per thread in flight keep every thread busy while the main thread takes results.
    for (const slot of slots) {
      feed(slot);
      feed(slot);
    }
    if (outstanding === 0) finish();
  });
}

/** How `gradeInWorkers` grades beyond the jobs and the threads. */
export interface ThreadGrading {
  /** Told the threads' wall and busy time when the run ends. */
  readonly log?: (line: string) => void;
  /** Seconds a grader module may take on one simulation (set when the run has grader modules). */
  readonly moduleTimeoutSeconds?: number;
  /**
   * The function (a `FileTask`) each thread grades a job's file with instead of `processFile`; its
   * results are what the generator yields.
   */
  readonly perFile?: ThreadTask;
}

/**
 * Each job's result, from `count` threads, in completion order: a `FileResult`, or what the `perFile`
 * task returns (`R`).
 */
export async function* gradeInWorkers<R = FileResult>(
  jobs: readonly FileJob[],
  init: WorkerInit,
  count: number,
  { log, moduleTimeoutSeconds, perFile }: ThreadGrading = {},
): AsyncGenerator<R> {
  const pool = await threadPool();
  const done: R[] = [];
  let failure: Error | null = null;
  let finished = false;
  let abandoned = false;
  let wake: (() => void) | null = null;
  const started = performance.now();
  let busyMs = 0;
  const order = largestFirst(jobs);
  const onReply = (m: Reply) => {
    busyMs += m.busyMs ?? 0;
    if (m.failure !== undefined)
      failure ??= new Error(`worker failed on ${order[m.seq]?.job.path}: ${m.failure}`);
    else if (m.result !== undefined) done.push(m.result as R);
    wake?.();
  };
  // Simulations over a grader module's time limit, by request: their error rows, sent with the job.
  const overdue = new Map<number, Map<number, string>>();
  const begin = (w: Worker) => w.postMessage({ kind: "begin", init } satisfies WorkerRequest);
  const session = pool
    .exclusive(count, (threads) => {
      for (const w of threads) begin(w);
      const send = (w: Worker, i: number) => {
        const { job } = order[i] as (typeof order)[number];
        const late = overdue.get(i);
        const request = late === undefined ? job : { ...job, overdue: late };
        w.postMessage({ kind: "job", job: request, seq: i, perFile } satisfies WorkerRequest);
      };
      const watchdog: ModuleWatchdog | undefined =
        moduleTimeoutSeconds === undefined
          ? undefined
          : {
              limitSeconds: moduleTimeoutSeconds,
              overdue: (i, simulation, grader) => {
                const late = overdue.get(i) ?? new Map<number, string>();
                late.set(simulation, overdueMessage(graderModuleLabel(grader), moduleTimeoutSeconds));
                overdue.set(i, late);
              },
              replace: (w) => {
                const fresh = pool.replace(w);
                begin(fresh);
                return fresh;
              },
            };
      const stopped = () => abandoned || failure !== null;
      return feedThreads(threads, order.length, send, onReply, stopped, watchdog);
    })
    .catch((e: unknown) => {
      failure ??= e instanceof Error ? e : new Error(String(e));
    })
    .finally(() => {
      finished = true;
      wake?.();
    });
  try {
    while (true) {
      const r = done.shift();
      if (r !== undefined) {
        yield r;
        continue;
      }
      if (failure !== null) {
        await session;
        await closeWorkers(); // a thread may hold a half-done job: start clean next time
        throw failure;
      }
      if (finished) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      wake = null;
    }
  } finally {
    abandoned = true; // a consumer that stops early stops the feeding too
    await session;
  }
  if (log !== undefined) {
    const wall = performance.now() - started;
    log(
      `workers: ${count} (${threadsStarted()} started in this process), wall ${wall.toFixed(0)} ms, busy ${busyMs.toFixed(0)} ms (${((100 * busyMs) / (wall * count)).toFixed(0)}% of capacity)\n`,
    );
  }
}

/** Runs a thread task (see `ThreadTask`) over `inputs` on `count` shared threads, two in flight per thread; outputs in input order. */
export async function runInWorkers<I, O>(
  task: ThreadTask,
  inputs: readonly I[],
  count: number,
): Promise<O[]> {
  const pool = await threadPool();
  const outputs: O[] = new Array(inputs.length);
  let failure: Error | null = null;
  const onReply = (m: Reply) => {
    if (m.failure !== undefined) failure ??= new Error(`${task.name} thread failed: ${m.failure}`);
    else outputs[m.seq] = m.output as O;
  };
  const send = (w: Worker, seq: number) =>
    w.postMessage({ kind: "task", task, input: inputs[seq], seq } satisfies WorkerRequest);
  await pool.exclusive(count, (threads) =>
    feedThreads(threads, inputs.length, send, onReply, () => failure !== null),
  );
  if (failure !== null) {
    await closeWorkers(); // a thread may hold a half-done task: start clean next time
    throw failure;
  }
  return outputs;
}
