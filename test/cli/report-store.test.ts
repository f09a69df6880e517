/** `report`'s view of the store: read-only, with the reviews file laid over the stored reviews in memory. */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rows } from "../../src/analysis/rows.ts";
import { installAnalyses } from "../../src/analysis/run.ts";
import { openStoreReadOnly } from "../../src/cli/report-store.ts";
import type { ReviewEntry } from "../../src/reviews/file.ts";
import { overlayReviews, saveReviews } from "../../src/reviews/store.ts";
import type { VerdictStore } from "../../src/store/store.ts";
import { syntheticStore } from "../analysis/synthetic-store.ts";

const entry = (reference: string, verdict: ReviewEntry["verdict"]): ReviewEntry => ({
  fingerprint: "a".repeat(64),
  simulation_id: "s0",
  path: null,
  grader: "structured",
  kind: "requirement",
  reference,
  verdict,
  reason: "read by hand",
});

describe("openStoreReadOnly and overlayReviews", () => {
  let path = "";
  let store: VerdictStore;
  beforeAll(async () => {
    const rw = await syntheticStore([{ model: "m", task: "1", tau3: true, structured: false }]);
    await saveReviews(rw, "synthetic", [entry("stored", "confirmed")]);
    await saveReviews(rw, "other", [entry("other", "unclear")]);
    path = rw.path;
    rw.close();
    store = await openStoreReadOnly(path);
  });
  afterAll(() => store.close());

  it("shows the file's reviews in place of the stored ones of that experiment, and writes nothing", async () => {
    const before = readFileSync(path);
    await overlayReviews(store, "synthetic", [entry("from-file", "false_positive"), entry("x", "unclear")]);
    await installAnalyses(store);
    const seen = await rows<{ experiment: string; reference: string; verdict: string }>(
      store,
      "SELECT experiment, reference, verdict FROM reviews ORDER BY experiment, reference",
    );
    expect(seen).toEqual([
      { experiment: "other", reference: "other", verdict: "unclear" },
      { experiment: "synthetic", reference: "from-file", verdict: "false_positive" },
      { experiment: "synthetic", reference: "x", verdict: "unclear" },
    ]);
    store.close();
    expect(readFileSync(path).equals(before)).toBe(true);
    store = await openStoreReadOnly(path);
    const kept = await rows<{ reference: string }>(store, "SELECT reference FROM reviews ORDER BY reference");
    expect(kept.map((r) => r.reference)).toEqual(["other", "stored"]);
  });

  it("refuses to write into the store", async () => {
    await expect(store.conn.run("CREATE TABLE t (a INTEGER)")).rejects.toThrow(/read-only/i);
  });
});
