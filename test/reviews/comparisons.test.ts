/**
 * Review targets across comparisons, on a hand-built store: a cause two comparisons show is one target
 * listing both (in the experiment's order, with the side that failed), `comparison` narrows the walk to
 * one comparison's flips, one review serves every comparison, and an unknown comparison is refused.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installAnalyses } from "../../src/analysis/run.ts";
import { readReviewFile } from "../../src/reviews/file.ts";
import { causesOf, reviewList, unreviewedTargets } from "../../src/reviews/queries.ts";
import { ReviewError } from "../../src/reviews/resolve.ts";
import { type ReviewIo, walkReviews } from "../../src/reviews/walk.ts";
import type { VerdictStore } from "../../src/store/store.ts";
import { type SyntheticSim, syntheticContext, syntheticStore } from "../analysis/synthetic-store.ts";

const fp = (i: number) => i.toString(16).padStart(64, "0");
const HEADLINE = "tau3-vs-structured";
const RECORDED = "recorded-vs-structured";

// s0 flips both ways to a structured fail (τ³ and the file both pass it); s1 only against τ³, s2 only
// against the file; s3 flips against the file the other way (the file fails: no causes to review).
const sims: SyntheticSim[] = [
  { model: "a", task: "t0", tau3: true, structured: false, recorded: 1 },
  { model: "a", task: "t1", tau3: true, structured: false, recorded: 0 },
  { model: "a", task: "t2", tau3: false, structured: false, recorded: 1 },
  { model: "a", task: "t3", tau3: true, structured: true, recorded: 0 },
];

let store: VerdictStore;
beforeAll(async () => {
  store = await syntheticStore(sims, {
    comparisons: [
      { baseline: "tau3", candidate: "structured" },
      { baseline: "recorded", candidate: "structured" },
    ],
  });
  await syntheticContext(
    store,
    sims.map((_, i) => i),
    fp,
  );
  // s0's cause fires at a second turn: still one cause to review.
  await store.append("causes", [
    {
      run_id: "r1",
      sim_key: "s0",
      grader: "structured",
      seq: 1,
      kind: "requirement",
      reference: "x",
      gates: true,
      message: "x again",
      message_index: null,
      turn_idx: null,
      tool_call_id: null,
      tool_name: null,
      actor: null,
    },
  ]);
  await installAnalyses(store);
});
afterAll(() => store.close());

const flip = (comparison: string) => ({
  comparison,
  baseline: comparison === HEADLINE ? "tau3" : "recorded",
  candidate: "structured",
  direction: "pass_to_fail",
});

describe("unreviewedTargets", () => {
  it("lists a cause several comparisons show once, with each comparison in the experiment's order", async () => {
    const got = await unreviewedTargets(store, { includeExcluded: false });
    expect(got.map((t) => [t.sim_key, t.grader, t.seq, t.kind, t.reference, t.flips])).toEqual([
      ["s0", "structured", 0, "requirement", "x", [flip(HEADLINE), flip(RECORDED)]],
      ["s1", "structured", 0, "requirement", "x", [flip(HEADLINE)]],
      ["s2", "structured", 0, "requirement", "x", [flip(RECORDED)]],
    ]);
  });

  it("keeps one comparison's causes with `comparison`, still naming every comparison each serves", async () => {
    const got = await unreviewedTargets(store, { includeExcluded: false, comparison: RECORDED });
    expect(got.map((t) => [t.sim_key, t.flips.map((f) => f.comparison)])).toEqual([
      ["s0", [HEADLINE, RECORDED]],
      ["s2", [RECORDED]],
    ]);
  });

  it("marks a flip cause with the comparisons whose flip it explains", async () => {
    const causes = await causesOf(store, "s0");
    expect(causes.map((c) => [c.seq, c.flip_cause, c.comparisons])).toEqual([
      [0, true, [HEADLINE, RECORDED]],
      [1, true, [HEADLINE, RECORDED]],
    ]);
  });
});

/** Answers from a list, in order; the end of the list ends the walk. */
function scripted(answers: readonly string[]): ReviewIo & { readonly text: () => string } {
  const queue = [...answers];
  const out: string[] = [];
  return {
    ask: async (prompt) => {
      out.push(prompt);
      return queue.shift() ?? null;
    },
    write: (t) => out.push(t),
    text: () => out.join(""),
  };
}

describe("walkReviews across comparisons", () => {
  it("refuses an unknown comparison, naming the run's", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "tr-rv-")), "r.json");
    const io = scripted([]);
    const walk = walkReviews({ store, experiment: "synthetic", reviewsFile: file, io, comparison: "nope" });
    await expect(walk).rejects.toThrow(ReviewError);
    await expect(walk).rejects.toThrow(
      `no comparison "nope" in the run; its comparisons: ${HEADLINE}, ${RECORDED}`,
    );
    expect(io.text()).toBe("");
  });

  it("asks once for a cause two comparisons show, and one review serves both", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "tr-rv-")), "r.json");
    const io = scripted(["c", "turn 3: the refused transfer"]);
    const r = await walkReviews({
      store,
      experiment: "synthetic",
      reviewsFile: file,
      io,
      comparison: RECORDED,
    });
    expect(r).toEqual({ reviewed: 1, skipped: 0, remaining: 1 });
    expect(io.text()).toContain("1 of 2");
    expect(io.text()).toContain(
      `flip: ${HEADLINE}: tau3 passed, structured failed\nflip: ${RECORDED}: recorded passed, structured failed\n`,
    );
    expect(readReviewFile(file).reviews).toEqual([
      expect.objectContaining({
        fingerprint: fp(0),
        grader: "structured",
        kind: "requirement",
        reference: "x",
      }),
    ]);
    // Reviewed in the headline too, not only in the comparison walked.
    expect((await unreviewedTargets(store, { includeExcluded: false })).map((t) => t.sim_key)).toEqual([
      "s1",
      "s2",
    ]);
    expect((await reviewList(store)).map((l) => [l.simulation_id, l.verdict, l.comparisons])).toEqual([
      ["s0", "confirmed", [HEADLINE, RECORDED]],
    ]);
    const headline = await walkReviews({
      store,
      experiment: "synthetic",
      reviewsFile: file,
      io: scripted([]),
      comparison: HEADLINE,
    });
    expect(headline).toEqual({ reviewed: 0, skipped: 0, remaining: 1 });
  });
});
