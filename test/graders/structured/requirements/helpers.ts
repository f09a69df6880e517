/** Temporary requirement dirs for tests: fixtures written where `verify` expects them. */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export interface RuleSpec {
  id?: string;
  action?: string;
  rule?: string;
  source_field?: string;
  source_quote?: string;
  arguments?: Record<string, string | number | boolean | null> | null;
}

/** Airline task 47's refusal, the model rule; tests vary one field at a time. */
export const MODEL_RULE: Required<RuleSpec> = {
  id: "airline.47.no_transfer",
  action: "transfer_to_human_agents",
  rule: "Do not transfer the user to another agent.",
  source_field: "task_instructions",
  source_quote: "you don't want to be transferred to another agent",
  arguments: null,
};

export function fixture(taskId: string, rules: RuleSpec[], version = "head", domain = "airline") {
  return {
    domain,
    task_version: version,
    task_id: taskId,
    user_preflight_requirements: { action_preconditions: rules.map((r) => ({ ...MODEL_RULE, ...r })) },
  };
}

export function tempRequirements(files: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), "requirements-"));
  for (const [rel, content] of Object.entries(files)) {
    const path = join(dir, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content, null, 2));
  }
  return dir;
}
