/**
 * A grading worker thread. It lives across runs (see `parallel.ts`): each run starts with a `begin`
 * message that rebuilds the settings and a fresh context pool, so per-run state (gold caches, tau2's
 * process-wide telecom VPN) never leaks from one run into the next. Domain DBs stay loaded.
 */
import { parentPort } from "node:worker_threads";
import type { CensusWork } from "../probes/census-thread.ts";
import { type FileDeps, type FileJob, processFile } from "./process-file.ts";
import { fileDepsFor, type WorkerInit } from "./settings.ts";

export type WorkerRequest =
  | { readonly kind: "begin"; readonly init: WorkerInit }
  | { readonly kind: "job"; readonly job: FileJob; readonly seq: number }
  | { readonly kind: "census"; readonly work: CensusWork; readonly seq: number };

let deps: FileDeps | null = null;

parentPort?.on("message", async (msg: WorkerRequest) => {
  if (msg.kind === "begin") {
    deps = fileDepsFor(msg.init);
    return;
  }
  try {
    if (msg.kind === "census") {
      const { gradeCensusWork } = await import("../probes/census-thread.ts");
      parentPort?.postMessage({ seq: msg.seq, census: await gradeCensusWork(msg.work) });
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
