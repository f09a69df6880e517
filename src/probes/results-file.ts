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

/** The run `info` a probe file carries (what the loader reads the domain and models from). */
export function probeRunInfo(kind: ProbeKind, domain: string): PyDict {
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

/** A probe kind's simulations for one task set, as the raw records a results file holds. */
export interface ProbeSimulations {
  readonly kind: ProbeKind;
  readonly set: TaskSetRef;
  readonly simulations: readonly PyDict[];
  readonly notes: ReadonlyMap<string, ProbeNote>;
  readonly skipped: readonly { readonly task_id: string; readonly reason: string }[];
}

/** Builds the probe simulations of `tasks` (the set's tasks, or a slice of them). */
export function buildProbeSimulations(
  env: ProbeEnv,
  set: TaskSetRef,
  kind: ProbeKind,
  tasks: readonly Task[],
): ProbeSimulations {
  const notes = new Map<string, ProbeNote>();
  const skipped: { task_id: string; reason: string }[] = [];
  const simulations: PyDict[] = [];
  for (const task of tasks) {
    const outcome = PROBES[kind](env, task);
    if ("skipped" in outcome) {
      skipped.push({ task_id: task.id, reason: outcome.skipped });
      continue;
    }
    notes.set(task.id, outcome.note);
    simulations.push({
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
    });
  }
  return { kind, set, simulations, notes, skipped };
}

/** The results file text of probe simulations built over the whole task set. */
export function probeFileText(sims: ProbeSimulations, dataDir: string): string {
  const { kind, set } = sims;
  const probe: PyDict = {
    kind,
    domain: set.domain,
    task_version: set.name,
    task_file: relative(dataDir, set.path),
    generator: `tau-rescore probe --domain ${set.domain} --task-version ${set.name} --kind ${kind}`,
    skipped: sims.skipped as unknown as PyValue[],
  };
  // The tasks go in as the task file's own text: no re-serialization can change a type or a key.
  const tasksText = taskSetText(set.path);
  return [
    `{"timestamp": ${pyDumps(PROBE_TIMESTAMP)},`,
    `"info": ${pyDumps(probeRunInfo(kind, set.domain))},`,
    `"probe": ${pyDumps(probe)},`,
    `"tasks": ${tasksText},`,
    `"simulations": [\n${sims.simulations.map((sim) => pyDumps(sim)).join(",\n")}\n]}\n`,
  ].join("\n");
}

export function buildProbeFile(env: ProbeEnv, set: TaskSetRef, kind: ProbeKind, dataDir: string): ProbeFile {
  const sims = buildProbeSimulations(env, set, kind, loadTaskFile(set.path));
  return { text: probeFileText(sims, dataDir), notes: sims.notes, skipped: sims.skipped };
}
