/** The reviews file: validated with the file and JSON path in every error, written sorted and whole. */
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  emptyReviewFile,
  formatReviewFile,
  type ReviewEntry,
  ReviewFileError,
  readReviewFile,
  type SampledReview,
  upsertReview,
  upsertSampled,
  writeReviewFile,
} from "../../src/reviews/file.ts";

const entry = (over: Partial<ReviewEntry> = {}): ReviewEntry => ({
  fingerprint: "a".repeat(64),
  simulation_id: "sim-1",
  path: "dir/file.json",
  grader: "structured",
  kind: "requirement",
  reference: "airline.47.no_transfer",
  verdict: "confirmed",
  reason: "turn 13 transfers after the user refused",
  ...over,
});

const dir = () => mkdtempSync(join(tmpdir(), "tr-reviews-"));

function errorOf(content: string): string {
  const path = join(dir(), "reviews.json");
  writeFileSync(path, content);
  try {
    readReviewFile(path);
  } catch (e) {
    expect(e).toBeInstanceOf(ReviewFileError);
    const message = (e as Error).message;
    expect(message.startsWith(`${path}: `)).toBe(true);
    expect(message).not.toContain("\n");
    return message.slice(path.length + 2);
  }
  throw new Error("the file was accepted");
}

describe("readReviewFile", () => {
  it("reads a missing file as no reviews", () => {
    expect(readReviewFile(join(dir(), "absent.json"))).toEqual(emptyReviewFile());
  });

  it("names the JSON path of the first problem in one line", () => {
    const file = (e: unknown) => JSON.stringify({ version: 1, reviews: [entry(), e] });
    expect(errorOf(file({ ...entry(), verdict: "maybe" }))).toMatch(/^at reviews\[1\]\.verdict: /);
    expect(errorOf(file({ ...entry(), reason: "   " }))).toMatch(
      /^at reviews\[1\]\.reason: every review needs a reason/,
    );
    expect(errorOf(file({ ...entry(), fingerprint: "abc" }))).toMatch(/^at reviews\[1\]\.fingerprint: /);
    expect(errorOf(file({ ...entry(), kind: "vibes" }))).toMatch(/^at reviews\[1\]\.kind: /);
    expect(errorOf(file({ ...entry(), grader: "nobody" }))).toMatch(/^at reviews\[1\]\.grader: /);
    expect(errorOf(file({ ...entry(), date: "yesterday" }))).toMatch(/^at reviews\[1\]\.date: /);
    expect(errorOf(file({ ...entry(), extra: 1 }))).toMatch(/^at reviews\[1\]: /);
    expect(errorOf(JSON.stringify({ version: 2, reviews: [] }))).toMatch(/^at version: /);
    expect(errorOf("{ not json")).not.toBe("");
  });

  it("refuses two reviews of the same simulation and cause", () => {
    const twice = JSON.stringify({ version: 1, reviews: [entry(), entry({ verdict: "unclear" })] });
    expect(errorOf(twice)).toMatch(/^at reviews\[1\]: the same simulation and cause as reviews\[0\]/);
  });
});

describe("writing", () => {
  it("writes entries sorted by path, simulation and cause, so the same reviews give the same bytes", () => {
    const a = entry({ path: "b.json", simulation_id: "s2" });
    const b = entry({
      path: "a.json",
      simulation_id: "s9",
      reference: "r2",
      reviewer: "ann",
      date: "2026-11-30",
    });
    const c = entry({ path: "a.json", simulation_id: "s9", reference: "r1" });
    const one = formatReviewFile({ version: 1, reviews: [a, b, c] });
    const two = formatReviewFile({ version: 1, reviews: [c, a, b] });
    expect(one).toBe(two);
    const parsed = JSON.parse(one) as { reviews: ReviewEntry[] };
    expect(parsed.reviews.map((r) => `${r.path}/${r.simulation_id}/${r.reference}`)).toEqual([
      "a.json/s9/r1",
      "a.json/s9/r2",
      "b.json/s2/airline.47.no_transfer",
    ]);
    expect(Object.keys(parsed.reviews[1] ?? {})).toEqual([
      "path",
      "simulation_id",
      "fingerprint",
      "grader",
      "kind",
      "reference",
      "verdict",
      "reason",
      "reviewer",
      "date",
    ]);
  });

  it("round-trips through the file, leaving no temporary file, and refuses an invalid entry", () => {
    const d = dir();
    const path = join(d, "sub", "default.json");
    const file = {
      version: 1 as const,
      reviews: [entry(), entry({ reference: "other", verdict: "false_positive" })],
    };
    writeReviewFile(path, file);
    expect(readReviewFile(path).reviews).toEqual(JSON.parse(formatReviewFile(file)).reviews);
    expect(readdirSync(join(d, "sub"))).toEqual(["default.json"]);
    const before = readFileSync(path, "utf8");
    expect(() => writeReviewFile(path, { version: 1, reviews: [entry({ reason: "" })] })).toThrow();
    expect(readFileSync(path, "utf8")).toBe(before);
    expect(existsSync(`${path}.partial-${process.pid}`)).toBe(false);
  });

  it("replaces the review of the same simulation and cause, and adds any other", () => {
    const first = upsertReview(emptyReviewFile(), entry());
    expect(first.replaced).toBe(false);
    const again = upsertReview(first.file, entry({ verdict: "false_positive", reason: "changed my mind" }));
    expect(again.replaced).toBe(true);
    expect(again.file.reviews).toEqual([entry({ verdict: "false_positive", reason: "changed my mind" })]);
    const other = upsertReview(again.file, entry({ grader: "tau3", kind: "component", reference: "DB" }));
    expect(other.replaced).toBe(false);
    expect(other.file.reviews).toHaveLength(2);
  });
});

