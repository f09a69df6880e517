/**
 * The gold target of tau2's environment evaluator: the task setup, its message history, then each
 * reference action executed directly (any type, no sync, no output check; failures are no-ops
 * that keep partial mutations and are recorded here instead of only logged).
 */
import type { Action, Task } from "../formats/model.ts";
import type { Environment } from "./environment.ts";
import { replayMessages } from "./replay.ts";

export interface GoldActionResult {
  readonly action: Action;
  /** `"ok"` or tau2's exact error text (`Error: ...`). */
  readonly result: string;
  /** The failure was a JS fault in the port, not a Python-level error (see `invoke`). */
  readonly internal?: boolean;
}

export interface GoldReplay {
  /** The state tau2's `set_state` leaves: setup plus the task's message history. */
  readonly initial: Environment;
  /** The gold target: `initial` plus the reference actions. */
  readonly env: Environment;
  readonly results: readonly GoldActionResult[];
}

/**
 * `syncAfterActions` overrides quirk noGoldSync: graders that compare whole states (the delta gate)
 * need a gold target synced like a live run, or every synced field would look like a deviation.
 */
export function replayGold(
  setup: Environment,
  task: Task,
  syncAfterActions = !setup.toolEnv.quirks.noGoldSync,
): GoldReplay {
  const initial = setup.fork(false);
  replayMessages(initial, task.initial_state?.message_history ?? [], { strict: false });
  const env = initial.fork();
  const gold = task.evaluation_criteria?.actions ?? [];
  const results = gold.map((action) => {
    const out = env.makeToolCall(action.name, action.requestor, action.arguments, false);
    // quirk noGoldSync: tau2 never syncs after gold actions; the fixed mode syncs like a live call.
    if (!out.error && syncAfterActions) env.sync();
    return { action, result: out.error ? out.content : "ok", ...(out.internal ? { internal: true } : {}) };
  });
  return { initial, env, results };
}
