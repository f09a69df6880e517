/**
 * tau2 SimulationRun (`data_model/simulation.py`), validated one simulation at a time so that one bad
 * simulation is reported in `rejected` and never makes the rest of the file unusable.
 */
import { z } from "../util/zod.ts";
import { joinPath } from "./json-path.ts";
import { messageSchema } from "./messages.ts";
import type { RecordedRewardInfo, Simulation, TerminationReason, TrajectoryFile } from "./model.ts";
import { deepestPath, nestingReason } from "./nesting.ts";
import { firstIssue } from "./zod-issues.ts";

/** Every termination reason tau2 has had; the Record makes the compiler check coverage. */
const TERMINATION_REASON_SET = {
  user_stop: true,
  agent_stop: true,
  max_steps: true,
  too_many_errors: true,
  agent_error: true,
  user_error: true,
  timeout: true,
  infrastructure_error: true,
  context_window_exceeded: true,
  unexpected_error: true,
} satisfies Record<TerminationReason, true>;

export const TERMINATION_REASONS = Object.keys(TERMINATION_REASON_SET) as TerminationReason[];

export const terminationReasonSchema = z.enum(
  TERMINATION_REASONS as [TerminationReason, ...TerminationReason[]],
);

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Reads the few fields of a recorded `reward_info` that are compared later, loosely: a field of an
 * unexpected type becomes null rather than rejecting the simulation. The original is kept as `raw`.
 */
export function toRecordedRewardInfo(raw: unknown): RecordedRewardInfo | null {
  if (raw === null || raw === undefined) return null;
  if (!isRecord(raw)) return { reward: null, db_match: null, nl_assertions: null, raw };
  const dbCheck = raw.db_check;
  const dbMatch = isRecord(dbCheck) && typeof dbCheck.db_match === "boolean" ? dbCheck.db_match : null;
  let nl: RecordedRewardInfo["nl_assertions"] = null;
  if (Array.isArray(raw.nl_assertions)) {
    nl = raw.nl_assertions.filter(isRecord).flatMap((c) =>
      typeof c.nl_assertion === "string" && typeof c.met === "boolean"
        ? [
            {
              nl_assertion: c.nl_assertion,
              met: c.met,
              justification: typeof c.justification === "string" ? c.justification : null,
            },
          ]
        : [],
    );
  }
  return {
    reward: typeof raw.reward === "number" ? raw.reward : null,
    db_match: dbMatch,
    nl_assertions: nl,
    raw,
  };
}

export const simulationSchema: z.ZodType<Simulation> = z.object({
  id: z.string(),
  task_id: z.string(),
  trial: z.number().int().nullable().default(null),
  termination_reason: terminationReasonSchema,
  messages: z.array(messageSchema),
  reward_info: z.unknown().optional().transform(toRecordedRewardInfo),
});

export type Rejection = TrajectoryFile["rejected"][number];

export interface ValidatedSimulations {
  readonly simulations: Simulation[];
  readonly rejected: Rejection[];
}

/** Validates each raw simulation on its own; failures become rejections with index, id and path. */
export function validateSimulations(
  raws: readonly unknown[],
  basePath: string,
  schema: z.ZodType<Simulation> = simulationSchema,
  /** Where the simulation at `index` is (default: `basePath[index]`). */
  pathOf: (index: number) => string = (index) => joinPath(basePath, [index]),
): ValidatedSimulations {
  const simulations: Simulation[] = [];
  const rejected: Rejection[] = [];
  raws.forEach((raw, index) => {
    const id = isRecord(raw) && typeof raw.id === "string" ? raw.id : null;
    const simPath = pathOf(index);
    // A 1.0 full-duplex run stores ticks instead of messages; say so instead of "expected array".
    if (isRecord(raw) && (raw.messages === undefined || raw.messages === null) && raw.ticks) {
      rejected.push({
        index,
        id,
        path: joinPath(simPath, ["messages"]),
        reason: "full-duplex simulation (ticks, no messages) is not supported",
      });
      return;
    }
    const deep = deepestPath(raw);
    if (deep !== null) {
      rejected.push({ index, id, path: joinPath(simPath, deep), reason: nestingReason() });
      return;
    }
    const result = schema.safeParse(raw);
    if (result.success) simulations.push(result.data);
    else rejected.push({ index, id, ...firstIssue(result.error, simPath) });
  });
  return { simulations, rejected };
}
