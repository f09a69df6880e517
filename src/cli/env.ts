/**
 * The environment variables the command line reads. The library never reads `process.env`: the
 * commands pass what is found here as options.
 */
import type { GradingSecrets } from "../graders/spec.ts";
import type { JudgeDefaults } from "../pipeline/settings.ts";

type Env = Readonly<Record<string, string | undefined>>;

const nonEmpty = (v: string | undefined): string | undefined => (v === undefined || v === "" ? undefined : v);

const positiveInt = (v: string | undefined): number | undefined => {
  const n = Number(v);
  return v !== undefined && Number.isInteger(n) && n > 0 ? n : undefined;
};

/** Judge endpoint and model defaults: `TAU_RESCORE_JUDGE_*`, then the OpenAI client's own variables. */
export const judgeDefaults = (env: Env = process.env): JudgeDefaults => {
  const base_url = nonEmpty(env.TAU_RESCORE_JUDGE_BASE_URL) ?? nonEmpty(env.OPENAI_BASE_URL);
  const model = nonEmpty(env.TAU_RESCORE_JUDGE_MODEL);
  return { ...(base_url === undefined ? {} : { base_url }), ...(model === undefined ? {} : { model }) };
};

export const judgeSecrets = (env: Env = process.env, flag?: string): GradingSecrets => ({
  judgeApiKey: flag ?? nonEmpty(env.TAU_RESCORE_JUDGE_API_KEY) ?? nonEmpty(env.OPENAI_API_KEY) ?? null,
});

/** How `run` grades: thread count, files per commit, progress interval, thread timing. */
export const runTuning = (env: Env = process.env) => {
  const progress = Number(env.TAU_RESCORE_PROGRESS_MS);
  const workers = positiveInt(env.TAU_RESCORE_WORKERS);
  const commitFiles = positiveInt(env.TAU_RESCORE_COMMIT_FILES);
  return {
    ...(workers === undefined ? {} : { workers }),
    ...(commitFiles === undefined ? {} : { commitFiles }),
    debugWorkers: nonEmpty(env.TAU_RESCORE_DEBUG_WORKERS) !== undefined,
    progressMs:
      env.TAU_RESCORE_PROGRESS_MS !== undefined && Number.isFinite(progress) && progress >= 0
        ? progress
        : 2000,
  };
};

/** The name `tau-rescore review` records with each review unless `--reviewer` gives one. */
export const reviewerDefault = (env: Env = process.env): string | undefined =>
  nonEmpty(env.TAU_RESCORE_REVIEWER);
