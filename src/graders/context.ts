/**
 * Per-run grading context: loaded domain DBs, quirk settings, and caches of per-task work (the
 * initial setup and the gold target are computed once per distinct task, not per simulation).
 */
import type { Quirks } from "../domains/quirks.ts";
import type { Task } from "../formats/model.ts";
import { canonicalJson, sha256Hex } from "../formats/py/json.ts";
import type { PyValue } from "../formats/py/value.ts";
import type { Environment } from "../replay/environment.ts";
import { type GoldReplay, replayGold } from "../replay/gold.ts";
import { buildTaskSetup, type DomainData } from "../replay/setup.ts";

export interface TaskArtifacts {
  /** The environment after initialization data and actions (fork before use). */
  readonly setup: Environment;
  /** The gold replay (fork-free: read only). */
  readonly gold: GoldReplay;
}

export class GradingContext {
  private readonly artifacts = new Map<string, TaskArtifacts | Error>();
  private readonly taskKeys = new WeakMap<object, string>();
  /** tau2 keeps some state process-wide (telecom VPN); one map per context emulates a process. */
  readonly shared = new Map<string, unknown>();

  constructor(
    readonly data: DomainData,
    readonly quirks: Quirks,
  ) {}

  /** Identity of what grading uses from a task: its initial state and reference actions. */
  private keyOf(task: Task): string {
    const memo = this.taskKeys.get(task);
    if (memo !== undefined) return memo;
    const key = sha256Hex(
      canonicalJson({
        initial_state: (task.initial_state ?? null) as unknown as PyValue,
        actions: (task.evaluation_criteria?.actions ?? null) as unknown as PyValue,
      }),
    );
    this.taskKeys.set(task, key);
    return key;
  }

  /** Setup and gold target of a task (a corrected task is a different task with its own gold). */
  taskArtifacts(task: Task): TaskArtifacts {
    const key = this.keyOf(task);
    let hit = this.artifacts.get(key);
    if (hit === undefined) {
      try {
        const setup = buildTaskSetup(this.data, task.initial_state, this.quirks, this.shared);
        hit = { setup, gold: replayGold(setup, task) };
      } catch (e) {
        hit = e instanceof Error ? e : new Error(String(e));
      }
      this.artifacts.set(key, hit);
    }
    if (hit instanceof Error) throw hit;
    return hit;
  }
}
