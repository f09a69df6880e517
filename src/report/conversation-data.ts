/**
 * What the report's conversation view shows for each flipped simulation (or each simulation with stored
 * context, with `--all-conversations`): who and where, the task text, every grader's components, the
 * causes with their evidence and reviews, and the whole conversation (`conversationSet`). Read from `sim_context`,
 * `conversations`, `components` and `tool_calls` of the selected run.
 */
import { rows } from "../analysis/rows.ts";
import type { MessageRow, TaskText } from "../reviews/queries.ts";
import type { VerdictStore } from "../store/store.ts";
import type { CauseRow } from "./drilldown.ts";

export interface ConversationHeader {
  sim_key: string;
  simulation_id: string | null;
  path: string;
  domain: string;
  task_version: string;
  task_id: string;
  trial: number | null;
  model: string;
  excluded: boolean;
  exclusion_reason: string | null;
  fingerprint: string | null;
}

/** One side's verdict on the simulation (every grader a comparison names, the recorded reward included). */
export interface SideVerdict {
  grader: string;
  pass: boolean | null;
}

/** A comparison that flips the simulation, with the flip's review status. */
export interface SimFlip {
  comparison: string;
  direction: string;
  failing_grader: string;
  review: string;
}

export interface ComponentRow {
  grader: string;
  component: string;
  score: number | null;
  in_basis: boolean;
  vacuous: boolean;
}

/** One NL assertion as a live judge judged it (`nl_assertions`). */
export interface NlAssertionRow {
  seq: number;
  assertion: string;
  met: boolean;
  reasoning: string | null;
  judge_model: string | null;
  cache_key: string | null;
  degenerate: string | null;
}

export interface ConversationView {
  readonly sim: ConversationHeader;
  /** In the order of the comparisons that name them. */
  readonly verdicts: readonly SideVerdict[];
  /** The comparisons that flip it (none when it is shown for `--all-conversations`). */
  readonly flips: readonly SimFlip[];
  readonly task: TaskText | null;
  readonly components: readonly ComponentRow[];
  readonly causes: readonly CauseRow[];
  readonly messages: readonly MessageRow[];
  /** Messages that made a write call (where a DB-field cause, which has no turn, came from). */
  readonly writes: ReadonlySet<number>;
  /** The live judge's verdict on each NL assertion (none for recorded verdicts). */
  readonly nl: readonly NlAssertionRow[];
}

/**
 * The simulations whose conversation report.html embeds: the flips outside excluded files and tasks (those
 * every number rests on), or every simulation of the run with stored context (`--all-conversations`).
 */
export const conversationSet = (all: boolean): string =>
  all
    ? "SELECT sc.sim_key FROM sim_context sc JOIN current_run r USING (run_id) UNION SELECT sim_key FROM flips"
    : "SELECT sim_key FROM flips WHERE NOT excluded";

const COMPONENT_ORDER = ["DB", "ENV_ASSERTION", "COMMUNICATE", "ACTION", "NL_ASSERTION"];
const componentRank = (c: string) => {
  const i = COMPONENT_ORDER.indexOf(c);
  return i < 0 ? COMPONENT_ORDER.length : i;
};

function bySim<T extends { sim_key: string }>(list: readonly T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const r of list) {
    const l = out.get(r.sim_key);
    if (l === undefined) out.set(r.sim_key, [r]);
    else l.push(r);
  }
  return out;
}

