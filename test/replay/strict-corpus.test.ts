/**
 * Strict replay of the whole corpus: every recorded output of every replayed (mutating) tool call is
 * reproduced, except pydantic's docs URL version inside validation-error texts (recorded by whatever
 * pydantic the run used; 2.11 here) and the τ-bench v1 file, whose tools are v1's own (pinned below).
 */
import { describe, expect, it } from "vitest";
import { TAU2_QUIRKS } from "../../src/domains/quirks.ts";
import { domainByName } from "../../src/domains/registry.ts";
import { loadJsonFile } from "../../src/formats/load.ts";
import { ContextPool } from "../../src/pipeline/contexts.ts";
import { listInputFiles } from "../../src/pipeline/inputs.ts";
import { pyEquals } from "../../src/py/value.ts";
import { parseToolContent } from "../../src/replay/compare.ts";
import { type OutputMismatch, replayMessages } from "../../src/replay/replay.ts";
import { CORPUS_DIR, DATA_DIR } from "../helpers/data.ts";

const MISLABELLED = "toolorchestra_retail_gpt-5_1trial.json";
const V1 = "sierra-tau-bench-v1__historical_trajectories";
const versionFree = (s: string | null) =>
  (s ?? "").replace(/errors\.pydantic\.dev\/\d+\.\d+\//g, "errors.pydantic.dev/X/");

function mismatchesOf(filter: (path: string) => boolean): {
  replayed: number;
  mismatches: (OutputMismatch & { file: string })[];
} {
  const pool = new ContextPool(DATA_DIR, TAU2_QUIRKS);
  const out: (OutputMismatch & { file: string })[] = [];
  let replayed = 0;
  for (const path of listInputFiles([CORPUS_DIR]).filter(filter)) {
    const file = loadJsonFile(path);
    if (file.variant === "not-trajectories") continue;
    const domain = domainByName(file.info.domain ?? "");
    if (domain === undefined) continue;
    const tasks = new Map((file.tasks ?? []).map((t) => [t.id, t]));
    for (const sim of file.simulations) {
      const task = tasks.get(sim.task_id);
      if (task?.evaluation_criteria == null) continue;
      const env = pool.get(domain).taskArtifacts(task).setup.fork(file.info.solo);
      const report = replayMessages(env, sim.messages, { strict: false });
      replayed++;
      expect(report.internalFaults).toEqual([]);
      for (const m of report.mismatches) out.push({ ...m, file: path });
    }
  }
  return { replayed, mismatches: out };
}

describe("strict replay of the corpus", () => {
  it("reproduces every recorded output of every mutating tool in the tau2 files, up to pydantic's version", () => {
    const { replayed, mismatches } = mismatchesOf((p) => !p.includes(MISLABELLED) && !p.includes(V1));
    expect(replayed).toBeGreaterThan(600);
    const real = mismatches.filter(
      (m) => !pyEquals(parseToolContent(versionFree(m.recorded)), parseToolContent(versionFree(m.replayed))),
    );
    expect(
      real.map((m) => `${m.file} ${m.name}: ${m.recorded?.slice(0, 120)} ≠ ${m.replayed.slice(0, 120)}`),
    ).toEqual([]);
    // The version-only differences: pydantic ValidationError texts of book_reservation.
    expect(
      mismatches.every(
        (m) => m.name === "book_reservation" && (m.recorded ?? "").includes("validation error"),
      ),
    ).toBe(true);
  });

  it("pins the τ-bench v1 differences: v1's own tool texts and its cabin-less flight update", () => {
    const { mismatches } = mismatchesOf((p) => p.includes(V1));
    const kinds = new Set(mismatches.map((m) => m.name));
    expect([...kinds].sort()).toEqual([
      "book_reservation",
      "cancel_reservation",
      "update_reservation_baggages",
      "update_reservation_flights",
      "update_reservation_passengers",
    ]);
    // e.g. v1 says "payment amount does not add up", tau2 "Payment amount does not add up".
    expect(
      mismatches.some(
        (m) =>
          m.recorded?.startsWith("Error: payment amount does not add up") &&
          m.replayed.startsWith("Error: Payment amount"),
      ),
    ).toBe(true);
  });
});
