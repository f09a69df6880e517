/**
 * Per-run grading context: loaded domain DBs, quirk settings, and caches of per-task work (the
 * initial setup and the gold target are computed once per distinct task, not per simulation).
 */
import type { Quirks } from "../domains/quirks.ts";
import type { Task } from "../formats/model.ts";
import { type PyValue, sameCanonical } from "../py/value.ts";
import type { Environment } from "../replay/environment.ts";
import { type GoldReplay, replayGold } from "../replay/gold.ts";
import { buildTaskSetup, type DomainData } from "../replay/setup.ts";

export interface TaskArtifacts {
  /** The environment after initialization data and actions (fork before use). */
  readonly setup: Environment;
  /** The gold replay (fork-free: read only). */
  readonly gold: GoldReplay;
}

/** Everything computed for one distinct task (same initial state and reference actions). */
interface TaskEntry {
  readonly initialState: PyValue;
  readonly actions: PyValue;
  setup?: Environment | Error;
  /** By variant: "" (no sync step), "true" / "false" (synced or not). */
  readonly golds: Map<string, GoldReplay | Error>;
}

/** A cheap content fingerprint: tasks that grade alike always share it (a bucket, not an identity). */
function fingerprint(task: Task): string {
  const actions = task.evaluation_criteria?.actions ?? null;
  const init = task.initial_state;
  const names = actions === null ? "-" : actions.map((a) => a.name).join(",");
  const data = init?.initialization_data;
  return `${names}|${init?.initialization_actions?.length ?? -1}|${data === null || data === undefined ? "-" : Object.keys(data.agent_data ?? {}).length}`;
}

export class GradingContext {
  private readonly buckets = new Map<string, TaskEntry[]>();
  private readonly entries = new WeakMap<object, TaskEntry>();
  /** tau2 keeps some state process-wide (telecom VPN); one map per context emulates a process. */
  readonly shared = new Map<string, unknown>();

  constructor(
    readonly data: DomainData,
    readonly quirks: Quirks,
  ) {}

  /**
   * The entry of what grading uses from a task: its initial state and reference actions. Tasks are
   * matched by content (tasks of different files are different objects), compared structurally.
   */
  private entryOf(task: Task): TaskEntry {
    const known = this.entries.get(task);
    if (known !== undefined) return known;
    const initialState = (task.initial_state ?? null) as unknown as PyValue;
    const actions = (task.evaluation_criteria?.actions ?? null) as unknown as PyValue;
    const key = fingerprint(task);
    const bucket = this.buckets.get(key) ?? [];
    if (bucket.length === 0) this.buckets.set(key, bucket);
    let entry = bucket.find(
      (e) => sameCanonical(e.actions, actions) && sameCanonical(e.initialState, initialState),
    );
    if (entry === undefined) {
      entry = { initialState, actions, golds: new Map() };
      bucket.push(entry);
    }
    this.entries.set(task, entry);
    return entry;
  }

  /**
   * Setup and gold target of a task (a corrected task is a different task with its own gold).
   * `syncedGold` asks for a gold target synced after every action whatever quirk noGoldSync says;
   * both gold variants fork the same setup, so their states stay comparable unit by unit.
   */
  taskArtifacts(task: Task, syncedGold = false): TaskArtifacts {
    const entry = this.entryOf(task);
    const goldActions = task.evaluation_criteria?.actions ?? null;
    entry.setup ??= attempt(() =>
      buildTaskSetup(this.data, task.initial_state, this.quirks, this.shared, goldActions),
    );
    if (entry.setup instanceof Error) throw entry.setup;
    const setup = entry.setup;
    const sync = syncedGold || !this.quirks.noGoldSync;
    // Without a sync step (every domain but telecom) both gold variants are the same replay.
    const variant = this.data.domain.sync === undefined ? "" : String(sync);
    const gold = memo(entry.golds, variant, () => replayGold(setup, task, sync));
    return { setup, gold };
  }
}

/** A failure is kept as a value, so a broken task fails the same way every time. */
function attempt<T>(make: () => T): T | Error {
  try {
    return make();
  } catch (e) {
    return e instanceof Error ? e : new Error(String(e));
  }
}

/** Computes once per key; a failure is cached too, so a broken task fails the same way every time. */
function memo<T>(cache: Map<string, T | Error>, key: string, make: () => T): T {
  let hit = cache.get(key);
  if (hit === undefined) {
    hit = attempt(make);
    cache.set(key, hit);
  }
  if (hit instanceof Error) throw hit;
  return hit;
}
