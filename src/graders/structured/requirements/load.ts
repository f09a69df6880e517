/** Reads requirement fixtures from a directory tree (`requirements/<domain>/<task-version>/*.json`). */
import { readFileSync } from "node:fs";
import { basename, dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { protoKeyPath } from "../../../formats/json-path.ts";
import { describeZodError } from "../../../formats/zod-issues.ts";
import { type FolderSource, layeredFiles } from "../../../util/layers.ts";
import {
  type FactVocabulary,
  factVocabularySchema,
  type RequirementFixture,
  requirementFixtureSchema,
} from "./schema.ts";

export interface LoadedFixture {
  readonly path: string;
  readonly fixture: RequirementFixture;
}

export interface FixtureLoadProblem {
  readonly path: string;
  readonly message: string;
}

export interface RequirementSet {
  readonly fixtures: readonly LoadedFixture[];
  readonly problems: readonly FixtureLoadProblem[];
  /** Lookup by `domain/task_version/task_id` (`*` finds the version's fixture for every task). */
  find(domain: string, taskVersion: string, taskId: string): LoadedFixture | undefined;
  /** A domain's fact vocabulary (`<domain>/_facts.json`); empty when it has none. */
  vocabulary(domain: string): FactVocabulary;
}

/** The file naming the facts a domain's fixtures may state. */
export const FACT_VOCABULARY_FILE = "_facts.json";

const NO_FACTS: FactVocabulary = Object.freeze({});

/** A domain's fact vocabulary, or why it is not one (a missing file is an empty vocabulary). */
export function loadFactVocabulary(path: string): { vocabulary: FactVocabulary } | FixtureLoadProblem {
  const shown = shownPath(path);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return { vocabulary: NO_FACTS };
    return { path: shown, message: `invalid JSON: ${(e as Error).message}` };
  }
  const proto = protoKeyPath(raw);
  if (proto !== null) return { path: shown, message: `at ${proto}: the key __proto__ is not allowed` };
  const parsed = factVocabularySchema.safeParse(raw);
  if (!parsed.success) return { path: shown, message: describeZodError(parsed.error) };
  return { vocabulary: parsed.data };
}

const key = (domain: string, version: string, id: string) => `${domain}\u0000${version}\u0000${id}`;

/** How a fixture path is shown: relative to the working folder when inside it, else absolute. */
function shownPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel === "" || rel.startsWith("..") || isAbsolute(rel) ? resolve(path) : rel;
}

/** One fixture file, or why it is not one. */
export function loadFixtureFile(path: string): LoadedFixture | FixtureLoadProblem {
  const shown = shownPath(path);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    return { path: shown, message: `invalid JSON: ${(e as Error).message}` };
  }
  // zod builds records by assignment: a `__proto__` key would vanish, widening a scope to every call.
  const proto = protoKeyPath(raw);
  if (proto !== null) return { path: shown, message: `at ${proto}: the key __proto__ is not allowed` };
  const parsed = requirementFixtureSchema.safeParse(raw);
  if (!parsed.success) return { path: shown, message: describeZodError(parsed.error) };
  return { path: shown, fixture: parsed.data };
}

/**
 * Files whose name starts with `_` (e.g. `_reviewed-candidates.json`) are not fixtures. Over layers, each
 * file (a fixture, a domain's `_facts.json`) is the first layer's that has its relative path.
 */
export function loadRequirements(source: FolderSource): RequirementSet {
  const fixtures: LoadedFixture[] = [];
  const problems: FixtureLoadProblem[] = [];
  const index = new Map<string, LoadedFixture>();
  const vocabularies = new Map<string, FactVocabulary>();
  const files = layeredFiles(source, (name) => name.endsWith(".json"));
  for (const f of files) {
    const domain = dirname(f.rel);
    // A domain's vocabulary sits right in its folder.
    if (basename(f.rel) !== FACT_VOCABULARY_FILE || domain === "." || domain.includes(sep)) continue;
    const v = loadFactVocabulary(f.path);
    if ("message" in v) problems.push(v);
    else vocabularies.set(domain, v.vocabulary);
  }
  for (const { rel, path } of files) {
    if (basename(rel).startsWith("_")) continue;
    const one = loadFixtureFile(path);
    if ("message" in one) {
      problems.push(one);
      continue;
    }
    const shown = one.path;
    const f = one.fixture;
    const k = key(f.domain, f.task_version, f.task_id);
    if (index.has(k)) {
      problems.push({
        path: shown,
        message: `second fixture for ${f.domain} ${f.task_version} task ${f.task_id} (first: ${index.get(k)?.path})`,
      });
      continue;
    }
    const loaded = { path: shown, fixture: f };
    index.set(k, loaded);
    fixtures.push(loaded);
  }
  return {
    fixtures,
    problems,
    find: (domain, version, id) => index.get(key(domain, version, id)),
    vocabulary: (domain) => vocabularies.get(domain) ?? NO_FACTS,
  };
}
