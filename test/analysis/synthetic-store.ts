/** Builds small verdict stores by hand, for analyses whose answers are computed by hand. */

import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { rows } from "../../src/analysis/rows.ts";
import { installAnalyses } from "../../src/analysis/run.ts";
import { configurationOf } from "../../src/formats/run-info.ts";
import type { RowOf } from "../../src/store/schema.ts";
import { VerdictStore } from "../../src/store/store.ts";

export interface SyntheticSim {
  readonly model: string;
  readonly task: string;
  readonly tau3: boolean | null;
  readonly structured: boolean | null;
  readonly termination?: string;
  readonly domain?: string;
  /** The file it comes from (default: one file per model). */
  readonly file?: string;
  /** Its file's user model (default "user"; null = unknown). */
  readonly userModel?: string | null;
  /** Its file is excluded by the experiment. */
  readonly excluded?: boolean;
  /** The reward its file recorded (default none). */
  readonly recorded?: number | null;
  /** Its file's agent implementation (default "agent"). */
  readonly implementation?: string;
}

export interface SyntheticOptions {
  readonly infrastructureErrors?: "drop" | "count_as_failure";
  readonly bootstrapSamples?: number;
  readonly seed?: number;
  readonly minTaskCoverage?: number;
  /** The run's comparisons, headline first (default: τ³ against the structured grader). */
  readonly comparisons?: readonly { readonly baseline: string; readonly candidate: string }[];
  /** Tasks the experiment excludes, with the reason. */
  readonly excludeTasks?: readonly { readonly task: string; readonly reason: string }[];
}

export async function syntheticStore(
  sims: readonly SyntheticSim[],
  opts: SyntheticOptions = {},
): Promise<VerdictStore> {
  const store = await VerdictStore.open(join(mkdtempSync(join(tmpdir(), "tr-an-")), "t.duckdb"));
  const run = "r1";
  await store.append("runs", [
    {
      run_id: run,
      seq: 1,
      experiment: "synthetic",
      config_hash: "h",
      tool_version: "0",
      config_json: "{}",
      grading_spec: "{}",
      infrastructure_errors: opts.infrastructureErrors ?? "drop",
      min_task_coverage: opts.minTaskCoverage ?? 0.8,
      bootstrap_samples: opts.bootstrapSamples ?? 200,
      seed: opts.seed ?? 7,
      completed: true,
    },
  ]);
  await store.append(
    "comparisons",
    (opts.comparisons ?? [{ baseline: "tau3", candidate: "structured" }]).map((c, i) => ({
      run_id: run,
      seq: i + 1,
      name: `${c.baseline}-vs-${c.candidate}`,
      ...c,
    })),
  );
  await store.append(
    "task_exclusions",
    (opts.excludeTasks ?? []).map((t) => ({
      run_id: run,
      domain: "airline",
      task_version: null,
      task_id: t.task,
      reason: t.reason,
    })),
  );
  const fileOf = (s: SyntheticSim) => s.file ?? `f-${s.model}`;
  const files = new Map(sims.map((s) => [fileOf(s), s]));
  await store.append(
    "files",
    [...files].map(
      ([id, s]): RowOf<"files"> => ({
        run_id: run,
        file_id: id,
        path: s.file === undefined ? `${s.model}.json` : `${s.file}.json`,
        variant: "tau2-results",
        domain: "airline",
        agent_model: s.model,
        agent_implementation: s.implementation ?? "agent",
        user_model: s.userModel === undefined ? "user" : s.userModel,
        task_version: "v",
        simulations: 0,
        rejected: 0,
        status: "graded",
        error: null,
        excluded: s.excluded === true,
        exclusion_reason: s.excluded === true ? "synthetic exclusion" : null,
        configuration: configurationOf(
          {
            agent_implementation: s.implementation ?? "agent",
            agent_model: s.model,
            agent_args: null,
            user_implementation: "user_simulator",
            user_model: s.userModel === undefined ? "user" : s.userModel,
            user_args: null,
          },
          s.domain ?? "airline",
          "v",
        ),
      }),
    ),
  );
  const simRows: RowOf<"simulations">[] = [];
  const verdictRows: RowOf<"verdicts">[] = [];
  const causeRows: RowOf<"causes">[] = [];
  sims.forEach((s, i) => {
    const key = `s${i}`;
    simRows.push({
      run_id: run,
      sim_key: key,
      file_id: fileOf(s),
      sim_index: i,
      simulation_id: key,
      task_id: s.task,
      trial: 0,
      termination_reason: s.termination ?? "user_stop",
      recorded_reward: s.recorded ?? null,
      domain: s.domain ?? "airline",
      task_version: "v",
      model: s.model,
      graded: true,
      should_transfer: null,
      handoff_rule: null,
      did_transfer: null,
    });
    for (const [grader, pass] of [
      ["tau3", s.tau3],
      ["structured", s.structured],
    ] as const) {
      verdictRows.push({
        run_id: run,
        sim_key: key,
        grader,
        grader_version: "1",
        spec_hash: "h",
        pass,
        reward: pass === null ? null : pass ? 1 : 0,
        db_match: null,
        notes: "[]",
        judge_failure: null,
      });
      if (grader === "structured" && pass === false)
        causeRows.push({
          run_id: run,
          sim_key: key,
          grader,
          seq: 0,
          kind: "requirement",
          reference: "x",
          gates: true,
          message: "x",
          message_index: null,
          turn_idx: null,
          tool_call_id: null,
          tool_name: null,
          actor: null,
        });
    }
  });
  await store.append("simulations", simRows);
  await store.append("verdicts", verdictRows);
  await store.append("causes", causeRows);
  await installAnalyses(store);
  return store;
}

export const query = rows;

/** A review row of the synthetic experiment; a test names the cause's fingerprint and the verdict. */
export const syntheticReview = (
  over: Partial<RowOf<"reviews">> & Pick<RowOf<"reviews">, "fingerprint" | "verdict">,
): RowOf<"reviews"> => ({
  experiment: "synthetic",
  grader: "structured",
  kind: "requirement",
  reference: "x",
  reason: "hand-made",
  reviewer: null,
  date: null,
  simulation_id: null,
  path: null,
  ...over,
});

/** The stored context (what reviews are keyed by) of the synthetic simulations `indices`. */
export const syntheticContext = (
  store: VerdictStore,
  indices: readonly number[],
  fingerprint: (i: number) => string,
): Promise<void> =>
  store.append(
    "sim_context",
    indices.map((i) => ({
      run_id: "r1",
      sim_key: `s${i}`,
      fingerprint: fingerprint(i),
      persona: null,
      instructions: "do it",
      ticket: null,
      criteria: null,
    })),
  );
