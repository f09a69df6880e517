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
