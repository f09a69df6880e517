/**
 * Writes probes as a standard tau2 results file `{timestamp, info, tasks, simulations}`: our own
 * synthetic data, reproducible byte for byte (fixed ids and timestamps), with the task set's tasks
 * embedded verbatim so the file's task version is detected like any recorded run's.
 */
import { relative } from "node:path";
import type { Task } from "../formats/model.ts";
import { loadTaskFile, type TaskSetRef, taskSetText } from "../formats/tasks.ts";
import { pyDumps } from "../py/json.ts";
import { type PyDict, type PyValue, pyFloat } from "../py/value.ts";
import { PROBES } from "./index.ts";
import type { ProbeEnv, ProbeKind, ProbeNote } from "./kind.ts";

/** Fixed so that the same data dir always yields the same bytes. */
export const PROBE_TIMESTAMP = "2000-01-01T00:00:00";

export interface ProbeFile {
  readonly text: string;
  /** The note of each probed task, by task id (the loader drops simulation `info`). */
  readonly notes: ReadonlyMap<string, ProbeNote>;
  readonly skipped: readonly { readonly task_id: string; readonly reason: string }[];
}

const simulationId = (kind: ProbeKind, set: TaskSetRef, task: Task) =>
  `probe:${kind}:${set.domain}:${set.name}:${task.id}`;

function runInfo(kind: ProbeKind, domain: string): PyDict {
  return {
    git_commit: "",
    num_trials: 1,
    max_steps: 0,
    max_errors: 0,
    user_info: { implementation: "probe", llm: "probe", llm_args: {}, global_simulation_guidelines: null },
    agent_info: { implementation: "probe", llm: `probe:${kind}`, llm_args: {} },
    environment_info: { domain_name: domain, policy: null, tool_defs: null },
    seed: 0,
  };
}

export function buildProbeFile(env: ProbeEnv, set: TaskSetRef, kind: ProbeKind, dataDir: string): ProbeFile {
  const notes = new Map<string, ProbeNote>();
  const skipped: { task_id: string; reason: string }[] = [];
  const simulations: string[] = [];
  for (const task of loadTaskFile(set.path)) {
    const outcome = PROBES[kind](env, task);
    if ("skipped" in outcome) {
      skipped.push({ task_id: task.id, reason: outcome.skipped });
      continue;
    }
    notes.set(task.id, outcome.note);
    const sim: PyDict = {
      id: simulationId(kind, set, task),
      task_id: task.id,
      start_time: PROBE_TIMESTAMP,
      end_time: PROBE_TIMESTAMP,
      duration: pyFloat(0),
      termination_reason: "user_stop",
      agent_cost: null,
      user_cost: null,
      reward_info: null,
      messages: outcome.messages as unknown as PyValue[],
      trial: 0,
      seed: 0,
      info: { probe: outcome.note as unknown as PyDict },
    };
    simulations.push(pyDumps(sim));
  }
  const probe: PyDict = {
    kind,
    domain: set.domain,
    task_version: set.name,
    task_file: relative(dataDir, set.path),
    generator: `tau-rescore probe --domain ${set.domain} --task-version ${set.name} --kind ${kind}`,
    skipped: skipped as unknown as PyValue[],
  };
  // The tasks go in as the task file's own text: no re-serialization can change a type or a key.
  const tasksText = taskSetText(set.path);
  const text = [
    `{"timestamp": ${pyDumps(PROBE_TIMESTAMP)},`,
    `"info": ${pyDumps(runInfo(kind, set.domain))},`,
    `"probe": ${pyDumps(probe)},`,
    `"tasks": ${tasksText},`,
    `"simulations": [\n${simulations.join(",\n")}\n]}\n`,
  ].join("\n");
  return { text, notes, skipped };
}
