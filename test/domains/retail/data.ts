/** Test data locations (the lead will move a shared helper into test/helpers). */
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

/** A tau2 `data/tau2` directory. */
export const dataDir: string = process.env.TAU2_DATA_DIR ?? join(repoRoot, "..", "shared", "tau2-data");

const vectorsPath =
  process.env.TAU2_VECTORS ?? join(repoRoot, "..", "shared", "vectors", "tau2-reference-vectors.json");

export interface GoldVector {
  after_init: { agent: string; user: string | null };
  gold_target: { agent: string; user: string | null };
  gold_action_results: string[];
}

export interface ReferenceVectors {
  initial_db_hashes: Record<string, { agent: string; user: string | null }>;
  gold: Record<string, GoldVector>;
}

let cached: ReferenceVectors | undefined;
export function referenceVectors(): ReferenceVectors {
  cached ??= JSON.parse(readFileSync(vectorsPath, "utf8")) as ReferenceVectors;
  return cached;
}
