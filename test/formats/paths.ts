/** Locations of the shared read-only test data (never copied into the repo). */
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

export const DATA_DIR = process.env.TAU2_DATA_DIR ?? join(repo, "..", "shared", "tau2-data");
export const CORPUS_DIR = join(repo, "..", "shared", "corpus");
export const corpusFile = (relative: string): string => join(CORPUS_DIR, relative);
