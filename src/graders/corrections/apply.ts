/** Applies a corrections overlay to one task: the corrected gold actions and the curated NL list. */
import type { Task } from "../../formats/model.ts";
import { CorrectionsError } from "./folder.ts";
import type { CorrectionsFile, NlCuration } from "./schema.ts";

export interface CuratedAssertion {
  readonly assertion: string;
  /** Where it came from: an upstream index (adopted or inverted) or an addition. */
  readonly origin:
    | { readonly kind: "adopted" | "inverted"; readonly index: number }
    | { readonly kind: "added" };
  readonly reason: string | null;
}

export interface CorrectedTask {
  /** The task with corrected gold actions (same object when nothing was dropped). */
  readonly task: Task;
  readonly droppedActions: readonly { readonly action_id: string; readonly reason: string }[];
  /** Null when the overlay does not curate this task's NL assertions. */
  readonly curatedNl: readonly CuratedAssertion[] | null;
  readonly overlayVersion: string;
}

export function correctTask(task: Task, taskVersion: string, overlay: CorrectionsFile): CorrectedTask {
  const entry = overlay.tasks[task.id];
  const none: CorrectedTask = { task, droppedActions: [], curatedNl: null, overlayVersion: overlay.version };
  if (entry === undefined || !entry.task_versions.includes(taskVersion)) return none;
  const criteria = task.evaluation_criteria;
  const actions = criteria?.actions ?? [];
  for (const d of entry.drop_actions) {
    if (!actions.some((a) => a.action_id === d.action_id)) {
      throw new CorrectionsError(
        `corrections ${overlay.domain} task ${task.id}: no gold action ${d.action_id} to drop`,
      );
    }
  }
  const dropped = new Set(entry.drop_actions.map((d) => d.action_id));
  const corrected: Task =
    criteria === null || dropped.size === 0
      ? task
      : {
          ...task,
          evaluation_criteria: { ...criteria, actions: actions.filter((a) => !dropped.has(a.action_id)) },
        };
  return {
    task: corrected,
    droppedActions: entry.drop_actions,
    curatedNl: entry.nl_curation === null ? null : curate(task, entry.nl_curation, overlay.domain),
    overlayVersion: overlay.version,
  };
}

function curate(task: Task, c: NlCuration, domain: string): CuratedAssertion[] {
  const upstream = task.evaluation_criteria?.nl_assertions ?? [];
  const check = (index: number) => {
    if (index >= upstream.length) {
      throw new CorrectionsError(
        `corrections ${domain} task ${task.id}: NL assertion index ${index} out of range`,
      );
    }
  };
  const out: CuratedAssertion[] = [];
  for (const index of c.adopt) {
    check(index);
    out.push({ assertion: upstream[index] as string, origin: { kind: "adopted", index }, reason: null });
  }
  for (const d of c.drop) check(d.index);
  for (const inv of c.invert) {
    check(inv.index);
    out.push({
      assertion: inv.assertion,
      origin: { kind: "inverted", index: inv.index },
      reason: inv.reason,
    });
  }
  for (const a of c.add) out.push({ assertion: a.assertion, origin: { kind: "added" }, reason: a.reason });
  const mentioned = new Set([...c.adopt, ...c.drop.map((d) => d.index), ...c.invert.map((i) => i.index)]);
  const unmentioned = upstream.map((_, i) => i).filter((i) => !mentioned.has(i));
  if (unmentioned.length > 0) {
    throw new CorrectionsError(
      `corrections ${domain} task ${task.id}: NL assertions ${unmentioned.join(", ")} are neither adopted, dropped nor inverted`,
    );
  }
  return out;
}
