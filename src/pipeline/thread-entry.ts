/**
 * A grading thread's entry. It lives across runs (see `parallel.ts`): each run starts with a `begin`
 * message that rebuilds the settings and a fresh context pool, so per-run state (gold caches, tau2's
 * process-wide telecom VPN) never leaks from one run into the next. Domain DBs stay loaded. Tasks of
 * the layers above (the probe census) arrive as a module URL and an export name, and are imported here
 * on first use, as do those that grade a job's file in place of `processFile` (`grade`'s output lines).
 * The thread tells the main thread when a grader module starts and ends a simulation: the
 * main thread keeps the module's time limit (a module looping here would hold this thread's timers).
 */
import { parentPort } from "node:worker_threads";
import { type FileDeps, processFile } from "./process-file.ts";
import { fileDepsFor } from "./settings.ts";
import type { FileTask, ModuleGraderSignal, ThreadTask, WorkerRequest } from "./thread-protocol.ts";

type TaskFn = (input: unknown) => Promise<unknown>;

const tasks = new Map<string, Promise<unknown>>();

/** The function a task names, imported on first use. */
function taskFn<F = TaskFn>(task: ThreadTask): Promise<F> {
  const key = `${task.module}#${task.name}`;
  let fn = tasks.get(key);
  if (fn === undefined) {
    fn = import(task.module).then((m: Record<string, unknown>) => {
      const f = m[task.name];
      if (typeof f !== "function") throw new Error(`${task.module} exports no function ${task.name}`);
      return f;
    });
    tasks.set(key, fn);
  }
  return fn as Promise<F>;
}

let deps: Promise<FileDeps> | null = null;

parentPort?.on("message", async (msg: WorkerRequest) => {
  if (msg.kind === "begin") {
    deps = fileDepsFor(msg.init);
    // A failure to load is each job's failure (below), not an unhandled rejection.
    deps.catch(() => {});
    return;
  }
  try {
    if (msg.kind === "task") {
      const run = await taskFn(msg.task);
      parentPort?.postMessage({ seq: msg.seq, output: await run(msg.input) });
      return;
    }
    if (deps === null) throw new Error("job before begin");
    const started = performance.now();
    const { seq } = msg;
    const watch = (simulation: number, grader: string, running: boolean) =>
      parentPort?.postMessage({
        kind: "module-grader",
        seq,
        simulation,
        grader,
        running,
      } satisfies ModuleGraderSignal);
    const grade = msg.perFile === undefined ? processFile : await taskFn<FileTask>(msg.perFile);
    const result = await grade(msg.job, await deps, watch);
    parentPort?.postMessage({ seq: msg.seq, result, busyMs: performance.now() - started });
  } catch (e) {
    parentPort?.postMessage({
      seq: msg.seq,
      failure: e instanceof Error ? (e.stack ?? e.message) : String(e),
    });
  }
});
