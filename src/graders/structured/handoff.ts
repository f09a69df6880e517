/**
 * Hand-off labels: should the agent have transferred the user to a human? Derived per task by rule
 * (the gold solution transfers or it does not), with reviewed overrides that must give a reason.
 */
import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import type { Message, Task } from "../../formats/model.ts";
import { taskSetText } from "../../formats/tasks.ts";
import { readJsonFile } from "../../formats/zod-issues.ts";
import { EXIT_USAGE, RescoreError } from "../../util/errors.ts";
import { z } from "../../util/zod.ts";

export const TRANSFER_TOOL = "transfer_to_human_agents";

export type HandoffRule = "gold_transfer_action" | "no_transfer" | "override";

export interface HandoffLabel {
  readonly task_id: string;
  readonly should_transfer: 0 | 1;
  readonly rule: HandoffRule;
  readonly reason: string | null;
}

export const overridesSchema = z.strictObject({
  domains: z.record(
    z.string(),
    z.record(
      z.string(),
      z.strictObject({
        should_transfer: z.union([z.literal(0), z.literal(1)]),
        reason: z.string().trim().min(1, "an override needs a reason"),
      }),
    ),
  ),
});
export type HandoffOverrides = z.infer<typeof overridesSchema>;

export function labelTask(task: Task, domain: string, overrides: HandoffOverrides | null): HandoffLabel {
  const o = overrides?.domains[domain]?.[task.id];
  if (o !== undefined)
    return { task_id: task.id, should_transfer: o.should_transfer, rule: "override", reason: o.reason };
  const transfers = (task.evaluation_criteria?.actions ?? []).some((a) => a.name === TRANSFER_TOOL);
  return transfers
    ? { task_id: task.id, should_transfer: 1, rule: "gold_transfer_action", reason: null }
    : { task_id: task.id, should_transfer: 0, rule: "no_transfer", reason: null };
}

/** "Transferred" means the agent called the transfer tool, whatever the tool returned. */
export const didTransfer = (messages: readonly Message[]): boolean =>
  messages.some((m) => m.role === "assistant" && (m.tool_calls ?? []).some((c) => c.name === TRANSFER_TOOL));

export interface LabelFile {
  readonly domain: string;
  readonly task_version: string;
  /**
   * sha256 of the task file's bytes, so a label file is tied to the exact tasks it came from (a directory
   * of task files, banking's: of the set as one JSON list, `taskSetText`).
   */
  readonly task_file_sha256: string;
  readonly labels: readonly HandoffLabel[];
}

export function buildLabelFile(
  domain: string,
  taskVersion: string,
  taskFilePath: string,
  tasks: readonly Task[],
  overrides: HandoffOverrides | null,
): LabelFile {
  return {
    domain,
    task_version: taskVersion,
    task_file_sha256: createHash("sha256")
      .update(statSync(taskFilePath).isDirectory() ? taskSetText(taskFilePath) : readFileSync(taskFilePath))
      .digest("hex"),
    labels: tasks.map((t) => labelTask(t, domain, overrides)),
  };
}

export class HandoffOverridesError extends RescoreError {
  override readonly code = "handoff_overrides";
  override readonly exitStatus = EXIT_USAGE;

  override readonly name = "HandoffOverridesError";
}

export const loadOverrides = (path: string): HandoffOverrides =>
  readJsonFile(path, overridesSchema, (m) => new HandoffOverridesError(m));
