/** Where fixtures and review notes live: `requirements/<domain>/<task-version>/…`, nested for `head/tasks_small`. */
import { join } from "node:path";

export const REVIEWED_CANDIDATES_FILE = "_reviewed-candidates.json";
/** Fact candidates that did not become a fact, each with its reason. */
export const REVIEWED_FACTS_FILE = "_reviewed-facts.json";

/** Path segments of a task version (`head/tasks_small` is a nested folder). */
const versionSegments = (taskVersion: string): string[] => taskVersion.split("/");

/** The file of a fixture for every task of a version (`task_id: "*"`). */
export const EVERY_TASK_FILE = "every-task.json";

/** The fixture's path relative to the requirements dir, with `/` separators. */
export function fixtureRelPath(domain: string, taskVersion: string, taskId: string): string {
  const file = taskId === "*" ? EVERY_TASK_FILE : `${taskId}.json`;
  return [domain, ...versionSegments(taskVersion), file].join("/");
}

export function taskVersionDir(dir: string, domain: string, taskVersion: string): string {
  return join(dir, domain, ...versionSegments(taskVersion));
}

export function reviewedCandidatesPath(dir: string, domain: string, taskVersion: string): string {
  return join(taskVersionDir(dir, domain, taskVersion), REVIEWED_CANDIDATES_FILE);
}

export function reviewedFactsPath(dir: string, domain: string, taskVersion: string): string {
  return join(taskVersionDir(dir, domain, taskVersion), REVIEWED_FACTS_FILE);
}

/**
 * The task-id segment of a rule id. Rule ids allow `[A-Za-z0-9_-]` there, so telecom ids such as
 * `[service_issue]airplane_mode_on[PERSONA:None]` become `service_issue_airplane_mode_on_PERSONA_None`.
 */
export function ruleIdTaskSegment(taskId: string): string {
  return taskId.replace(/[^A-Za-z0-9_-]+/g, "_").replace(/^_+|_+$/g, "") || "task";
}
