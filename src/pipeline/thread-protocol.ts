/** What the main thread and a grading thread say to each other (the thread's entry: `thread-entry.ts`). */
import type { FileJob, FileResult } from "./process-file.ts";
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
  | { readonly kind: "job"; readonly job: FileJob; readonly seq: number }
  | { readonly kind: "task"; readonly task: ThreadTask; readonly input: unknown; readonly seq: number };

export type Reply = {
  seq: number;
  result?: FileResult;
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
