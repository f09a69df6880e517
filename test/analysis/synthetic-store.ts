/** Builds small verdict stores by hand, for analyses whose answers are computed by hand. */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { installAnalyses, rows } from "../../src/analysis/report.ts";
import type { Row } from "../../src/store/schema.ts";
import { VerdictStore } from "../../src/store/store.ts";

export interface SyntheticSim {
  readonly model: string;
  readonly task: string;
  readonly tau3: boolean | null;
  readonly structured: boolean | null;
  readonly termination?: string;
  readonly domain?: string;
}

export interface SyntheticOptions {
  readonly infrastructureErrors?: "drop" | "count_as_failure";
  readonly bootstrapSamples?: number;
  readonly seed?: number;
  readonly minTaskCoverage?: number;
}

export async function syntheticStore(
  sims: readonly SyntheticSim[],
  opts: SyntheticOptions = {},
): Promise<VerdictStore> {
  const store = await VerdictStore.open(join(mkdtempSync(join(tmpdir(), "tr-an-")), "t.duckdb"));
  const run = "r1";
  await store.append("runs", [
    [
      run,
      1,
      "synthetic",
      "h",
      "0",
      "{}",
      opts.infrastructureErrors ?? "drop",
      opts.minTaskCoverage ?? 0.8,
      opts.bootstrapSamples ?? 200,
      opts.seed ?? 7,
    ],
  ]);
  const models = [...new Set(sims.map((s) => s.model))];
  await store.append(
    "files",
    models.map(
      (m): Row => [
        run,
        `f-${m}`,
        `${m}.json`,
        "tau2-results",
        "airline",
        m,
        "agent",
        "user",
        "v",
        0,
        0,
        "graded",
        null,
        false,
        null,
      ],
    ),
  );
  const simRows: Row[] = [];
  const verdictRows: Row[] = [];
  sims.forEach((s, i) => {
    const key = `s${i}`;
    simRows.push([
      run,
      key,
      `f-${s.model}`,
      i,
      key,
      s.task,
      0,
      s.termination ?? "user_stop",
      null,
      s.domain ?? "airline",
      "v",
      s.model,
      true,
      null,
      null,
      null,
    ]);
    for (const [grader, pass] of [
      ["tau3", s.tau3],
      ["structured", s.structured],
    ] as const) {
      verdictRows.push([
        run,
        key,
        grader,
        "1",
        pass,
        pass === null ? null : pass ? 1 : 0,
        null,
        grader === "structured" && pass === false ? '["x"]' : "[]",
        "[]",
      ]);
    }
  });
  await store.append("simulations", simRows);
  await store.append("verdicts", verdictRows);
  await installAnalyses(store);
  return store;
}

export const query = rows;
