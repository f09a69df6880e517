/**
 * `show` from a store: one simulation of the selected run, found by its id in its trajectory file or by
 * its content fingerprint, with its rows read straight from the run's tables (no analysis views).
 */
import type { RunInfo } from "../analysis/run.ts";
import type { VerdictStore } from "../store/store.ts";
import { buildView, ShowError, type SimulationRows, type SimulationView } from "./view.ts";

interface Candidate {
  sim_key: string;
  sim_index: number;
  simulation_id: string | null;
  path: string;
  fingerprint: string | null;
}

export interface StoreRequest {
  /** A simulation id or a fingerprint. */
  readonly id: string;
  /** Its file, relative to the corpus root, when the id is in several. */
  readonly path?: string;
}

const FINGERPRINT = /^[0-9a-f]{64}$/;

async function candidates(
  store: VerdictStore,
  runId: string,
  id: string,
  path?: string,
): Promise<Candidate[]> {
  return await store.query<Candidate>(
    `SELECT s.sim_key, s.sim_index, s.simulation_id, f.path, sc.fingerprint
     FROM simulations s
     JOIN files f ON f.run_id = s.run_id AND f.file_id = s.file_id
     LEFT JOIN sim_context sc ON sc.run_id = s.run_id AND sc.sim_key = s.sim_key
     WHERE s.run_id = $1 AND (s.simulation_id = $2 OR sc.fingerprint = $2)${path === undefined ? "" : " AND f.path = $3"}
     ORDER BY f.path, s.sim_index`,
    path === undefined ? [runId, id] : [runId, id, path],
  );
}

/** The one simulation `req` names in the run; anything else is a `ShowError` naming where it looked. */
async function oneSimulation(
  store: VerdictStore,
  run: RunInfo,
  req: StoreRequest,
  db: string,
): Promise<Candidate> {
  const found = await candidates(store, run.run_id, req.id, req.path);
  const where = `run ${run.run_id} of ${db}`;
  if (found.length === 1) return found[0] as Candidate;
  if (found.length === 0) {
    const elsewhere = req.path === undefined ? [] : await candidates(store, run.run_id, req.id);
    const hint =
      elsewhere.length > 0
        ? `; it is in: ${[...new Set(elsewhere.map((c) => c.path))].join(", ")}`
        : FINGERPRINT.test(req.id)
          ? " (a fingerprint is stored only for simulations whose conversation the run kept)"
          : "";
    throw new ShowError(
      `no simulation with id or fingerprint ${JSON.stringify(req.id)}${req.path === undefined ? "" : ` in ${req.path}`} in ${where}${hint}`,
    );
  }
  const paths = [...new Set(found.map((c) => c.path))];
  if (paths.length > 1)
    throw new ShowError(
      `simulation ${JSON.stringify(req.id)} is in ${found.length} places in ${where}; pass --path with one of: ${paths.join(", ")}`,
    );
  // The same id more than once in one file: only a fingerprint tells them apart.
  const fingerprints = found.map((c) => c.fingerprint);
  throw new ShowError(
    `simulation ${JSON.stringify(req.id)} is ${found.length} simulations of ${paths[0]} (at ${found
      .map((c) => c.sim_index)
      .join(", ")}) in ${where}; ` +
      (fingerprints.every((f) => f !== null) && new Set(fingerprints).size === found.length
        ? `pass its fingerprint instead: ${fingerprints.join(", ")}`
        : 'the run stored no fingerprint that tells them apart (set "conversations": "all" in the experiment and run it)'),
  );
}

const conversationsOption = (configJson: string | null): string | null => {
  if (configJson === null) return null;
  try {
    const c = JSON.parse(configJson) as { conversations?: unknown };
    return typeof c.conversations === "string" ? c.conversations : null;
  } catch {
    return null;
  }
};

/** Reads one simulation of `run` (already selected) with its verdicts, causes, evidence and conversation. */
export async function showFromStore(
  store: VerdictStore,
  run: RunInfo,
  req: StoreRequest,
  db: string,
): Promise<SimulationView> {
  return await showSimulation(store, run, await oneSimulation(store, run, req, db), db);
}

/** One simulation of `run` by its key in the store, with the fingerprint the run stored for it. */
export async function showSimulation(
  store: VerdictStore,
  run: RunInfo,
  c: Pick<Candidate, "sim_key" | "fingerprint">,
  db: string,
): Promise<SimulationView> {
  const p = [run.run_id, c.sim_key];
  const where = "run_id = $1 AND sim_key = $2";
  const [sim] = await store.query<Omit<SimulationRows["simulation"], "fingerprint" | "error">>(
    `SELECT s.simulation_id, f.path, s.sim_index, s.task_id, s.trial, s.domain, s.task_version, s.model,
            f.user_model, s.termination_reason, s.recorded_reward, f.excluded, f.exclusion_reason
     FROM simulations s JOIN files f ON f.run_id = s.run_id AND f.file_id = s.file_id
     WHERE s.run_id = $1 AND s.sim_key = $2`,
    p,
  );
  if (sim === undefined) throw new ShowError(`simulation ${c.sim_key} vanished from ${db}`);
  const errors = await store.query<{ message: string }>(
    `SELECT message FROM errors WHERE ${where} ORDER BY stage`,
    p,
  );
  const conversation = await store.query<NonNullable<SimulationRows["conversation"]>[number]>(
    `SELECT message_index, role, content, tool_calls, tool_call_id, tool_error, turn_idx
     FROM conversations WHERE ${where} ORDER BY message_index`,
    p,
  );
  const [config] = await store.query<{ config_json: string | null }>(
    "SELECT config_json FROM runs WHERE run_id = $1",
    [run.run_id],
  );
  const option = conversationsOption(config?.config_json ?? null);
  const rows: SimulationRows = {
    simulation: {
      ...sim,
      fingerprint: c.fingerprint,
      error: errors.length === 0 ? null : errors.map((e) => e.message).join("; "),
    },
    verdicts: await store.query(
      `SELECT grader, pass, reward, db_match, judge_failure FROM verdicts WHERE ${where}`,
      p,
    ),
    components: await store.query(
      `SELECT grader, component, score, in_basis, vacuous FROM components WHERE ${where} ORDER BY grader, component`,
      p,
    ),
    causes: await store.query(
      `SELECT grader, seq, kind, reference, gates, message, message_index, turn_idx, tool_call_id, tool_name, actor
       FROM causes WHERE ${where}`,
      p,
    ),
    evidence: await store.query(
      `SELECT grader, cause_seq, seq, code, message, message_index, turn_idx, tool_call_id, tool_name, actor,
              arguments, db, path, initial_value, gold_value, predicted_value, quote, excerpt
       FROM evidence WHERE ${where}`,
      p,
    ),
    conversation: conversation.length === 0 ? null : conversation,
    comparisons: await store.query(
      "SELECT name, baseline, candidate FROM comparisons WHERE run_id = $1 ORDER BY seq",
      [run.run_id],
    ),
  };
  const note =
    rows.simulation.error !== null
      ? "the conversation is not stored: the simulation was not graded"
      : option === "all"
        ? "the conversation is not stored for this simulation"
        : `the conversation is not stored: run ${run.run_id} kept only those of simulations its graders disagree on (set "conversations": "all" in the experiment and run it)`;
  return buildView(
    { kind: "store", db, run_id: run.run_id, experiment: run.experiment, conversations: option },
    rows,
    note,
  );
}