export async function loadConversations(
  store: VerdictStore,
  simKeys: string,
  causes: ReadonlyMap<string, readonly CauseRow[]>,
): Promise<ConversationView[]> {
  const headers = await rows<ConversationHeader>(
    store,
    `SELECT sv.sim_key, sv.simulation_id, sv.path, sv.domain, sv.task_version, sv.task_id, sv.trial, sv.model,
            sv.excluded, sv.exclusion_reason, x.fingerprint
     FROM sim_verdicts sv
     LEFT JOIN (SELECT sc.sim_key, sc.fingerprint FROM sim_context sc JOIN current_run r USING (run_id)) x USING (sim_key)
     LEFT JOIN (SELECT DISTINCT sim_key FROM flips) f USING (sim_key)
     WHERE sv.sim_key IN (${simKeys})
     ORDER BY f.sim_key IS NULL, sv.domain, sv.model, sv.task_id, sv.trial, sv.path, sv.sim_key`,
  );
  const verdicts = await rows<SideVerdict & { sim_key: string }>(
    store,
    `SELECT v.sim_key, v.grader, v.pass FROM run_verdicts v
     JOIN (SELECT grader, min(o) AS first FROM (SELECT 2 * seq AS o, baseline AS grader FROM run_comparisons
                                                UNION ALL SELECT 2 * seq + 1, candidate FROM run_comparisons) GROUP BY grader) g
       USING (grader)
     WHERE v.sim_key IN (${simKeys}) ORDER BY v.sim_key, g.first, v.grader`,
  );
  const flips = await rows<SimFlip & { sim_key: string }>(
    store,
    `SELECT f.sim_key, f.comparison, f.direction, f.failing_grader, r.review
     FROM flips f JOIN flip_reviews r ON r.comparison = f.comparison AND r.sim_key = f.sim_key
     WHERE f.sim_key IN (${simKeys}) ORDER BY f.sim_key, f.comparison_seq`,
  );
  const tasks = await rows<TaskText & { sim_key: string }>(
    store,
    `SELECT sc.sim_key, sc.persona, sc.instructions, sc.ticket, sc.criteria
     FROM sim_context sc JOIN current_run r USING (run_id) WHERE sc.sim_key IN (${simKeys})`,
  );
  const components = await rows<ComponentRow & { sim_key: string }>(
    store,
    `SELECT c.sim_key, c.grader, c.component, c.score, c.in_basis, c.vacuous
     FROM components c JOIN current_run r USING (run_id) WHERE c.sim_key IN (${simKeys})
     ORDER BY c.sim_key, c.grader, c.component`,
  );
  const messages = await rows<MessageRow & { sim_key: string }>(
    store,
    `SELECT m.sim_key, m.message_index, m.role, m.content, m.tool_calls, m.tool_call_id, m.tool_error, m.turn_idx
     FROM conversations m JOIN current_run r USING (run_id) WHERE m.sim_key IN (${simKeys})
     ORDER BY m.sim_key, m.message_index`,
  );
  const writes = await rows<{ sim_key: string; message_index: number }>(
    store,
    `SELECT DISTINCT tc.sim_key, tc.message_index FROM tool_calls tc JOIN current_run r USING (run_id)
     WHERE tc.sim_key IN (${simKeys}) AND tc.kind = 'write'`,
  );
  const nl = await rows<NlAssertionRow & { sim_key: string }>(
    store,
    `SELECT n.sim_key, n.seq, n.assertion, n.met, n.reasoning, n.judge_model, n.cache_key, n.degenerate
     FROM nl_assertions n JOIN current_run r USING (run_id) WHERE n.sim_key IN (${simKeys})
     ORDER BY n.sim_key, n.seq`,
  );
  const nlOf = bySim(nl);
  const verdictsOf = bySim(verdicts);
  const flipsOf = bySim(flips);
  const taskOf = new Map(tasks.map((t) => [t.sim_key, t]));
  const componentsOf = bySim(components);
  const messagesOf = bySim(messages);
  const writesOf = bySim(writes);
  return headers.map((sim) => ({
    sim,
    verdicts: (verdictsOf.get(sim.sim_key) ?? []).map(({ grader, pass }) => ({ grader, pass })),
    flips: (flipsOf.get(sim.sim_key) ?? []).map(({ sim_key: _, ...f }) => f),
    task: taskOf.get(sim.sim_key) ?? null,
    components: [...(componentsOf.get(sim.sim_key) ?? [])].sort(
      (a, b) => componentRank(a.component) - componentRank(b.component),
    ),
    causes: causes.get(sim.sim_key) ?? [],
    messages: messagesOf.get(sim.sim_key) ?? [],
    writes: new Set((writesOf.get(sim.sim_key) ?? []).map((w) => w.message_index)),
    nl: nlOf.get(sim.sim_key) ?? [],
  }));
}
