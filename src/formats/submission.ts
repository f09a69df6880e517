/**
 * tau2 leaderboard submissions: `submission.json` (or `<name>__submission.json`, as the leaderboard keeps
 * metadata-only ones) with the model, organisations, date, methodology, the trajectory file of each
 * domain and the published pass^k per domain. Read leniently (unknown keys pass), checked where the
 * tool relies on a value.
 */
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { safeNameSchema } from "../util/safe-name.ts";
import { z } from "../util/zod.ts";
import { describeZodError } from "./zod-issues.ts";

/** Whether a file name is a submission's metadata. */
export const isSubmissionFileName = (path: string): boolean => {
  const name = basename(path);
  return name === "submission.json" || name.endsWith("__submission.json");
};

const score = z.number().nullable().optional();

export const submissionSchema = z.looseObject({
  model_name: z.string().min(1),
  model_organization: z.string().nullish(),
  submitting_organization: z.string().nullish(),
  submission_date: z.string().nullish(),
  submission_type: z.string().nullish(),
  trajectories_available: z.boolean().nullish(),
  /** Domain → trajectory file name, relative to the submission's folder. */
  trajectory_files: z.record(z.string(), safeNameSchema).nullish(),
  /** Domain → published pass^k, in percent. */
  results: z.record(
    z.string(),
    z.looseObject({ pass_1: score, pass_2: score, pass_3: score, pass_4: score }).nullable(),
  ),
  methodology: z
    .looseObject({
      evaluation_date: z.string().nullish(),
      tau2_bench_version: z.string().nullish(),
      user_simulator: z.string().nullish(),
      notes: z.string().nullish(),
      verification: z
        .looseObject({
          modified_prompts: z.boolean().nullish(),
          omitted_questions: z.boolean().nullish(),
          details: z.string().nullish(),
        })
        .nullish(),
    })
    .nullish(),
});
export type Submission = z.infer<typeof submissionSchema>;

export type SubmissionRead =
  | { readonly ok: true; readonly submission: Submission }
  | { readonly ok: false; readonly error: string };

export function readSubmission(path: string): SubmissionRead {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    return { ok: false, error: `invalid JSON: ${(e as Error).message}` };
  }
  const parsed = submissionSchema.safeParse(raw);
  return parsed.success
    ? { ok: true, submission: parsed.data }
    : { ok: false, error: describeZodError(parsed.error) };
}
