/**
 * Entry point for reading recorded runs: detects which of the known layouts a `.json` or `.jsonl` file
 * uses and hands it to that loader. JSON files that hold no trajectories (leaderboard `submission.json`,
 * judge outputs, JSON Lines of other records, the PR #344 annotated example) are classified, not errors.
 *
 * The PR #344 file `{_about, task, simulation_run}` is classified `not-trajectories` on purpose: its
 * `_about` says the simulation is reconstructed and its tool outputs are representative rather than
 * real, so grading it would measure nothing.
 */

import { FormatError } from "./errors.ts";
import { loadBareSimulations } from "./loaders/bare-simulations.ts";
import { loadDomainSimulations } from "./loaders/domain-simulations.ts";
import { isRecord, type RawRecord } from "./loaders/raw.ts";
import {
  loadJsonlSimulations,
  loadSingleSimulation,
  looksLikeSimulation,
} from "./loaders/single-simulations.ts";
import { loadTauBenchV1, V1_TYPED_KEYS } from "./loaders/tau-bench-v1.ts";
import { isRunnerOutput, loadTau2Results } from "./loaders/tau2-results.ts";
import type { FormatVariant, TrajectoryFile } from "./model.ts";
import { readJsonDocument } from "./read-json.ts";
import { TAU2_TYPED_KEYS } from "./typed-arguments.ts";

export interface NotTrajectories {
  readonly path: string;
  readonly variant: "not-trajectories";
  readonly reason: string;
}

export type LoadedJsonFile = TrajectoryFile | NotTrajectories;

/**
 * Keys restored with Python number types, by the document's variant. A file without trajectories is
 * classified and never graded, so its numbers are left as `JSON.parse` gives them.
 */
function typedKeysOf(data: unknown): readonly string[] {
  const { variant } = detectVariant(data);
  return variant === "not-trajectories" ? [] : variant === "tau-bench-v1" ? V1_TYPED_KEYS : TAU2_TYPED_KEYS;
}

export type Detection =
  | { readonly variant: Exclude<FormatVariant, "jsonl-simulations"> }
  | { readonly variant: "not-trajectories"; readonly reason: string };

const keyList = (doc: RawRecord): string => {
  const keys = Object.keys(doc);
  return keys.length > 6 ? `${keys.slice(0, 6).join(", ")}, …` : keys.join(", ");
};

/** Names the common non-trajectory files of the corpus, for a readable reason. */
function describeObject(doc: RawRecord): string {
  if ("simulation_run" in doc && "task" in doc) {
    return "a single annotated example (task + reconstructed simulation_run), not a results file";
  }
  if ("submission_date" in doc || "submission_type" in doc) return "leaderboard submission metadata";
  if ("total_judged" in doc && Array.isArray(doc.entries)) return "LLM-judge summary";
  return `JSON object without simulations (keys: ${keyList(doc)})`;
}

export function detectVariant(data: unknown): Detection {
  if (Array.isArray(data)) {
    const first = data.find(isRecord);
    if (first === undefined) return { variant: "not-trajectories", reason: "JSON list without objects" };
    if (Array.isArray(first.traj)) return { variant: "tau-bench-v1" };
    if ("messages" in first || ("task_id" in first && "termination_reason" in first))
      return { variant: "bare-simulations" };
    return {
      variant: "not-trajectories",
      reason: `JSON list of objects without messages (keys: ${keyList(first)})`,
    };
  }
  if (!isRecord(data))
    return { variant: "not-trajectories", reason: `JSON ${data === null ? "null" : typeof data}` };
  if (!("simulations" in data) && !("simulation_index" in data)) {
    if (looksLikeSimulation(data)) return { variant: "single-simulation" };
    return { variant: "not-trajectories", reason: describeObject(data) };
  }
  if ("info" in data) return { variant: isRunnerOutput(data) ? "tau2-runner" : "tau2-results" };
  return { variant: "domain-simulations" };
}

/** Loads any `.json` file: a trajectory file, or a classified non-trajectory file. Throws `FormatError`. */
export function loadJsonFile(
  path: string,
  /** The file's content when the caller already read it; pass bytes so invalid UTF-8 is caught. */
  content?: string | Uint8Array,
): LoadedJsonFile {
  const doc = readJsonDocument(path, typedKeysOf, content);
  if (doc.kind === "jsonl") {
    // Simulations when the first line that parses is one (a bad line then is that line's rejection).
    const first = doc.lines.find((l) => "value" in l);
    if (first !== undefined && "value" in first && isRecord(first.value) && looksLikeSimulation(first.value))
      return loadJsonlSimulations(path, doc.lines);
    return {
      path,
      variant: "not-trajectories",
      reason: `JSON Lines (${doc.records} records), not a results file`,
    };
  }
  const { data } = doc;
  const detection = detectVariant(data);
  switch (detection.variant) {
    case "not-trajectories":
      return { path, variant: "not-trajectories", reason: detection.reason };
    case "tau-bench-v1":
      return loadTauBenchV1(path, data as unknown[]);
    case "bare-simulations":
      return loadBareSimulations(path, data as unknown[]);
    case "domain-simulations":
      return loadDomainSimulations(path, data as RawRecord);
    case "single-simulation":
      return loadSingleSimulation(path, data as RawRecord);
    case "tau2-results":
    case "tau2-runner":
      return loadTau2Results(path, data as RawRecord);
  }
}

/** Loads a trajectory file of any known variant; a file without trajectories is a `FormatError`. */
export function loadTrajectoryFile(path: string): TrajectoryFile {
  const loaded = loadJsonFile(path);
  if (loaded.variant === "not-trajectories") {
    throw new FormatError(path, "$", `not a trajectory file: ${loaded.reason}`);
  }
  return loaded;
}
