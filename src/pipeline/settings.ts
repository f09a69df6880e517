/**
 * A run's plan: the experiment, its grading spec (validated in full), the secrets kept apart from it,
 * and the run id. Everything that can be wrong in a configuration is found here, before the store is
 * opened, so a bad config never leaves a `runs` row behind.
 */
import { resolve } from "node:path";
import { resolveQuirks } from "../domains/quirks.ts";
import type { ExperimentConfig, ResolvedExperiment } from "../experiments/config.ts";
import { importGraderModules } from "../experiments/grader-modules.ts";
import { stableJson } from "../formats/stable-json.ts";
import { type Comparison, comparesRecorded, resolveComparisons } from "../graders/comparisons.ts";
import { type GradingSecrets, type JudgeRuntime, type LoadedGrading, loadGrading } from "../graders/load.ts";
import { GRADER_IDS, isGraderId } from "../graders/registry.ts";
import {
  buildGradingSpec,
  type GradingChoice,
  type GradingSpec,
  GradingSpecError,
  selectedGraders,
} from "../graders/spec.ts";
import { sha256Hex } from "../py/json.ts";
import { TOOL_VERSION } from "../util/package.ts";
import { ContextPool } from "./contexts.ts";
import type { FileDeps } from "./process-file.ts";

export { TOOL_VERSION };

/** Judge settings the command line found outside the config (flags, environment). */
export interface JudgeDefaults {
  readonly base_url?: string;
  readonly model?: string;
}

/** The grading choices an experiment config makes (the config's own judge settings win over defaults). */
export function experimentChoice(exp: ResolvedExperiment, judge: JudgeDefaults = {}): GradingChoice {
  const c = exp.config;
  const base_url = c.judge.base_url ?? judge.base_url;
  const model = c.judge.model ?? judge.model;
  return {
    graders: [...c.graders, ...(c.corrections ? ["tau3_corrected"] : [])],
    quirks: c.quirks,
    judge: {
      mode: c.judge.mode,
      ...(base_url === undefined ? {} : { base_url }),
      ...(model === undefined ? {} : { model }),
      ...(c.judge.temperature === undefined ? {} : { temperature: c.judge.temperature }),
      ...(c.judge.all === undefined ? {} : { all: c.judge.all }),
      ...(c.judge.params === undefined ? {} : { params: c.judge.params }),
    },
    fallbackTaskVersion: c.fallback_task_version,
    ...(c.domain_as === undefined ? {} : { domainAs: c.domain_as }),
    requirementsDir: exp.requirementsDir,
    policiesDir: exp.policiesDir,
    correctionsDir: exp.correctionsDir,
    handoffOverrides: exp.handoffOverrides,
    gate: c.gate,
    graderConfig: c.grader_config,
  };
}

/** An experiment a run can grade: its tau2 data dir is known. */
export type RunnableExperiment = ResolvedExperiment & { readonly dataDir: string };

export interface RunPlan {
  readonly exp: RunnableExperiment;
  readonly grading: LoadedGrading;
  readonly secrets: GradingSecrets;
  /** What the run's report sets side by side; the first is the headline. */
  readonly comparisons: readonly Comparison[];
  readonly runId: string;
}

/**
 * The run id: the experiment config, the tool version, every grader's spec hash, and the data dir and
 * corpus paths actually used (command-line overrides included), so a wrong `--data-dir` is not "done".
 */
export function runIdFor(
  configHash: string,
  grading: LoadedGrading,
  inputs: {
    readonly dataDir: string;
    readonly corpusPaths: readonly string[];
    /** A comparison reads the recorded reward: it decides which conversations are kept. */
    readonly compareRecorded?: boolean;
  },
): string {
  return sha256Hex(
    stableJson({
      config: configHash,
      tool: TOOL_VERSION,
      graders: grading.hashes,
      data: resolve(inputs.dataDir),
      corpus: inputs.corpusPaths.map((p) => resolve(p)),
      ...(inputs.compareRecorded ? { recorded: true } : {}),
    }),
  ).slice(0, 16);
}

/** Validates and loads everything a run needs; throws `GradingSpecError` on a bad configuration. */
export async function planRun(
  exp: ResolvedExperiment,
  judge: JudgeDefaults = {},
  secrets: GradingSecrets = { judgeApiKey: null },
  runtime: JudgeRuntime = {},
): Promise<RunPlan> {
  const { dataDir } = exp;
  if (dataDir === null)
    throw new GradingSpecError(
      "no tau2 data dir: pass --data-dir DIR or set TAU2_DATA_DIR (the experiment names no data_dir)",
    );
  await importGraderModules(exp.graderModules);
  exp.config.graders.forEach((g, i) => {
    if (!isGraderId(g))
      throw new GradingSpecError(`at graders[${i}]: unknown grader ${g} (${GRADER_IDS.join(", ")})`);
  });
  const grading = await loadGrading(buildGradingSpec(experimentChoice(exp, judge)), secrets, runtime);
  const { comparisons, problems } = resolveComparisons(exp.config.comparisons, selectedGraders(grading.spec));
  const first = problems[0];
  if (first !== undefined)
    throw new GradingSpecError(`at comparisons[${first.index}].${first.field}: ${first.message}`);
  const runnable = { ...exp, dataDir };
  const runId = runIdFor(exp.configHash, grading, {
    ...runnable,
    compareRecorded: comparesRecorded(comparisons),
  });
  return { exp: runnable, grading, secrets, comparisons, runId };
}

/** What a grading thread needs to rebuild a run's file dependencies (plain data, clonable). */
export interface WorkerInit {
  readonly spec: GradingSpec;
  readonly secrets: GradingSecrets;
  /** Modules the spec's registered graders come from, imported before the spec is loaded. */
  readonly graderModules: readonly string[];
  readonly dataDir: string;
  readonly runId: string;
  readonly exclusions: ExperimentConfig["exclude_from_rankings"];
  readonly conversations: ExperimentConfig["conversations"];
  /** A comparison reads the recorded reward (its disagreements keep their conversations too). */
  readonly compareRecorded: boolean;
  readonly committed: readonly string[];
}

export const workerInit = (plan: RunPlan, committed: Iterable<string>): WorkerInit => ({
  spec: plan.grading.spec,
  secrets: plan.secrets,
  graderModules: plan.exp.graderModules,
  dataDir: plan.exp.dataDir,
  runId: plan.runId,
  exclusions: plan.exp.config.exclude_from_rankings,
  conversations: plan.exp.config.conversations,
  compareRecorded: comparesRecorded(plan.comparisons),
  committed: [...committed],
});

/** What grading one file needs, for a run: built once per run in the main thread or in each thread. */
export async function fileDepsFor(init: WorkerInit, loaded?: LoadedGrading): Promise<FileDeps> {
  await importGraderModules(init.graderModules);
  const grading = loaded ?? (await loadGrading(init.spec, init.secrets));
  return {
    runId: init.runId,
    dataDir: init.dataDir,
    pool: new ContextPool(init.dataDir, resolveQuirks(init.spec.quirks.preset, init.spec.quirks.overrides)),
    settings: {
      judge: grading.judge,
      fallbackTaskVersion: grading.fallbackTaskVersion,
      graders: grading.graders,
      domainAs: grading.domainAs,
    },
    hashes: grading.hashes,
    exclusions: init.exclusions,
    conversations: init.conversations,
    compareRecorded: init.compareRecorded,
    committed: new Set(init.committed),
  };
}
