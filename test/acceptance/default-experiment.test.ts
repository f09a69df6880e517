/**
 * The default experiment over the whole corpus, graded once: its five comparisons and the numbers the
 * reviews in reviews/default.json establish. Every headline number here was read in the conversations.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rows } from "../../src/analysis/rows.ts";
import { installAnalyses } from "../../src/analysis/run.ts";
import { VerdictStore } from "../../src/store/store.ts";
import { cliInProcess } from "../helpers/cli-in-process.ts";
import { DATA_DIR } from "../helpers/data.ts";

let store: VerdictStore;
beforeAll(async () => {
  const db = join(mkdtempSync(join(tmpdir(), "tr-default-")), "default.duckdb");
  const r = await cliInProcess([
    "run",
    resolve("experiments/default.json"),
    "--db",
    db,
    "--data-dir",
    DATA_DIR,
  ]);
  expect(r.status, r.stderr).toBe(0);
  store = await VerdictStore.open(db, { readOnly: true });
  await installAnalyses(store);
}, 300_000);
afterAll(() => store?.close());

const summary = (comparison: string) =>
  rows<Record<string, number | string | null>>(
    store,
    `SELECT * FROM comparison_summary WHERE comparison = '${comparison}' AND domain = 'all'`,
  );

describe("the default experiment", () => {
  it("declares five comparisons, the headline first", async () => {
    expect(await rows(store, "SELECT comparison FROM run_comparisons ORDER BY seq")).toEqual([
      { comparison: "tau3-vs-structured" },
      { comparison: "structured-vs-structured_strict" },
      { comparison: "structured-vs-structured_informed" },
      { comparison: "tau3-vs-tau3_corrected" },
      { comparison: "recorded-vs-tau3" },
    ]);
  });

  it("headline: 33 pass → fail flips outside excluded files, 32 confirmed, rankings unchanged (τ-b 1)", async () => {
    expect(await summary("tau3-vs-structured")).toMatchObject([
      { pass_to_fail: 33, fail_to_pass: 0, confirmed: 32, unclear: 1, false_positive: 0, unreviewed: 0 },
    ]);
    const taus = await rows<{ tau_b: number }>(
      store,
      "SELECT tau_b FROM kendall_tau_b WHERE comparison = 'tau3-vs-structured'",
    );
    expect(taus.length).toBeGreaterThan(0);
    for (const t of taus) expect(t.tau_b).toBe(1);
  });

  it("the strict gate against the default one: 9 telecom flips, each reviewed a false positive", async () => {
    expect(
      await rows(
        store,
        `SELECT domain, direction, grader, review, count(*)::INTEGER AS n FROM flip_reviews
         WHERE comparison = 'structured-vs-structured_strict' AND NOT excluded GROUP BY ALL`,
      ),
    ).toEqual([
      {
        domain: "telecom",
        direction: "pass_to_fail",
        grader: "structured_strict",
        review: "false_positive",
        n: 9,
      },
    ]);
  });

  it("informed writes gating against the structured grader: 22 flips, each reviewed and confirmed", async () => {
    expect(await summary("structured-vs-structured_informed")).toMatchObject([
      { pass_to_fail: 22, fail_to_pass: 0, confirmed: 22, unclear: 0, false_positive: 0, unreviewed: 0 },
    ]);
    // Only the precise informed-write rules gate it; the others stay reported in both graders.
    expect(
      await rows(
        store,
        `SELECT DISTINCT reference FROM causes
         WHERE grader = 'structured_informed' AND kind = 'policy_rule' ORDER BY reference`,
      ),
    ).toEqual([
      { reference: "informed_amount" },
      { reference: "informed_payment" },
      { reference: "misreported_amount" },
    ]);
  });

  it("the recorded rewards against τ³: what tau2 recorded, reproduced", async () => {
    expect(
      await rows(
        store,
        `SELECT sum(simulations)::INTEGER AS simulations, sum(with_baseline_reward)::INTEGER AS recorded,
                sum(same_reward)::INTEGER AS reproduced
         FROM reward_agreement WHERE comparison = 'recorded-vs-tau3'`,
      ),
    ).toEqual([{ simulations: 1118, recorded: 1117, reproduced: 1022 }]);
    // Outside the excluded files every recorded reward is reproduced: no flip either way.
    expect(await summary("recorded-vs-tau3")).toMatchObject([{ pass_to_fail: 0, fail_to_pass: 0 }]);
  });

  it("has a sampled recall audit of at least 20 both-pass simulations in each of airline, retail and telecom", async () => {
    const sampled = await rows<{ domain: string; sampled: number; stale: number }>(
      store,
      `SELECT domain, sampled::INTEGER AS sampled, stale::INTEGER AS stale FROM miss_rates
       WHERE comparison = 'tau3-vs-structured' AND domain IN ('airline', 'retail', 'telecom') ORDER BY domain`,
    );
    expect(sampled.map((r) => r.domain)).toEqual(["airline", "retail", "telecom"]);
    for (const r of sampled) {
      expect(r.sampled, r.domain).toBeGreaterThanOrEqual(20);
      expect(r.stale, r.domain).toBe(0);
    }
  });

  /**
   * The findings of policy rules outside excluded files against their reviews file: the same set, each
   * reviewed; returns the count of each verdict, and checks the rules never gate the structured grader.
   */
  async function reviewedFindings(rules: readonly string[], file: string): Promise<Record<string, number>> {
    const found = await rows<{ simulation_id: string; code: string; message_index: number }>(
      store,
      `SELECT DISTINCT sv.simulation_id, e.code, e.message_index
       FROM evidence e JOIN causes c USING (run_id, sim_key, grader) JOIN sim_verdicts sv USING (sim_key)
       WHERE e.grader = 'structured' AND e.cause_seq = c.seq AND c.kind = 'policy_rule'
         AND c.reference IN (${rules.map((r) => `'${r}'`).join(", ")})
         AND NOT sv.excluded`,
    );
    const reviewed: {
      reviews: { simulation_id: string; code: string; message_index: number; verdict: string }[];
    } = JSON.parse(readFileSync(file, "utf8"));
    const key = (r: { simulation_id: string; code: string; message_index: number }) =>
      `${r.simulation_id} ${r.code} ${r.message_index}`;
    expect(found.map(key).sort()).toEqual(reviewed.reviews.map(key).sort());
    for (const r of rules)
      expect(
        await rows(
          store,
          `SELECT DISTINCT gates FROM causes WHERE reference = '${r}' AND grader = 'structured'`,
        ),
        r,
      ).toEqual([{ gates: false }]);
    const counts: Record<string, number> = {};
    for (const r of reviewed.reviews) counts[r.verdict] = (counts[r.verdict] ?? 0) + 1;
    return counts;
  }

  it("summary_mismatch: every finding outside excluded files is reviewed; 32 of 37 correct, so it stays ungated", async () => {
    expect(await reviewedFindings(["summary_mismatch"], "reviews/summary-mismatch.json")).toEqual({
      correct: 32,
      "false positive": 5,
    });
  });

  it("once_only_without_reminder: every finding outside excluded files is reviewed; 12 correct, 2 unclear, reported only", async () => {
    expect(await reviewedFindings(["once_only_without_reminder"], "reviews/once-only-reminder.json")).toEqual(
      { correct: 12, unclear: 2 },
    );
  });

  it("informed-write rules: every finding outside excluded files is reviewed; all correct, reported in structured", async () => {
    expect(
      await reviewedFindings(
        ["informed_amount", "informed_payment", "informed_record", "informed_consent", "misreported_amount"],
        "reviews/informed-writes.json",
      ),
    ).toEqual({ correct: 105 });
  });

  it("unneeded_transfer: every finding outside excluded files is reviewed; 75 correct, reported only", async () => {
    expect(await reviewedFindings(["unneeded_transfer"], "reviews/unneeded-transfer.json")).toEqual({
      correct: 75,
    });
  });

  it("published against reproduced: a row per submission folder and domain it publishes, a domain whose only file is excluded not judged, and the metadata-only ones", async () => {
    const got = await rows<{
      model_name: string;
      domain: string;
      reproduced: boolean | null;
      verdict: string;
    }>(
      store,
      "SELECT model_name, domain, reproduced, verdict FROM published_vs_reproduced WHERE files > 0 ORDER BY model_name",
    );
    expect(got).toEqual([
      {
        model_name: "AdaptiveAgent + AgentShield + Claude Opus 4.6",
        domain: "airline",
        reproduced: null,
        verdict:
          "not judged (excluded: its own submission reports 70% pass^1 while the file records 49/50; task version unknown)",
      },
      {
        model_name: "AdaptiveAgent + Claude Opus 4.6",
        domain: "airline",
        reproduced: null,
        verdict: "not judged (excluded: best-of-N cascade across several runs, cherry-picked per task)",
      },
      { model_name: "Button (Claude Opus 4.6)", domain: "airline", reproduced: true, verdict: "yes" },
      { model_name: "IronShell-IronForge-v3", domain: "airline", reproduced: false, verdict: "no" },
      {
        model_name: "Nemotron-Orchestrator-8B",
        domain: "retail",
        reproduced: null,
        verdict:
          "not judged (excluded: mislabelled: task ids do not match the conversations (tau2 reproduces 19 of 114 recorded rewards))",
      },
      { model_name: "claude-sonnet-4-5", domain: "airline", reproduced: true, verdict: "yes" },
      { model_name: "gpt-oss-120b", domain: "airline", reproduced: true, verdict: "yes" },
    ]);
    expect(
      await rows(
        store,
        `SELECT model_name, string_agg(domain, ', ' ORDER BY domain) AS domains FROM published_vs_reproduced
         WHERE verdict = 'no trajectories for this domain' GROUP BY ALL ORDER BY model_name`,
      ),
    ).toEqual([
      {
        model_name: "AdaptiveAgent + AgentShield + Claude Opus 4.6",
        domains: "banking_knowledge, retail, telecom",
      },
      { model_name: "AdaptiveAgent + Claude Opus 4.6", domains: "medical_triage, retail, telecom" },
      { model_name: "Button (Claude Opus 4.6)", domains: "retail, telecom" },
      { model_name: "Nemotron-Orchestrator-8B", domains: "airline, telecom" },
      { model_name: "claude-sonnet-4-5", domains: "retail, telecom" },
      { model_name: "gpt-oss-120b", domains: "retail, telecom" },
    ]);
    const bare = await rows<{ n: number }>(
      store,
      "SELECT count(*)::INTEGER AS n FROM submissions_without_trajectories",
    );
    expect(bare).toEqual([{ n: 52 }]);
  });
});
