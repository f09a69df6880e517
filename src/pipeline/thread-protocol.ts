/** What the main thread and a grading thread say to each other (the thread's entry: `thread-entry.ts`). */
import type { ModuleGraderWatch } from "./grade.ts";
import type { FileDeps, FileJob } from "./process-file.ts";
import type { WorkerInit } from "./settings.ts";

/**
 * Work a layer above the pipeline hands to the threads: the URL of the module that holds it (the
 * caller's own `import.meta.url`, so it names the built or the source file, whichever runs) and the
 * name of the function it exports. The thread imports the module, so the pipeline never names the
 * layers above it.
 */
export interface ThreadTask {
  readonly module: string;
  readonly name: string;
}

export type WorkerRequest =
  | { readonly kind: "begin"; readonly init: WorkerInit }
  | {
      readonly kind: "job";
      readonly job: FileJob;
      readonly seq: number;
      /** A layer above's function the thread grades the file with instead of `processFile` (`FileTask`). */
      readonly perFile?: ThreadTask;
    }
  | { readonly kind: "task"; readonly task: ThreadTask; readonly input: unknown; readonly seq: number };

/**
 * What a `perFile` task exports: the file graded as `processFile` grades it (a grader module's start and
 * end told to `watch`), into a result of the caller's own (`grade`'s output lines).
 */
export type FileTask = (job: FileJob, deps: FileDeps, watch: ModuleGraderWatch) => Promise<unknown>;

export type Reply = {
  seq: number;
  /** A job's result: a `FileResult`, or what its `perFile` task returned. */
  result?: unknown;
  /** A named task's output. */
  output?: unknown;
  failure?: string;
  busyMs?: number;
};

/**
 * A grader module starts (`running`) or ends grading the `simulation`-th simulation of job `seq`: the
 * main thread times it, and terminates the thread when it takes too long (a loop holds the thread).
 */
export interface ModuleGraderSignal {
  readonly kind: "module-grader";
  readonly seq: number;
  readonly simulation: number;
  readonly grader: string;
  readonly running: boolean;
}

/** Everything a thread posts: one reply per request, and any number of signals before it. */
export type ThreadMessage = Reply | ModuleGraderSignal;

export const isModuleGraderSignal = (m: ThreadMessage): m is ModuleGraderSignal =>
  (m as ModuleGraderSignal).kind === "module-grader";
