/**
 * `show` from a trajectory file: the simulation found by its id or content fingerprint, graded now in
 * this process with the loaded graders (`gradeFile`, as `grade` grades it), and turned into the store's
 * rows (`appendSimulationRows`, every conversation kept) so it prints as a stored one does.
 */
import { resolve } from "node:path";
import { loadJsonFile } from "../formats/load.ts";
import { detectTaskVersion } from "../formats/task-version.ts";
import { defaultComparisons } from "../graders/comparisons.ts";
import type { LoadedGrading } from "../graders/load.ts";
import { selectedGraders } from "../graders/spec.ts";
import { ContextPool } from "../pipeline/contexts.ts";
import { gradeFile } from "../pipeline/grade.ts";
import { appendSimulationRows, emptyBatch, simulationFingerprint } from "../pipeline/store-rows.ts";
import { buildView, ShowError, type SimulationView } from "./view.ts";

export interface FileRequest {
  /** A simulation id or a fingerprint. */
  readonly id: string;
  readonly file: string;
  readonly dataDir: string;
  readonly grading: LoadedGrading;
  /** Told about the file (warnings) and its grading, one line each. */
  readonly warn: (line: string) => void;
}

export async function showFromFile(req: FileRequest): Promise<SimulationView> {
  const loaded = loadJsonFile(req.file);
  if (loaded.variant === "not-trajectories")
    throw new ShowError(`${req.file}: not a trajectory file: ${loaded.reason}`);
  const found = loaded.simulations
    .map((sim, index) => ({ sim, index }))
    .filter(({ sim }) => sim.id === req.id || simulationFingerprint(sim) === req.id);
  if (found.length === 0) {
    const rejected = loaded.rejected.find((r) => r.id === req.id);
    throw new ShowError(
      rejected === undefined
        ? `no simulation with id or fingerprint ${JSON.stringify(req.id)} in ${req.file}`
        : `simulation ${JSON.stringify(req.id)} in ${req.file} is not valid: ${rejected.reason} (at ${rejected.path})`,
    );
  }
  if (found.length > 1)
    throw new ShowError(
      `simulation ${JSON.stringify(req.id)} is ${found.length} simulations of ${req.file} (at ${found
        .map((f) => f.index)
        .join(
          ", ",
        )}); pass its fingerprint instead: ${found.map((f) => simulationFingerprint(f.sim)).join(", ")}`,
    );
  const { sim, index } = found[0] as (typeof found)[number];
  const g = req.grading;
  const settings = {
    judge: g.judge,
    fallbackTaskVersion: g.fallbackTaskVersion,
    graders: g.graders,
    domainAs: g.domainAs,
  };
  // Only this simulation is graded: the file's other simulations are left out of the copy graded.
  const one = { ...loaded, simulations: [sim], rejected: [] };
  const version = detectTaskVersion(loaded, req.dataDir);
  const pool = new ContextPool(req.dataDir, g.quirks);
  const batch = emptyBatch();
  const graders = selectedGraders(g.spec);
  for await (const graded of gradeFile(one, version, pool, settings, { warn: req.warn }))
    appendSimulationRows(
      batch,
      { runId: "", fileId: "", domain: undefined, hashes: g.hashes, conversations: "all" },
      graded,
      index,
    );
  const row = batch.simulations[0];
  if (row === undefined)
    throw new ShowError(`simulation ${JSON.stringify(req.id)} of ${req.file} was not graded`);
  const error = batch.errors.map((e) => e.message).join("; ");
  const path = resolve(req.file);
  return buildView(
    { kind: "file", path, graders },
    {
      simulation: {
        simulation_id: row.simulation_id,
        fingerprint: simulationFingerprint(sim),
        path,
        sim_index: index,
        task_id: row.task_id,
        trial: row.trial,
        domain: row.domain,
        task_version: row.task_version,
        model: row.model,
        user_model: loaded.info.user_model,
        termination_reason: row.termination_reason,
        recorded_reward: row.recorded_reward,
        excluded: false,
        exclusion_reason: null,
        error: error === "" ? null : error,
      },
      verdicts: batch.verdicts,
      components: batch.components,
      causes: batch.causes,
      evidence: batch.evidence,
      conversation: batch.conversations.length === 0 ? null : batch.conversations,
      comparisons: defaultComparisons(graders),
    },
    "the conversation is not shown: the simulation was not graded",
  );
}
