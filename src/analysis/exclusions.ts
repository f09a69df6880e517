/**
 * `exclude_tasks` entries that match no simulation of their run. Such an entry excludes nothing, which
 * usually means a mistyped task id or task set: `run` and `report` say so rather than stay silent.
 */
import type { VerdictStore } from "../store/store.ts";

interface ExclusionEntry {
  readonly domain: string;
  readonly task_version?: string | null;
  readonly task_id: string;
}

interface SimulationTask {
  readonly domain: string | null;
  readonly task_version: string | null;
  readonly task_id: string | null;
}

/** The entries in the experiment's order (their index is how the config names them), from the stored config. */
function exclusionEntries(configJson: string): readonly ExclusionEntry[] {
  const entries = (JSON.parse(configJson) as { exclude_tasks?: ExclusionEntry[] }).exclude_tasks;
  return entries ?? [];
}

const matches = (e: ExclusionEntry, s: SimulationTask): boolean =>
  s.domain === e.domain &&
  s.task_id === e.task_id &&
  (e.task_version == null || s.task_version === e.task_version);

/**
 * One warning per entry that matches no simulation the run stored (graded or not), e.g.
 * `exclude_tasks[2] (airline task 99, any task set) matches no simulation of this run`.
 */
export async function unmatchedExclusionWarnings(store: VerdictStore, runId: string): Promise<string[]> {
  const configs = await store.query<{ config_json: string }>(
    "SELECT config_json FROM runs WHERE run_id = $1",
    [runId],
  );
  const config = configs[0]?.config_json;
  const entries = config === undefined ? [] : exclusionEntries(config);
  if (entries.length === 0) return [];
  // Only the excluded task ids' simulations: a handful of rows, whatever the corpus size.
  const tasks = await store.query<SimulationTask>(
    `SELECT DISTINCT domain, task_version, task_id FROM simulations
     WHERE run_id = $1 AND task_id IN (SELECT task_id FROM task_exclusions WHERE run_id = $1)`,
    [runId],
  );
  return entries.flatMap((e, i) =>
    tasks.some((s) => matches(e, s))
      ? []
      : [
          `exclude_tasks[${i}] (${e.domain} task ${e.task_id}, ${e.task_version == null ? "any task set" : `task set ${e.task_version}`}) matches no simulation of this run`,
        ],
  );
}
