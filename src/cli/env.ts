/**
 * The environment variables the command line reads. The library never reads the environment: the
 * commands pass what is found here as options.
 */
import type { GradingSecrets } from "../graders/load.ts";
import type { JudgeDefaults } from "../pipeline/settings.ts";
import { LIMITS, type NumberRange } from "../util/limits.ts";
import { numberArg } from "./args.ts";
import type { Env } from "./io.ts";

const nonEmpty = (v: string | undefined): string | undefined => (v === undefined || v === "" ? undefined : v);

/** A numeric variable in its documented range, or undefined when unset or empty; any other value is a usage error. */
const tunable = (env: Env, name: string, range: NumberRange): number | undefined => {
  const v = nonEmpty(env[name]);
  return v === undefined ? undefined : numberArg(name, v, range);
};

/** Judge endpoint and model defaults: `TAU_RESCORE_JUDGE_*`, then the OpenAI client's own variables. */
export const judgeDefaults = (env: Env): JudgeDefaults => {
  const base_url = nonEmpty(env.TAU_RESCORE_JUDGE_BASE_URL) ?? nonEmpty(env.OPENAI_BASE_URL);
  const model = nonEmpty(env.TAU_RESCORE_JUDGE_MODEL);
  return { ...(base_url === undefined ? {} : { base_url }), ...(model === undefined ? {} : { model }) };
};

export const judgeSecrets = (env: Env, flag?: string): GradingSecrets => ({
  judgeApiKey: flag ?? nonEmpty(env.TAU_RESCORE_JUDGE_API_KEY) ?? nonEmpty(env.OPENAI_API_KEY) ?? null,
});

/**
 * How `run` grades: thread count, files per commit, progress interval, thread timing, a grader
 * module's time limit per simulation. Read before anything is written, so a value out of range writes
 * nothing.
 */
export const runTuning = (env: Env) => {
  const commitFiles = tunable(env, "TAU_RESCORE_COMMIT_FILES", LIMITS.commitFiles);
  return {
    ...gradeTuning(env),
    ...(commitFiles === undefined ? {} : { commitFiles }),
    debugWorkers: nonEmpty(env.TAU_RESCORE_DEBUG_WORKERS) !== undefined,
    progressMs: tunable(env, "TAU_RESCORE_PROGRESS_MS", LIMITS.progressMs) ?? 2000,
  };
};

/** How `grade` grades grader modules, as `run` does: thread count, a module's time limit per simulation. */
export const gradeTuning = (env: Env): { workers?: number; graderModuleTimeoutSeconds?: number } => {
  const workers = tunable(env, "TAU_RESCORE_WORKERS", LIMITS.workers);
  const graderTimeout = tunable(env, "TAU_RESCORE_GRADER_TIMEOUT", LIMITS.graderModuleTimeout);
  return {
    ...(workers === undefined ? {} : { workers }),
    ...(graderTimeout === undefined ? {} : { graderModuleTimeoutSeconds: graderTimeout }),
  };
};

/** `TAU_RESCORE_DEBUG` (any value but empty or 0) prints the stack of an unexpected error. */
export const debugFromEnv = (env: Env): boolean => {
  const v = nonEmpty(env.TAU_RESCORE_DEBUG);
  return v !== undefined && v !== "0";
};

/** The name `tau-rescore review` records with each review unless `--reviewer` gives one. */
export const reviewerDefault = (env: Env): string | undefined => nonEmpty(env.TAU_RESCORE_REVIEWER);
