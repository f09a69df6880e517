/**
 * `review sample` on a hand-built store: the draw is the first N per domain in md5(seed, fingerprint)
 * order (computed here independently), only among simulations both sides pass outside excluded files and
 * tasks; it refuses a run without every such conversation; the walk reads answers line by line, saves
 * each, and does not ask again about a simulation already reviewed.
 */
import { createHash } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readReviewFile } from "../../src/reviews/file.ts";
import { drawSample, walkSample } from "../../src/reviews/sample.ts";
import type { VerdictStore } from "../../src/store/store.ts";
import { type SyntheticSim, syntheticContext, syntheticStore } from "../analysis/synthetic-store.ts";

const fp = (i: number) => createHash("sha256").update(`sim ${i}`).digest("hex");

// s0–s5 airline, both pass; s6 flips; s7 both pass in an excluded file; s8 both pass in an excluded
// task; s9–s11 retail, both pass; s12 retail, both fail.
const sims: SyntheticSim[] = [
  ...[0, 1, 2, 3, 4, 5].map((i) => ({ model: "a", task: `t${i}`, tau3: true, structured: true })),
  { model: "a", task: "t6", tau3: true, structured: false },
  { model: "x", task: "t0", tau3: true, structured: true, excluded: true },
  { model: "a", task: "left-out", tau3: true, structured: true },
  ...[9, 10, 11].map((i) => ({ model: "a", task: `t${i}`, tau3: true, structured: true, domain: "retail" })),
  { model: "a", task: "t12", tau3: false, structured: false, domain: "retail" },
];
const ALL = sims.map((_, i) => i);
const COMPARISON = "tau3-vs-structured";

/** The draw worked out apart from the SQL: each domain's both-pass simulations by md5(seed:fingerprint). */
function expected(seed: number, n: number, indices: readonly number[]): string[] {
  const key = (i: number) =>
    createHash("md5")
      .update(`${seed}:${fp(i)}`)
      .digest("hex");
  return [...indices]
    .sort((a, b) => (key(a) < key(b) ? -1 : 1))
    .slice(0, n)
    .map((i) => `s${i}`);
}
const AIRLINE = [0, 1, 2, 3, 4, 5];
const RETAIL = [9, 10, 11];

let store: VerdictStore;
beforeAll(async () => {
  store = await syntheticStore(sims, { excludeTasks: [{ task: "left-out", reason: "broken task" }] });
  await syntheticContext(store, ALL, fp);
});
afterAll(() => store.close());

describe("drawSample", () => {
  it("draws the first N per domain in md5(seed, fingerprint) order, the same for the same seed", async () => {
    const draw = await drawSample(store, { comparison: COMPARISON, n: 2, seed: 11 });
    expect(draw.simulations.map((s) => s.sim_key)).toEqual([
      ...expected(11, 2, AIRLINE),
      ...expected(11, 2, RETAIL),
    ]);
    expect(draw.simulations.map((s) => [s.domain, s.rank])).toEqual([
      ["airline", 1],
      ["airline", 2],
      ["retail", 1],
      ["retail", 2],
    ]);
    expect(draw.domains).toEqual([
      { domain: "airline", both_pass: 6, drawn: 2 },
      { domain: "retail", both_pass: 3, drawn: 2 },
    ]);
    const again = await drawSample(store, { comparison: COMPARISON, n: 2, seed: 11 });
    expect(again.simulations).toEqual(draw.simulations);
  });

  it("another seed draws in another order; a larger N extends the same draw", async () => {
    const seeds = [1, 2, 3, 4, 5].map((seed) => expected(seed, 6, AIRLINE).join());
    expect(new Set(seeds).size).toBeGreaterThan(1);
    for (const seed of [1, 2, 3]) {
      const draw = await drawSample(store, { comparison: COMPARISON, n: 6, seed, domain: "airline" });
      expect(draw.simulations.map((s) => s.sim_key)).toEqual(expected(seed, 6, AIRLINE));
      const fewer = await drawSample(store, { comparison: COMPARISON, n: 3, seed, domain: "airline" });
      expect(fewer.simulations).toEqual(draw.simulations.slice(0, 3));
    }
  });

  it("draws only simulations both sides pass, outside excluded files and tasks", async () => {
    const draw = await drawSample(store, { comparison: COMPARISON, n: 100, seed: 5 });
    expect(draw.simulations.map((s) => s.sim_key).sort()).toEqual(
      [...AIRLINE, ...RETAIL].map((i) => `s${i}`).sort(),
    );
  });

  it("--domain draws in one domain, and names those with simulations when it has none", async () => {
    const draw = await drawSample(store, { comparison: COMPARISON, n: 5, seed: 5, domain: "retail" });
    expect(draw.simulations.map((s) => s.sim_key)).toEqual(expected(5, 5, RETAIL));
    await expect(
      drawSample(store, { comparison: COMPARISON, n: 5, seed: 5, domain: "telecom" }),
    ).rejects.toThrow(
      /--domain: no simulation of "telecom" that both sides of tau3-vs-structured pass; domains with some: airline, retail/,
    );
    await expect(drawSample(store, { comparison: "nope", n: 5, seed: 5 })).rejects.toThrow(
      /--comparison: no comparison "nope" in the run; its comparisons: tau3-vs-structured/,
    );
  });

  it("refuses a run that stored the conversations only where graders disagree", async () => {
    const partial = await syntheticStore(sims);
    try {
      // No excluded task here: s0–s5, s8 and s9–s11 pass both sides; s0 and s9 have their conversation.
      await syntheticContext(partial, [0, 6, 9], fp);
      await expect(drawSample(partial, { comparison: COMPARISON, n: 2, seed: 1 })).rejects.toThrow(
        /8 of 10 simulations both sides of tau3-vs-structured pass have no stored conversation .*"conversations": "all"/,
      );
    } finally {
      partial.close();
    }
  });
});