const sampled = (over: Partial<SampledReview> = {}): SampledReview => ({
  fingerprint: "b".repeat(64),
  simulation_id: "sim-2",
  path: "dir/file.json",
  comparison: "tau3-vs-structured",
  seed: 42,
  verdict: "missed",
  reason: "#9 cancels without the user's yes",
  ...over,
});

describe("sampled reviews", () => {
  it("round-trip through the file beside the flip reviews, sorted, keys in one order", () => {
    const path = join(dir(), "default.json");
    const a = sampled({ path: "b.json", reviewer: "ann", date: "2026-12-04" });
    const b = sampled({ path: "a.json", fingerprint: "c".repeat(64), verdict: "clean", reason: "read all" });
    writeReviewFile(path, { version: 1, reviews: [entry()], sampled: [a, b] });
    const back = readReviewFile(path);
    expect(back.reviews).toEqual([entry()]);
    expect(back.sampled).toEqual([b, a]);
    const raw = JSON.parse(readFileSync(path, "utf8")) as { sampled: Record<string, unknown>[] };
    expect(Object.keys(raw.sampled[1] ?? {})).toEqual([
      "path",
      "simulation_id",
      "fingerprint",
      "comparison",
      "seed",
      "verdict",
      "reason",
      "reviewer",
      "date",
    ]);
  });

  it("leave a file of flip reviews as it was: no sampled key, and an old file still loads", () => {
    const text = formatReviewFile({ version: 1, reviews: [entry()] });
    expect(text).not.toContain("sampled");
    expect(formatReviewFile({ version: 1, reviews: [entry()], sampled: [] })).toBe(text);
    const old = readFileSync("reviews/default.json", "utf8");
    const parsed = readReviewFile("reviews/default.json");
    expect(parsed.reviews.length).toBeGreaterThan(0);
    if (parsed.sampled === undefined) expect(formatReviewFile(parsed)).toBe(old);
  });

  it("are validated with the JSON path, one per simulation and comparison", () => {
    const file = (...e: unknown[]) => JSON.stringify({ version: 1, reviews: [], sampled: e });
    expect(errorOf(file(sampled({ verdict: "confirmed" as never })))).toMatch(/^at sampled\[0\]\.verdict: /);
    expect(errorOf(file({ ...sampled(), seed: -1 }))).toMatch(/^at sampled\[0\]\.seed: /);
    expect(errorOf(file({ ...sampled(), seed: 1.5 }))).toMatch(/^at sampled\[0\]\.seed: /);
    expect(errorOf(file({ ...sampled(), reason: " " }))).toMatch(
      /^at sampled\[0\]\.reason: every review needs a reason/,
    );
    expect(errorOf(file(sampled(), sampled({ verdict: "clean" })))).toMatch(
      /^at sampled\[1\]: the same simulation and comparison as sampled\[0\]/,
    );
    // The same simulation sampled for another comparison is another review.
    const path = join(dir(), "two.json");
    writeFileSync(path, file(sampled(), sampled({ comparison: "tau3-vs-tau3_corrected" })));
    expect(readReviewFile(path).sampled).toHaveLength(2);
  });

  it("upsertSampled replaces the review of the same simulation and comparison", () => {
    const one = upsertSampled(emptyReviewFile(), sampled());
    expect(one.replaced).toBe(false);
    const two = upsertSampled(one.file, sampled({ verdict: "clean", reason: "on reflection fine" }));
    expect(two.replaced).toBe(true);
    expect(two.file.sampled).toEqual([sampled({ verdict: "clean", reason: "on reflection fine" })]);
  });
});
