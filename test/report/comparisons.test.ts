/**
 * The report follows the run's comparisons: a section per comparison (the headline first), paired charts
 * per comparison, and a drill-down over every flip of every comparison, a flip only the strict gate
 * makes included, with the failing side's causes and their reviews.
 */
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rows } from "../../src/analysis/rows.ts";
import { installAnalyses } from "../../src/analysis/run.ts";
import { summarize } from "../../src/analysis/summary.ts";
import { simAnchor } from "../../src/report/anchors.ts";
import { loadReportData, type ReportData } from "../../src/report/data.ts";
import type { RowOf } from "../../src/store/schema.ts";
import type { VerdictStore } from "../../src/store/store.ts";
import { syntheticReview, syntheticStore } from "../analysis/synthetic-store.ts";
import { writeHtmlReport } from "../helpers/html-report.ts";

const STRICT = "structured_strict";
const HEADLINE = "tau3-vs-structured";
const GATES = "structured-vs-structured_strict";
const TAU3_STRICT = "tau3-vs-structured_strict";
const FINGERPRINT = "d".repeat(64);

let store: VerdictStore;
let out = "";
let data: ReportData;
let page = "";

/** s0: τ³ and structured pass, the strict gate fails it (a licensed write); s1: structured fails (a requirement). */
beforeAll(async () => {
  store = await syntheticStore(
    [
      { model: "m", task: "0", tau3: true, structured: true },
      { model: "m", task: "1", tau3: true, structured: false },
      { model: "m", task: "2", tau3: true, structured: true },
    ],
    {
      minTaskCoverage: 0.5,
      bootstrapSamples: 20,
      comparisons: [
        { baseline: "tau3", candidate: "structured" },
        { baseline: "structured", candidate: STRICT },
        { baseline: "tau3", candidate: STRICT },
      ],
    },
  );
  const verdict = (sim_key: string, pass: boolean): RowOf<"verdicts"> => ({
    run_id: "r1",
    sim_key,
    grader: STRICT,
    grader_version: "1",
    spec_hash: "h",
    pass,
    reward: pass ? 1 : 0,
    db_match: null,
    notes: "[]",
    judge_failure: null,
  });
  const cause = (sim_key: string, kind: string, reference: string): RowOf<"causes"> => ({
    run_id: "r1",
    sim_key,
    grader: STRICT,
    seq: 0,
    kind,
    reference,
    gates: true,
    message: `${kind} ${reference}`,
    message_index: null,
    turn_idx: null,
    tool_call_id: null,
    tool_name: null,
    actor: null,
  });
  await store.append("verdicts", [verdict("s0", false), verdict("s1", false), verdict("s2", true)]);
  await store.append("causes", [
    cause("s0", "licensed_write", "lines[1].status"),
    cause("s1", "requirement", "x"),
  ]);
  await store.append("sim_context", [
    {
      run_id: "r1",
      sim_key: "s0",
      fingerprint: FINGERPRINT,
      persona: null,
      instructions: "",
      ticket: null,
      criteria: null,
    },
  ]);
  await store.append("reviews", [
    syntheticReview({
      fingerprint: FINGERPRINT,
      grader: STRICT,
      kind: "licensed_write",
      reference: "lines[1].status",
      verdict: "false_positive",
      reason: "the task permits the write",
    }),
  ]);
  await installAnalyses(store);
  data = await loadReportData(
    store,
    { writtenAt: "2026-01-01T00:00:00Z", reviewsSource: null, allConversations: false },
    await summarize(store),
  );
  out = join(mkdtempSync(join(tmpdir(), "tr-comparisons-")), "report");
  await writeHtmlReport(store, out);
  page = readFileSync(join(out, "report.html"), "utf8");
}, 120_000);
afterAll(() => store?.close());

