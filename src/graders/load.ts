/**
 * A grading spec made ready to grade with: the judge it names, its quirks, and each selected grader's
 * loaded configuration (fixtures, overlays), kept per process so a grading thread reads them once.
 */
import { type Quirks, resolveQuirks } from "../domains/quirks.ts";
import { stableJson } from "../formats/stable-json.ts";
import { RescoreError } from "../util/errors.ts";
import { CorrectionsError } from "./corrections/folder.ts";
import { thrownText } from "./module-checks.ts";
import {
  GRADER_IDS,
  type GraderId,
  graderModuleLabel,
  graderOf,
  isBuiltInGraderId,
  isGraderId,
  type LoadedGraders,
} from "./registry.ts";
import { type GradingSpec, GradingSpecError, type JudgeSpec, selectedGraders, specHashes } from "./spec.ts";
import { HandoffOverridesError } from "./structured/handoff.ts";
import type { JudgmentCache } from "./tau3/judge/cache.ts";
import { type NlJudge, noJudge, recordedJudge } from "./tau3/nl.ts";

/** Never hashed, stored or printed. */
export interface GradingSecrets {
  readonly judgeApiKey: string | null;
}

/** How a live judge runs, not what it decides: never hashed into the run id. */
export interface JudgeRuntime {
  readonly concurrency?: number;
  readonly timeoutMs?: number;
  readonly retries?: number;
  /** Replies already known (a run's store, `--judge-cache`); new ones are added to it. */
  readonly cache?: JudgmentCache;
  readonly log?: (line: string) => void;
}

/** A spec made ready to grade with: its judge, quirks and every selected grader's loaded configuration. */
export interface LoadedGrading {
  readonly spec: GradingSpec;
  readonly hashes: Readonly<Partial<Record<GraderId, string>>>;
  readonly judge: NlJudge;
  readonly quirks: Quirks;
  readonly fallbackTaskVersion: string;
  readonly domainAs: Readonly<Record<string, string>>;
  readonly graders: LoadedGraders;
}

/** The run's judge; the HTTP client is imported only when a live judge is asked for. */
export async function judgeFor(
  spec: JudgeSpec,
  secrets: GradingSecrets,
  runtime: JudgeRuntime = {},
): Promise<NlJudge> {
  if (spec.mode === "recorded") return recordedJudge;
  if (spec.mode === "none") return noJudge;
  const { httpJudge } = await import("./tau3/judge/http-judge.ts");
  return httpJudge({
    baseUrl: spec.base_url,
    model: spec.model,
    apiKey: secrets.judgeApiKey,
    temperature: spec.temperature,
    all: spec.all,
    params: spec.params,
    ...(runtime.concurrency === undefined ? {} : { concurrency: runtime.concurrency }),
    policy: {
      ...(runtime.timeoutMs === undefined ? {} : { timeoutMs: runtime.timeoutMs }),
      ...(runtime.retries === undefined ? {} : { retries: runtime.retries }),
    },
    ...(runtime.cache === undefined ? {} : { cache: runtime.cache }),
    ...(runtime.log === undefined ? {} : { log: runtime.log }),
  });
}

/**
 * Options loaded per grader config, kept for the process. A config names its files by content hash,
 * so an equal config loads equal options; a grading thread lives across runs and would otherwise
 * re-read and re-verify every fixture and clause on each run (tens of ms per thread per run).
 */
const loadedOptions = new Map<string, unknown>();
const LOADED_OPTIONS_KEPT = 8;

async function loadOptions(id: GraderId, config: unknown): Promise<unknown> {
  const key = `${id}\u0000${stableJson(config)}`;
  if (loadedOptions.has(key)) return loadedOptions.get(key);
  const options = await graderOf(id).load(config);
  if (loadedOptions.size >= LOADED_OPTIONS_KEPT)
    loadedOptions.delete(loadedOptions.keys().next().value as string);
  loadedOptions.set(key, options);
  return options;
}

/** Loads what the spec points at; a broken overlay or override file is a `GradingSpecError`. */
export async function loadGrading(
  spec: GradingSpec,
  secrets: GradingSecrets,
  runtime: JudgeRuntime = {},
): Promise<LoadedGrading> {
  // A spec crosses into grading threads unparsed: a grader it names that is not registered there
  // (its module not imported) must not be left out silently.
  for (const id of Object.keys(spec.graders))
    if (!isGraderId(id)) throw new GradingSpecError(`unknown grader ${id} (${GRADER_IDS.join(", ")})`);
  const graders: Record<string, unknown> = {};
  for (const id of selectedGraders(spec)) {
    try {
      // A grader runs when it has a loaded configuration: `undefined` would read as "not selected".
      graders[id] = (await loadOptions(id, spec.graders[id])) ?? null;
    } catch (e) {
      // Whatever a module's load throws is about its configuration or what that points at.
      if (!isBuiltInGraderId(id))
        throw new GradingSpecError(`${graderModuleLabel(id)}: load failed: ${thrownText(e)}`);
      const expected =
        e instanceof CorrectionsError ||
        e instanceof HandoffOverridesError ||
        // a file system error (this tool's own errors carry a code too)
        (!(e instanceof RescoreError) && (e as NodeJS.ErrnoException).code !== undefined);
      if (expected) throw new GradingSpecError(`grader ${id}: ${(e as Error).message}`);
      throw e;
    }
  }
  return {
    spec,
    hashes: specHashes(spec),
    judge: await judgeFor(spec.judge, secrets, runtime),
    quirks: resolveQuirks(spec.quirks.preset, spec.quirks.overrides),
    fallbackTaskVersion: spec.fallback_task_version,
    domainAs: spec.domain_as ?? {},
    graders: graders as LoadedGraders,
  };
}
