/** Turns a zod error into one `{path, reason}` pair for rejection lists and error texts; reads validated JSON files. */
import { readFileSync } from "node:fs";
import type { z } from "../util/zod.ts";
import { joinPath } from "./json-path.ts";

export interface IssueLocation {
  readonly path: string;
  readonly reason: string;
}

type Issue = z.core.$ZodIssue;

/**
 * For a plain union zod reports only "Invalid input" at the union itself; the branch that got furthest
 * (the longest issue path) says much more, so we descend into it.
 */
function mostSpecific(issue: Issue): { segments: PropertyKey[]; message: string } {
  if (issue.code === "invalid_union" && issue.errors.length > 0) {
    let best: { segments: PropertyKey[]; message: string } | null = null;
    for (const branch of issue.errors) {
      const first = branch[0];
      if (first === undefined) continue;
      const inner = mostSpecific(first);
      if (best === null || inner.segments.length > best.segments.length) best = inner;
    }
    if (best !== null) return { segments: [...issue.path, ...best.segments], message: best.message };
  }
  return { segments: [...issue.path], message: issue.message };
}

export function firstIssue(error: z.ZodError, basePath: string): IssueLocation {
  const issue = error.issues[0];
  if (issue === undefined) return { path: basePath, reason: "invalid value" };
  const { segments, message } = mostSpecific(issue);
  return { path: joinPath(basePath, segments), reason: message };
}

/** `at <path>: <reason>` for the first issue: the one phrasing every config and fixture error uses. */
export function describeZodError(error: z.ZodError): string {
  const { path, reason } = firstIssue(error, "$");
  return `at ${path}: ${reason}`;
}

/**
 * Reads a JSON file and validates it: the parsed value, or `fail(message)` thrown with the file name and
 * the JSON path of the first problem.
 */
export function readJsonFile<T>(path: string, schema: z.ZodType<T>, fail: (message: string) => Error): T {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    // V8's syntax errors quote the text: a config pointed at the wrong file must not print it.
    throw fail(`${path}: ${e instanceof SyntaxError ? "not valid JSON" : (e as Error).message}`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw fail(`${path}: ${describeZodError(parsed.error)}`);
  return parsed.data;
}
