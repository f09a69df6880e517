/**
 * Per-run grading context: loaded domain DBs, quirk settings, and caches of per-task work (the
 * initial setup and the gold target are computed once per distinct task, not per simulation).
 */
import type { Quirks } from "../domains/quirks.ts";
import type { Task } from "../formats/model.ts";
import { identityKey } from "../formats/py/json.ts";
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
  private readonly setups = new Map<string, Environment | Error>();
  private readonly golds = new Map<string, GoldReplay | Error>();
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
    const key = identityKey({
      initial_state: (task.initial_state ?? null) as unknown as PyValue,
      actions: (task.evaluation_criteria?.actions ?? null) as unknown as PyValue,
    });
    this.taskKeys.set(task, key);
    return key;
  }

  /**
   * Setup and gold target of a task (a corrected task is a different task with its own gold).
   * `syncedGold` asks for a gold target synced after every action whatever quirk noGoldSync says;
   * both gold variants fork the same setup, so their states stay comparable unit by unit.
   */
  taskArtifacts(task: Task, syncedGold = false): TaskArtifacts {
    const key = this.keyOf(task);
    const setup = memo(this.setups, key, () =>
      buildTaskSetup(this.data, task.initial_state, this.quirks, this.shared),
    );
    const sync = syncedGold || !this.quirks.noGoldSync;
    // Without a sync step (every domain but telecom) both gold variants are the same replay.
    const variant = this.data.domain.sync === undefined ? "" : `:${sync}`;
    const gold = memo(this.golds, `${key}${variant}`, () => replayGold(setup, task, sync));
    return { setup, gold };
  }
}

/** Computes once per key; a failure is cached too, so a broken task fails the same way every time. */
function memo<T>(cache: Map<string, T | Error>, key: string, make: () => T): T {
  let hit = cache.get(key);
  if (hit === undefined) {
    try {
      hit = make();
    } catch (e) {
      hit = e instanceof Error ? e : new Error(String(e));
    }
    cache.set(key, hit);
  }
  if (hit instanceof Error) throw hit;
  return hit;
}