describe("walkSample", () => {
  /** Answers given one line at a time, as from a pipe; everything written is kept. */
  const io = (answers: readonly string[]) => {
    const queue = [...answers];
    let out = "";
    return {
      ask: async (prompt: string) => {
        out += prompt;
        return queue.shift() ?? null;
      },
      write: (t: string) => {
        out += t;
      },
      output: () => out,
    };
  };

  it("asks clean, missed or unclear with a reason, saves each answer, and skips what has a review", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "tr-sample-")), "reviews.json");
    const request = { comparison: COMPARISON, n: 2, seed: 11 };
    const order = [...expected(11, 2, AIRLINE), ...expected(11, 2, RETAIL)];
    const first = io([
      "maybe",
      "c",
      "",
      "read all 12 turns: nothing wrong",
      "m",
      "no turn named",
      "#7 refunds to the wrong card",
      "q",
    ]);
    const r = await walkSample({
      store,
      experiment: "synthetic",
      reviewsFile: file,
      io: first,
      request,
      reviewer: "ann",
      date: "2026-12-04",
    });
    expect(r).toEqual({ drawn: 4, alreadyReviewed: 0, reviewed: 2, skipped: 0, remaining: 2 });
    const out = first.output();
    expect(out).toContain("━━ 1 of 4 ━━ airline");
    expect(out).toContain(`simulation: ${order[0]}`);
    expect(out).toContain(
      "tau3 and structured both passed; seed 11, draw 1 of 6 both-pass simulations in airline",
    );
    expect(out).toContain("not an answer");
    expect(out).toContain("a review needs a reason");
    expect(out).toContain("a missed violation needs the turns it happened at");
    const saved = readReviewFile(file).sampled ?? [];
    expect(saved.map((e) => [e.simulation_id, e.verdict, e.reason])).toEqual([
      [order[0], "clean", "read all 12 turns: nothing wrong"],
      [order[1], "missed", "#7 refunds to the wrong card"],
    ]);
    expect(saved[0]).toMatchObject({
      fingerprint: fp(Number(order[0]?.slice(1))),
      comparison: COMPARISON,
      seed: 11,
      reviewer: "ann",
      date: "2026-12-04",
    });
    // The store holds them too, for the views.
    const stored = await store.query<{ n: number }>(
      "SELECT count(*)::INTEGER AS n FROM sample_reviews WHERE experiment = 'synthetic'",
    );
    expect(stored).toEqual([{ n: 2 }]);

    // Again with the same seed: the reviewed two are not asked; the end of the input ends the walk.
    const second = io(["u", "cannot tell whether #3 was confirmed"]);
    const again = await walkSample({
      store,
      experiment: "synthetic",
      reviewsFile: file,
      io: second,
      request,
    });
    expect(again).toEqual({ drawn: 4, alreadyReviewed: 2, reviewed: 1, skipped: 0, remaining: 1 });
    expect(second.output()).toContain(`━━ 1 of 2 ━━ retail`);
    expect(second.output()).toContain(`simulation: ${order[2]}`);
    expect((readReviewFile(file).sampled ?? []).map((e) => e.verdict).sort()).toEqual([
      "clean",
      "missed",
      "unclear",
    ]);
  });
});
