/**
 * A grading thread's entry: like the command line, it composes the layers (file grading from the
 * pipeline, named tasks such as the probe census from the layers above). It lives across runs (see `parallel.ts`): each run starts with a `begin`
 * message that rebuilds the settings and a fresh context pool, so per-run state (gold caches, tau2's
 * process-wide telecom VPN) never leaks from one run into the next. Domain DBs stay loaded.
 */
import { parentPort } from "node:worker_threads";
import { type FileDeps, processFile } from "../pipeline/process-file.ts";
import { fileDepsFor } from "../pipeline/settings.ts";
import type { ThreadTask, WorkerRequest } from "../pipeline/thread-protocol.ts";
import type { CensusWork } from "../probes/census-thread.ts";

/** Each named task's code, loaded on first use. */
const TASKS: Record<ThreadTask, (input: unknown) => Promise<unknown>> = {
  census: async (input) => (await import("../probes/census-thread.ts")).gradeCensusWork(input as CensusWork),
};

let deps: FileDeps | null = null;

parentPort?.on("message", async (msg: WorkerRequest) => {
  if (msg.kind === "begin") {
    deps = fileDepsFor(msg.init);
    return;
  }
  try {
    if (msg.kind === "task") {
      parentPort?.postMessage({ seq: msg.seq, output: await TASKS[msg.task](msg.input) });
      return;
    }
    if (deps === null) throw new Error("job before begin");
    const started = performance.now();
    const result = await processFile(msg.job, deps);
    parentPort?.postMessage({ seq: msg.seq, result, busyMs: performance.now() - started });
  } catch (e) {
    parentPort?.postMessage({
      seq: msg.seq,
      failure: e instanceof Error ? (e.stack ?? e.message) : String(e),
    });
  }
});