describe("a report over several comparisons", () => {
  it("has a section per comparison, in the experiment's order, the headline first", () => {
    const ids = [...page.matchAll(/<section class="comparison" id="([^"]+)">/g)].map((m) => m[1]);
    expect(ids).toEqual([`cmp-${HEADLINE}`, `cmp-${GATES}`, `cmp-${TAU3_STRICT}`]);
    expect(data.comparisons.map((k) => [k.ref.comparison, k.headline])).toEqual([
      [HEADLINE, true],
      [GATES, false],
      [TAU3_STRICT, false],
    ]);
    // Each section's own numbers: one pass → fail flip in the headline, one (the strict-only one) in the next.
    const section = (name: string) => page.slice(page.indexOf(`id="cmp-${name}"`)).split("</section>")[0]!;
    expect(section(HEADLINE)).toContain("<b>1</b>flips pass → fail");
    expect(section(GATES)).toContain("<b>1</b>flips pass → fail");
    expect(section(TAU3_STRICT)).toContain("<b>2</b>flips pass → fail");
    expect(section(GATES)).toContain("<b>0</b>flips confirmed");
    expect(section(GATES)).toContain("<b>1</b>false positive");
  });

  it("draws the paired charts per comparison, each in its comparison's section", () => {
    const charts = readdirSync(join(out, "charts"));
    for (const k of [HEADLINE, GATES, TAU3_STRICT])
      for (const ext of ["vl.json", "svg", "png"])
        expect(charts).toContain(`flip_rates_by_model--${k}.${ext}`);
    const gates = page.slice(page.indexOf(`id="cmp-${GATES}"`), page.indexOf(`id="cmp-${TAU3_STRICT}"`));
    expect(gates).toContain(`<figure id="chart-flips_by_cause--${GATES}">`);
    expect(gates).not.toContain(`<figure id="chart-flips_by_cause--${HEADLINE}">`);
  });

  it("drills down into a flip only the strict gate makes, with the strict gate's cause and its review", async () => {
    const flips = await rows<{ comparison: string; sim_key: string }>(
      store,
      "SELECT comparison, sim_key FROM flips ORDER BY comparison_seq, sim_key",
    );
    expect(flips).toEqual([
      { comparison: HEADLINE, sim_key: "s1" },
      { comparison: GATES, sim_key: "s0" },
      { comparison: TAU3_STRICT, sim_key: "s0" },
      { comparison: TAU3_STRICT, sim_key: "s1" },
    ]);
    // One drill-down row per row of the flips view.
    expect(data.drilldown.map((d) => [d.flip.comparison, d.flip.sim_key])).toEqual(
      flips.map((f) => [f.comparison, f.sim_key]),
    );
    const strictOnly = data.drilldown.find((d) => d.flip.comparison === GATES)!;
    expect(strictOnly.flip).toMatchObject({
      failing_grader: STRICT,
      direction: "pass_to_fail",
      review: "false_positive",
    });
    expect(strictOnly.causes.map((c) => [c.grader, c.kind, c.reference, c.review?.verdict])).toEqual([
      [STRICT, "licensed_write", "lines[1].status", "false_positive"],
    ]);
    expect(page.match(/<tr class="flip">/g)?.length).toBe(flips.length);
    const row = page
      .split('<tr class="flip">')
      .slice(1)
      .find((r) => r.includes(`#cmp-${GATES}`))!;
    expect(row).toContain("licensed write: lines[1].status");
    expect(row).toContain('<span class="rv rv-false_positive">false positive</span>');
    // Its evidence, with the review's reason, is in its conversation (held once on the page).
    expect(row).toContain(`href="#${simAnchor("s0")}"`);
    const conversation = page
      .split(`<section class="conv" id="${simAnchor("s0")}">`)[1]
      ?.split("</section>")[0];
    expect(conversation).toContain("licensed write</span> <code>lines[1].status</code>");
    expect(conversation).toContain("the task permits the write");
  });

  it("shows a simulation flipped in two comparisons once, with both flips", () => {
    const s0 = data.conversations.filter((v) => v.sim.sim_key === "s0");
    expect(s0).toHaveLength(1);
    expect(s0[0]!.flips.map((f) => [f.comparison, f.failing_grader, f.review])).toEqual([
      [GATES, STRICT, "false_positive"],
      [TAU3_STRICT, STRICT, "false_positive"],
    ]);
    expect(s0[0]!.verdicts).toEqual([
      { grader: "tau3", pass: true },
      { grader: "structured", pass: true },
      { grader: STRICT, pass: false },
    ]);
    expect(page).toContain(`flip in <a href="#cmp-${GATES}">${GATES}</a>`);
    expect(page).toContain(`flip in <a href="#cmp-${TAU3_STRICT}">${TAU3_STRICT}</a>`);
  });
});
