/**
 * tau2 results files `{timestamp, info, tasks, simulations}`, including τ³/1.0 runner output (voice
 * fields on messages, extra simulation fields, `simulation_index`), which is labelled `tau2-runner`.
 */
import { FormatError } from "../errors.ts";
import type { FormatVariant, TrajectoryFile } from "../model.ts";
import { inferDomain, parseRunInfo } from "../run-info.ts";
import { validateSimulations } from "../simulation.ts";
import { parseTaskList, unknownTaskFields } from "../tasks.ts";
import { domainHints, isRecord, type RawRecord } from "./raw.ts";

/** Keys only the τ³/1.0 runner writes; none affects grading. */
const RUNNER_TOP_LEVEL_KEYS = ["simulation_index", "format_version"];
const RUNNER_INFO_KEYS = [
  "text_streaming_config",
  "speech_complexity",
  "audio_native_config",
  "retrieval_config",
];
export const RUNNER_SIMULATION_KEYS = [
  "ticks",
  "mode",
  "speech_environment",
  "review",
  "user_only_review",
  "auth_classification",
  "hallucination_retries_used",
  "hallucination_check",
  "provider_session_id",
  "effect_timeline",
];

export function isRunnerOutput(doc: RawRecord): boolean {
  if (RUNNER_TOP_LEVEL_KEYS.some((k) => k in doc)) return true;
  if (isRecord(doc.info) && RUNNER_INFO_KEYS.some((k) => k in (doc.info as RawRecord))) return true;
  const first = Array.isArray(doc.simulations) ? doc.simulations.find(isRecord) : undefined;
  return first !== undefined && RUNNER_SIMULATION_KEYS.some((k) => k in first);
}

export function loadTau2Results(file: string, doc: RawRecord): TrajectoryFile {
  const variant: FormatVariant = isRunnerOutput(doc) ? "tau2-runner" : "tau2-results";
  if (doc.simulations === undefined && Array.isArray(doc.simulation_index)) {
    // The 2026 directory layout keeps each simulation in `simulations/<id>.json` next to this file.
    throw new FormatError(
      file,
      "simulations",
      "directory-layout results (simulation_index only) are not supported",
    );
  }
  const rawSims = doc.simulations ?? [];
  if (!Array.isArray(rawSims)) throw new FormatError(file, "simulations", "expected a list of simulations");
  const tasks =
    doc.tasks === undefined || doc.tasks === null ? null : parseTaskList(file, doc.tasks, "tasks");
  const { simulations, rejected } = validateSimulations(rawSims, "simulations");
  let info = parseRunInfo(file, doc.info);
  if (info.domain === null) {
    const { policies, tools } = domainHints(rawSims);
    info = { ...info, domain: inferDomain(policies, tools, file) };
  }
  const unknown = tasks === null ? [] : unknownTaskFields(doc.tasks, "tasks");
  return {
    path: file,
    variant,
    info,
    tasks,
    simulations,
    rejected,
    ...(unknown.length === 0 ? {} : { unknownTaskFields: unknown }),
  };
}
