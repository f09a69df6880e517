/**
 * Leaderboard submissions among a run's input files, as store rows: the submission's labels, its published
 * pass^k per domain, and the trajectory files it covers. A submission covers the files its
 * `trajectory_files` names (relative to its folder), or else every other file in its folder; a named file
 * the corpus lacks is recorded as not found. Which published number a file reproduces is the views' work.
 */
import { basename, dirname, join } from "node:path";
import { isSubmissionFileName, readSubmission, type Submission } from "../formats/submission.ts";
import type { RowOf } from "../store/schema.ts";
import type { FileJob } from "./process-file.ts";

export interface SubmissionRows {
  readonly submissions: RowOf<"submissions">[];
  readonly results: RowOf<"submission_results">[];
  readonly files: RowOf<"submission_files">[];
}

/** Published numbers are percentages; a file that writes fractions (every value ≤ 1) is read as such. */
function fractions(s: Submission): (v: number | null | undefined) => number | null {
  const values = Object.values(s.results).flatMap((r) =>
    r === null
      ? []
      : [r.pass_1, r.pass_2, r.pass_3, r.pass_4].filter((v): v is number => typeof v === "number"),
  );
  const percent = values.some((v) => v > 1);
  // Rounded to 1e-9, so 84.2 reads 0.842 and not 0.8420000000000001.
  return (v) => (typeof v !== "number" ? null : Math.round((percent ? v / 100 : v) * 1e9) / 1e9);
}

const NO_LABELS = {
  model_name: null,
  model_organization: null,
  submitting_organization: null,
  submission_date: null,
  submission_type: null,
  trajectories_available: null,
  evaluation_date: null,
  tau2_bench_version: null,
  user_simulator: null,
  modified_prompts: null,
  omitted_questions: null,
};

export function submissionRows(runId: string, jobs: readonly FileJob[]): SubmissionRows {
  const out: SubmissionRows = { submissions: [], results: [], files: [] };
  const byPath = new Set(jobs.map((j) => j.path));
  const inFolder = (folder: string) =>
    jobs.filter(
      (j) => dirname(j.path) === folder && !isSubmissionFileName(j.path) && j.refused === undefined,
    );
  for (const job of jobs) {
    if (!isSubmissionFileName(job.path) || job.refused !== undefined) continue;
    const folder = dirname(job.path);
    const read = readSubmission(job.full);
    if (!read.ok) {
      out.submissions.push({ run_id: runId, submission: job.path, folder, ...NO_LABELS, error: read.error });
      continue;
    }
    const s = read.submission;
    const m = s.methodology;
    out.submissions.push({
      run_id: runId,
      submission: job.path,
      folder,
      model_name: s.model_name,
      model_organization: s.model_organization ?? null,
      submitting_organization: s.submitting_organization ?? null,
      submission_date: s.submission_date ?? null,
      submission_type: s.submission_type ?? null,
      trajectories_available: s.trajectories_available ?? null,
      evaluation_date: m?.evaluation_date ?? null,
      tau2_bench_version: m?.tau2_bench_version ?? null,
      user_simulator: m?.user_simulator ?? null,
      modified_prompts: m?.verification?.modified_prompts ?? null,
      omitted_questions: m?.verification?.omitted_questions ?? null,
      error: null,
    });
    const frac = fractions(s);
    for (const [domain, r] of Object.entries(s.results)) {
      if (r === null) continue;
      out.results.push({
        run_id: runId,
        submission: job.path,
        domain,
        pass_1: frac(r.pass_1),
        pass_2: frac(r.pass_2),
        pass_3: frac(r.pass_3),
        pass_4: frac(r.pass_4),
      });
    }
    // A metadata-only file kept beside others (`<name>__submission.json`) covers no folder.
    const declared = s.trajectory_files ?? null;
    if (declared !== null) {
      for (const [domain, name] of Object.entries(declared)) {
        const path = folder === "." ? name : join(folder, name);
        out.files.push({
          run_id: runId,
          submission: job.path,
          path,
          declared_domain: domain,
          found: byPath.has(path),
        });
      }
    } else if (basename(job.path) === "submission.json") {
      for (const j of inFolder(folder))
        out.files.push({
          run_id: runId,
          submission: job.path,
          path: j.path,
          declared_domain: null,
          found: true,
        });
    }
  }
  return out;
}
