/**
 * One record per flip (a row of the `flips` view) with the causes behind it and their evidence: the
 * structured grader's gating causes, the ones it only reported, and τ³'s own. Everything here is read
 * from the `causes` and `evidence` tables.
 */
import { rows } from "../analysis/report.ts";
import type { CauseKind } from "../graders/causes.ts";
import type { VerdictStore } from "../store/store.ts";

export interface FlipRow {
  sim_key: string;
  simulation_id: string | null;
  domain: string;
  task_version: string;
  task_id: string;
  trial: number | null;
  model: string;
  path: string;
  direction: "pass_to_fail" | "fail_to_pass";
}

export interface EvidenceRow {
  sim_key: string;
  grader: string;
  cause_seq: number;
  seq: number;
  code: string;
  message: string;
  message_index: number | null;
  turn_idx: number | null;
  tool_call_id: string | null;
  tool_name: string | null;
  actor: string | null;
  arguments: string | null;
  db: string | null;
  path: string | null;
  initial_value: string | null;
  gold_value: string | null;
  predicted_value: string | null;
  quote: string | null;
  excerpt: string | null;
}

export interface CauseRow {
  sim_key: string;
  grader: string;
  seq: number;
  kind: CauseKind;
  reference: string;
  gates: boolean;
  message: string;
  message_index: number | null;
  turn_idx: number | null;
  tool_call_id: string | null;
  tool_name: string | null;
  actor: string | null;
  evidence: EvidenceRow[];
}

export interface FlipDrilldown {
  readonly flip: FlipRow;
  /** The structured grader's gating causes, τ³'s failure (which it includes) left out. */
  readonly causes: readonly CauseRow[];
  /** What the structured grader reported without failing on it. */
  readonly reported: readonly CauseRow[];
  /** τ³'s own causes (a fail → pass flip has some). */
  readonly tau3: readonly CauseRow[];
}

const FLIPPED = "sim_key IN (SELECT sim_key FROM flips)";

export async function loadDrilldown(store: VerdictStore): Promise<FlipDrilldown[]> {
  const flips = await rows<FlipRow>(
    store,
    `SELECT sim_key, simulation_id, domain, task_version, task_id, trial, model, path, direction
     FROM flips ORDER BY domain, model, task_id, sim_key`,
  );
  const causes = await rows<Omit<CauseRow, "evidence">>(
    store,
    `SELECT sim_key, grader, seq, kind, reference, gates, message, message_index, turn_idx, tool_call_id, tool_name, actor
     FROM run_causes WHERE ${FLIPPED} AND grader IN ('structured', 'tau3') ORDER BY sim_key, grader, seq`,
  );
  const evidence = await rows<EvidenceRow>(
    store,
    `SELECT sim_key, grader, cause_seq, seq, code, message, message_index, turn_idx, tool_call_id, tool_name, actor,
            arguments, db, path, initial_value, gold_value, predicted_value, quote, excerpt
     FROM run_evidence WHERE ${FLIPPED} AND grader IN ('structured', 'tau3') ORDER BY sim_key, grader, cause_seq, seq`,
  );
  const key = (sim: string, grader: string, seq: number) => `${sim}\0${grader}\0${seq}`;
  const bySim = new Map<string, CauseRow[]>();
  const byCause = new Map<string, CauseRow>();
  for (const c of causes) {
    const full: CauseRow = { ...c, evidence: [] };
    byCause.set(key(c.sim_key, c.grader, c.seq), full);
    const list = bySim.get(c.sim_key);
    if (list === undefined) bySim.set(c.sim_key, [full]);
    else list.push(full);
  }
  for (const e of evidence) byCause.get(key(e.sim_key, e.grader, e.cause_seq))?.evidence.push(e);
  return flips.map((flip) => {
    const mine = bySim.get(flip.sim_key) ?? [];
    const structured = mine.filter((c) => c.grader === "structured" && c.kind !== "tau3");
    return {
      flip,
      causes: structured.filter((c) => c.gates),
      reported: structured.filter((c) => !c.gates),
      tau3: mine.filter((c) => c.grader === "tau3"),
    };
  });
}
