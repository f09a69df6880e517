/** What the main thread and a grading thread say to each other (the thread's entry: `cli/grading-thread.ts`). */
import type { FileJob, FileResult } from "./process-file.ts";
import type { WorkerInit } from "./settings.ts";

/** Work a layer above the pipeline hands to the threads by name (the thread's entry knows each name). */
export const THREAD_TASKS = ["census"] as const;
export type ThreadTask = (typeof THREAD_TASKS)[number];

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
