/** Per-task DB hashes (`tau-rescore hash`): after initialisation and, optionally, the gold target. */
import type { Task } from "../formats/model.ts";
import type { GradingContext } from "../graders/context.ts";

export interface HashPair {
  readonly agent: string;
  readonly user: string | null;
}

export type TaskHashes =
  | {
      readonly task_id: string;
      readonly after_init: HashPair;
      readonly gold_target?: HashPair;
      readonly gold_action_results?: readonly string[];
    }
  | { readonly task_id: string; readonly error: string };

export function taskHashes(ctx: GradingContext, task: Task, withGold: boolean): TaskHashes {
  try {
    const { gold } = ctx.taskArtifacts(task);
    const row: TaskHashes = {
      task_id: task.id,
      after_init: { agent: gold.initial.agentHash(), user: gold.initial.userHash() },
    };
    if (!withGold) return row;
    return {
      ...row,
      gold_target: { agent: gold.env.agentHash(), user: gold.env.userHash() },
      gold_action_results: gold.results.map((r) => r.result),
    };
  } catch (e) {
    return { task_id: task.id, error: e instanceof Error ? e.message : String(e) };
  }
}
