/**
 * Seed trajectories for the fuzz suites: a few real corpus simulations per file variant (kept raw, as
 * parsed JSON, so mutations work on what a file really holds), with the tasks they belong to.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CORPUS_DIR } from "../../helpers/data.ts";

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonRecord = { [k: string]: Json };

export interface SeedFile {
  readonly name: string;
  /** The document minus its simulation list (info, tasks, wrapper keys). */
  readonly shell: JsonRecord | null;
  /** Where the simulations go: `simulations` of the shell, or the top-level list. */
  readonly listKey: "simulations" | null;
  readonly simulations: readonly JsonRecord[];
  /** Task ids the file's tasks (or the fallback task set) define, for mislabelling. */
  readonly taskIds: readonly string[];
}

const read = (rel: string): Json => JSON.parse(readFileSync(join(CORPUS_DIR, rel), "utf8")) as Json;
const asRecord = (v: Json | undefined): JsonRecord => v as JsonRecord;

function resultsSeed(name: string, rel: string, take: number): SeedFile {
  const doc = asRecord(read(rel));
  const sims = (doc.simulations as JsonRecord[]).slice(0, take);
  const { simulations: _drop, ...shell } = doc;
  const tasks = Array.isArray(doc.tasks) ? (doc.tasks as JsonRecord[]) : [];
  return { name, shell, listKey: "simulations", simulations: sims, taskIds: tasks.map((t) => String(t.id)) };
}

function listSeed(name: string, rel: string, take: number, idKey: string): SeedFile {
  const list = (read(rel) as JsonRecord[]).slice(0, take);
  return { name, shell: null, listKey: null, simulations: list, taskIds: list.map((s) => String(s[idKey])) };
}

let cache: SeedFile[] | undefined;

/** tau2 results (all four domains, solo telecom, trimmed ToolOrchestra), wrapper, bare list, v1. */
export function seedFiles(): SeedFile[] {
  cache ??= [
    resultsSeed("retail", "sierra-tau2-bench__pr170-tau2-trace/e2e_retail_baseline.json", 1),
    resultsSeed("airline", "sierra-tau2-bench__pr170-tau2-trace/e2e_airline_baseline.json", 1),
    resultsSeed("telecom", "sierra-tau2-bench__pr170-tau2-trace/e2e_telecom_baseline.json", 1),
    resultsSeed("mock", "sierra-tau2-bench__pr170-tau2-trace/e2e_mock_baseline.json", 1),
    resultsSeed("airline-2t", "jitrc-tau2-enhanced/airline_gemini2_5_flash_10tasks_2t.json", 3),
    resultsSeed(
      "telecom-solo",
      "sierra-tau2-bench__branch-feature-gym__experiments/gpt-4.1-2025-04-14_telecom_no-user_gpt-4.1-2025-04-14_4trials_5tasks.json",
      2,
    ),
    resultsSeed(
      "toolorchestra-retail",
      "sierra-tau2-bench__leaderboard-pr__toolorchestra_nvidia_2025-12-02/toolorchestra_retail_gpt-5_1trial.json",
      2,
    ),
    (() => {
      const doc = asRecord(
        read(
          "sierra-tau2-bench__leaderboard-pr__adaptive-agent_community_2026-03-23/adaptive_agent_airline_opus46_cascata.json",
        ),
      );
      const sims = (doc.simulations as JsonRecord[]).slice(0, 2);
      const { simulations: _drop, ...shell } = doc;
      return {
        name: "domain-wrapper",
        shell,
        listKey: "simulations" as const,
        simulations: sims,
        taskIds: sims.map((s) => String(s.task_id)),
      };
    })(),
    listSeed(
      "bare-list",
      "sierra-tau2-bench__leaderboard-pr__adaptive-agent_ironshell-ui_2026-03-22/adaptive-agent_airline_claude-opus-4-6_1trial.json",
      2,
      "task_id",
    ),
    listSeed(
      "tau-bench-v1",
      "sierra-tau-bench-v1__historical_trajectories/gpt-4o-airline.json",
      2,
      "task_id",
    ),
  ];
  return cache;
}

/** A deep copy through JSON (seeds are shared between cases and must never be mutated). */
export const clone = <T extends Json>(v: T): T => structuredClone(v);

/** The file document holding `sims` in the seed's layout. */
export function documentOf(seed: SeedFile, sims: readonly Json[]): Json {
  if (seed.listKey === null) return [...sims];
  return { ...seed.shell, simulations: [...sims] };
}
