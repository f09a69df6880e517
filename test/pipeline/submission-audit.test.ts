/**
 * The leaderboard audit judges only what the experiment lets it judge: a submission whose every file for a
 * domain the experiment excludes is not judged (with the exclusion's reason), whatever its numbers; and a
 * published domain without trajectories (or whose every simulation the run drops) is a row that says so,
 * never left out.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rows } from "../../src/analysis/rows.ts";
import { installAnalyses } from "../../src/analysis/run.ts";
import { summarize } from "../../src/analysis/summary.ts";
import { VerdictStore } from "../../src/store/store.ts";
import { cliInProcess } from "../helpers/cli-in-process.ts";
import { CORPUS_DIR, DATA_DIR } from "../helpers/data.ts";
import { writeExperiment } from "../helpers/small-run.ts";

// 50 airline simulations of the head task set; τ³ passes 28 of them (the file records 0.56).
const WHISSLE = join(CORPUS_DIR, "sierra-tau2-bench__pr448-whissle/airline_run1.json");
const CASCADE = "best-of-N cascade across several runs, cherry-picked per task";
const MISLABELLED = "mislabelled: task ids do not match the conversations";

const submission = (model_name: string, results: Record<string, unknown>) =>
  JSON.stringify({
    model_name,
    submitting_organization: "Example Org",
    submission_date: "2026-01-01",
    submission_type: "custom",
    results,
  });

/** A folder holding the Whissle simulations (in bytes of its own, so no file is a duplicate) and a submission. */
function folder(corpus: string, name: string, copy: number, json: string): void {
  mkdirSync(join(corpus, name), { recursive: true });
  if (copy === 0) copyFileSync(WHISSLE, join(corpus, name, "airline.json"));
  else writeFileSync(join(corpus, name, "airline.json"), readFileSync(WHISSLE, "utf8") + "\n".repeat(copy));
  writeFileSync(join(corpus, name, "submission.json"), json);
}

interface AuditRow {
  submission: string;
  domain: string;
  model_name: string;
  published_pass_1: number;
  baseline: string;
  baseline_pass_1: number | null;
  simulations: number;
  files: number;
  reproduced: boolean | null;
  reason: string | null;
  verdict: string;
}

let store: VerdictStore;
let audit: AuditRow[];
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), "tr-submission-audit-"));
  const corpus = join(dir, "corpus");
  // Its number matches its file, but the file is a cherry-picked cascade the experiment excludes.
  folder(corpus, "cascade", 0, submission("Cascade", { airline: { pass_1: 56.0 } }));
  // Its number does not match its file, which the experiment excludes as mislabelled.
  folder(corpus, "mislabelled", 1, submission("Mislabelled", { airline: { pass_1: 90.0 } }));
  // Publishes airline and retail; the corpus holds its airline file only.
  folder(
    corpus,
    "partial",
    2,
    submission("Partial", { airline: { pass_1: 56.0 }, retail: { pass_1: 70.0 } }),
  );
  // Its only file's simulations all end in an infrastructure error, which the run drops.
  const broken = JSON.parse(readFileSync(WHISSLE, "utf8"));
  for (const sim of broken.simulations) sim.termination_reason = "infrastructure_error";
  mkdirSync(join(corpus, "broken"), { recursive: true });
  writeFileSync(join(corpus, "broken/airline.json"), JSON.stringify(broken));
  writeFileSync(join(corpus, "broken/submission.json"), submission("Broken", { airline: { pass_1: 56.0 } }));
  const experiment = writeExperiment(join(dir, "x.json"), {
    graders: ["tau3", "structured"],
    comparisons: [{ baseline: "tau3", candidate: "structured" }],
    exclude_from_rankings: [
      { path_contains: "cascade/", reason: CASCADE },
      { path_contains: "mislabelled/", reason: MISLABELLED },
    ],
  });
  const r = await cliInProcess(["run", experiment, "--data-dir", DATA_DIR]);
  expect(r.status, r.stderr).toBe(0);
  store = await VerdictStore.open(join(dir, "x.duckdb"), { readOnly: true });
  await installAnalyses(store);
  audit = await rows<AuditRow>(store, "SELECT * FROM published_vs_reproduced ORDER BY submission, domain");
}, 300_000);
afterAll(() => store?.close());

const row = (submission: string, domain: string) =>
  audit.find((r) => r.submission === submission && r.domain === domain);

describe("the leaderboard audit", () => {
  it("does not judge a submission whose only file the experiment excludes, though its number matches", () => {
    expect(row("cascade/submission.json", "airline")).toMatchObject({
      published_pass_1: 0.56,
      baseline_pass_1: 0.56,
      simulations: 50,
      reproduced: null,
      reason: null,
      verdict: `not judged (excluded: ${CASCADE})`,
    });
  });

  it("does not judge one whose number does not match either: the exclusion stands both ways", () => {
    expect(row("mislabelled/submission.json", "airline")).toMatchObject({
      published_pass_1: 0.9,
      reproduced: null,
      verdict: `not judged (excluded: ${MISLABELLED})`,
    });
  });

  it("judges a submission with files of its own as before", () => {
    expect(row("partial/submission.json", "airline")).toMatchObject({
      published_pass_1: 0.56,
      baseline_pass_1: 0.56,
      reproduced: true,
      reason: null,
      verdict: "yes",
    });
  });

  it("gives a published domain without trajectory files a row that says so", () => {
    expect(row("partial/submission.json", "retail")).toMatchObject({
      model_name: "Partial",
      published_pass_1: 0.7,
      baseline: "tau3",
      baseline_pass_1: null,
      simulations: 0,
      files: 0,
      reproduced: null,
      reason: null,
      verdict: "no trajectories for this domain",
    });
    expect(audit.map((r) => `${r.submission} ${r.domain}`)).toEqual([
      "broken/submission.json airline",
      "cascade/submission.json airline",
      "mislabelled/submission.json airline",
      "partial/submission.json airline",
      "partial/submission.json retail",
    ]);
  });

  it("gives a domain whose every simulation the run drops a row that says so", () => {
    expect(row("broken/submission.json", "airline")).toMatchObject({
      published_pass_1: 0.56,
      baseline_pass_1: null,
      simulations: 0,
      reproduced: null,
      verdict: "no graded simulations for this domain",
    });
  });

  it("counts neither a not-judged nor a missing domain as reproduced in summary.json", async () => {
    const published = (await summarize(store)).published_vs_reproduced;
    expect(published.map((r) => [r.submission, r.domain, r.reproduced, r.verdict])).toEqual([
      ["broken/submission.json", "airline", null, "no graded simulations for this domain"],
      ["cascade/submission.json", "airline", null, `not judged (excluded: ${CASCADE})`],
      ["mislabelled/submission.json", "airline", null, `not judged (excluded: ${MISLABELLED})`],
      ["partial/submission.json", "airline", true, "yes"],
      ["partial/submission.json", "retail", null, "no trajectories for this domain"],
    ]);
  });
});
