/** Locations of the shared reference data for tests (never hard-coded in src/). */
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

export const SHARED_DIR = resolve(repoRoot, "../shared");
export const DATA_DIR = process.env.TAU2_DATA_DIR ?? join(SHARED_DIR, "tau2-data");
export const CORPUS_DIR = join(SHARED_DIR, "corpus");
export const VECTORS_PATH = join(SHARED_DIR, "vectors/tau2-reference-vectors.json");

export interface HashPair {
  readonly agent: string | null;
  readonly user: string | null;
}
export interface GoldVector {
  readonly after_init: HashPair;
  readonly gold_target: HashPair;
  readonly gold_action_results: readonly string[];
}
export interface CorpusVerdict {
  readonly id: string;
  readonly task_id: string;
  readonly trial: number | null;
  readonly termination_reason: string;
  readonly recorded_reward: number | null;
  readonly reward: number | null;
  readonly db_match: boolean | null;
  readonly reward_breakdown: Record<string, number> | null;
  readonly reward_basis: string[] | null;
  readonly env_assertions: boolean[] | null;
  readonly communicate_checks: boolean[] | null;
  readonly action_checks: boolean[] | null;
  readonly error: string | null;
}
export interface ReferenceVectors {
  readonly initial_db_hashes: Record<string, HashPair>;
  readonly gold: Record<string, GoldVector>;
  readonly corpus_verdicts: Record<string, CorpusVerdict[]>;
}

let cached: ReferenceVectors | undefined;
export function referenceVectors(): ReferenceVectors {
  cached ??= JSON.parse(readFileSync(VECTORS_PATH, "utf8")) as ReferenceVectors;
  return cached;
}

/** The task file a vectors `gold` key prefix refers to. */
export function taskFileForVersion(version: string, domain: string): string {
  if (version === "head") return join(DATA_DIR, "domains", domain, "tasks.json");
  if (version === "head-tasks_small") return join(DATA_DIR, "domains", domain, "tasks_small.json");
  if (version === "v0.2.0") return join(DATA_DIR, "versions/v0.2.0_f8de30c/domains", domain, "tasks.json");
  throw new Error(`unknown vector version ${version}`);
}
