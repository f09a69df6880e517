/**
 * Leaderboard submissions beside trajectory files: `run` stores each submission's labels, published
 * pass^1 and files; the views set the published number beside the reproduced one under each side of the
 * headline comparison, flag what does not reproduce with what the tool can see, rank a file its
 * submission covers alone under the submission's model name, and list metadata-only submissions.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rows } from "../../src/analysis/rows.ts";
import { installAnalyses } from "../../src/analysis/run.ts";
import { VerdictStore } from "../../src/store/store.ts";
import { cliInProcess } from "../helpers/cli-in-process.ts";
import { CORPUS_DIR, DATA_DIR } from "../helpers/data.ts";
import { writeExperiment } from "../helpers/small-run.ts";

// 50 airline simulations of the head task set; τ³ passes 28 of them (the file records 0.56).
const WHISSLE = join(CORPUS_DIR, "sierra-tau2-bench__pr448-whissle/airline_run1.json");

const submission = (over: Record<string, unknown>) =>
  JSON.stringify({
    model_name: "Whissle Agent",
    submitting_organization: "Example Org",
    submission_date: "2026-01-01",
    submission_type: "custom",
    methodology: {
      tau2_bench_version: "0.2.0",
      verification: { modified_prompts: false, omitted_questions: false },
    },
    ...over,
  });

let store: VerdictStore;
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), "tr-submissions-"));
  const corpus = join(dir, "corpus");
  // Reproduces: 56% published, the file as it is.
  mkdirSync(join(corpus, "honest"), { recursive: true });
  copyFileSync(WHISSLE, join(corpus, "honest/airline.json"));
  writeFileSync(
    join(corpus, "honest/submission.json"),
    submission({
      trajectory_files: { airline: "airline.json", retail: "retail.json" },
      results: { airline: { pass_1: 56.0 }, retail: { pass_1: 70.0 } },
    }),
  );
  // Does not reproduce: 90% published from the same simulations, beside a file without any.
  mkdirSync(join(corpus, "boastful"), { recursive: true });
  // The same simulations in other bytes (a copy would be graded once, as a duplicate).
  writeFileSync(join(corpus, "boastful/run1.json"), `${readFileSync(WHISSLE, "utf8")}\n`);
  writeFileSync(join(corpus, "boastful/run2.json"), "[]");
  writeFileSync(
    join(corpus, "boastful/submission.json"),
    submission({ model_name: "Boastful", results: { airline: { pass_1: 90.0, pass_2: null } } }),
  );
  // Metadata only.
  writeFileSync(
    join(corpus, "only_meta__submission.json"),
    submission({
      model_name: "Meta Only",
      trajectories_available: false,
      results: { telecom: { pass_1: 44.5 } },
    }),
  );
  const experiment = writeExperiment(join(dir, "x.json"), {
    graders: ["tau3", "structured"],
    comparisons: [{ baseline: "tau3", candidate: "structured" }],
  });
  const r = await cliInProcess(["run", experiment, "--data-dir", DATA_DIR]);
  expect(r.status, r.stderr).toBe(0);
  store = await VerdictStore.open(join(dir, "x.duckdb"), { readOnly: true });
  await installAnalyses(store);
}, 300_000);
afterAll(() => store?.close());

describe("submissions in a run", () => {
  it("stores each submission's labels, published numbers (as fractions) and the files it covers", async () => {
    expect(
      await rows(
        store,
        "SELECT submission, model_name, submission_type, tau2_bench_version, modified_prompts FROM submissions ORDER BY 1",
      ),
    ).toEqual([
      {
        submission: "boastful/submission.json",
        model_name: "Boastful",
        submission_type: "custom",
        tau2_bench_version: "0.2.0",
        modified_prompts: false,
      },
      {
        submission: "honest/submission.json",
        model_name: "Whissle Agent",
        submission_type: "custom",
        tau2_bench_version: "0.2.0",
        modified_prompts: false,
      },
      {
        submission: "only_meta__submission.json",
        model_name: "Meta Only",
        submission_type: "custom",
        tau2_bench_version: "0.2.0",
        modified_prompts: false,
      },
    ]);
    expect(
      await rows(store, "SELECT submission, domain, pass_1 FROM submission_results ORDER BY 1, 2"),
    ).toEqual([
      { submission: "boastful/submission.json", domain: "airline", pass_1: 0.9 },
      { submission: "honest/submission.json", domain: "airline", pass_1: 0.56 },
      { submission: "honest/submission.json", domain: "retail", pass_1: 0.7 },
      { submission: "only_meta__submission.json", domain: "telecom", pass_1: 0.445 },
    ]);
    expect(
      await rows(
        store,
        "SELECT submission, path, declared_domain, found FROM submission_files ORDER BY 1, 2",
      ),
    ).toEqual([
      {
        submission: "boastful/submission.json",
        path: "boastful/run1.json",
        declared_domain: null,
        found: true,
      },
      {
        submission: "boastful/submission.json",
        path: "boastful/run2.json",
        declared_domain: null,
        found: true,
      },
      {
        submission: "honest/submission.json",
        path: "honest/airline.json",
        declared_domain: "airline",
        found: true,
      },
      {
        submission: "honest/submission.json",
        path: "honest/retail.json",
        declared_domain: "retail",
        found: false,
      },
    ]);
  });

  it("sets the published pass^1 beside the reproduced one, flags the one that does not reproduce, and lists a published domain without trajectories", async () => {
    const got = await rows<Record<string, unknown>>(
      store,
      `SELECT submission, domain, published_pass_1, baseline, baseline_pass_1, candidate, simulations::INTEGER AS n,
              tasks::INTEGER AS tasks, files::INTEGER AS files, reproduced, reason, infrastructure_errors, verdict
       FROM published_vs_reproduced ORDER BY submission, domain`,
    );
    expect(got).toMatchObject([
      {
        submission: "boastful/submission.json",
        published_pass_1: 0.9,
        baseline: "tau3",
        baseline_pass_1: 0.56,
        n: 50,
        reproduced: false,
        verdict: "no",
      },
      {
        submission: "honest/submission.json",
        domain: "airline",
        published_pass_1: 0.56,
        baseline_pass_1: 0.56,
        candidate: "structured",
        n: 50,
        tasks: 50,
        files: 1,
        reproduced: true,
        reason: null,
        infrastructure_errors: "drop",
        verdict: "yes",
      },
      {
        // Its retail file is declared but not in the corpus.
        submission: "honest/submission.json",
        domain: "retail",
        published_pass_1: 0.7,
        baseline: "tau3",
        baseline_pass_1: null,
        n: 0,
        files: 0,
        reproduced: null,
        reason: null,
        verdict: "no trajectories for this domain",
      },
    ]);
    expect(got[0]?.reason).toContain("the files hold 50 tasks, 50 simulations");
  });

  it("ranks a file its submission covers alone under the submission's model name", async () => {
    const models = await rows<{ path: string; model: string }>(
      store,
      "SELECT DISTINCT path, model FROM sim_verdicts ORDER BY path",
    );
    expect(models).toEqual([
      { path: "boastful/run1.json", model: "Boastful" },
      { path: "honest/airline.json", model: "Whissle Agent" },
    ]);
  });

  it("lists a submission without trajectories with its published numbers", async () => {
    expect(
      await rows(
        store,
        "SELECT submission, model_name, published_pass_1 FROM submissions_without_trajectories",
      ),
    ).toEqual([
      {
        submission: "only_meta__submission.json",
        model_name: "Meta Only",
        published_pass_1: "telecom 44.5%",
      },
    ]);
  });
});
