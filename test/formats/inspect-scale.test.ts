/**
 * `corpus inspect` at scale: grouping a folder of per-simulation files is linear in its files, and no
 * count is spread into a call (a spread of more than about 125,000 values overflows the stack).
 * `scripts/inspect-scale.ts` times the command itself on 100,000 files.
 */
import { describe, expect, it, vi } from "vitest";
import { alignedTable } from "../../src/cli/table.ts";
import type * as Load from "../../src/formats/load.ts";
import type { Simulation, TrajectoryFile } from "../../src/formats/model.ts";
import { EMPTY_RUN_INFO } from "../../src/formats/run-info.ts";

/** Past the largest argument count a spread into `Math.max` survives. */
const BEYOND_SPREAD = 140_000;
const MANY_SIMULATIONS = "/virtual/many-simulations.jsonl";

// Loading a real file of this many simulations takes seconds; what is under test comes after the load.
vi.mock("../../src/formats/load.ts", async (importOriginal) => {
  const original = await importOriginal<typeof Load>();
  return {
    ...original,
    loadJsonFile: (path: string, content?: string | Uint8Array) =>
      path === MANY_SIMULATIONS ? manySimulations() : original.loadJsonFile(path, content),
  };
});

function manySimulations(): TrajectoryFile {
  const simulations: Simulation[] = Array.from({ length: BEYOND_SPREAD }, (_, i) => ({
    id: `sim-${i}`,
    task_id: `task-${i}`,
    trial: null,
    termination_reason: "user_stop",
    messages: [],
    reward_info: { reward: 1, db_match: null, nl_assertions: null, raw: { reward: 1 } },
  }));
  simulations.push({ ...(simulations[0] as Simulation), id: "sim-again" });
  return {
    path: MANY_SIMULATIONS,
    variant: "jsonl-simulations",
    info: { ...EMPTY_RUN_INFO, domain: "airline" },
    tasks: null,
    simulations,
    rejected: [],
  };
}

const { inspectFile, perSimulationRuns } = await import("../../src/formats/inspect.ts");
type InspectedFile = ReturnType<typeof inspectFile>;

/** One folder of one-simulation files, each of its own task. */
function oneSimulationFiles(n: number): InspectedFile[] {
  return Array.from({ length: n }, (_, i) => ({
    path: `/runs/big/sim_${i}.json`,
    variant: "single-simulation" as const,
    domain: "airline",
    agent_model: null,
    user_model: null,
    task_version: "none",
    simulations: 1,
    trials: 1,
    configuration: null,
    repeated_tasks: 0,
    with_reward_info: 1,
    recorded_pass_rate: i % 2,
    rejected: 0,
    rejections: [],
    task_ids: [`task-${i}`],
    note: null,
    error: null,
    fixtures: null,
  }));
}

describe("corpus inspect at scale", () => {
  it("groups a folder of 140,000 one-simulation files into one run, in linear time", () => {
    const files = oneSimulationFiles(BEYOND_SPREAD);
    const started = performance.now();
    const runs = perSimulationRuns(files);
    const seconds = (performance.now() - started) / 1000;
    expect(runs).toEqual([
      {
        folder: "/runs/big",
        files: BEYOND_SPREAD,
        variant: "single-simulation",
        domain: "airline",
        agent_model: null,
        user_model: null,
        task_version: "none",
        simulations: BEYOND_SPREAD,
        trials: 1,
        recorded_pass_rate: 0.5,
      },
    ]);
    // Linear, this takes a fraction of a second; copying the folder's list per file took minutes.
    expect(seconds).toBeLessThan(5);
  });

  it("lists 140,000 files in aligned columns", () => {
    const rows = Array.from({ length: BEYOND_SPREAD }, (_, i) => [`sim_${i}.json`, "single-simulation"]);
    const lines = alignedTable([["FILE", "VARIANT"], ...rows]).split("\n");
    expect(lines).toHaveLength(BEYOND_SPREAD + 1);
    expect(lines.at(-1)).toBe(`sim_${BEYOND_SPREAD - 1}.json  single-simulation`);
  });

  it("describes a file of 140,000 simulations, each of its own task", () => {
    expect(inspectFile(MANY_SIMULATIONS, null)).toMatchObject({
      error: null,
      simulations: BEYOND_SPREAD + 1,
      trials: 2,
      recorded_pass_rate: 1,
    });
  });
});
