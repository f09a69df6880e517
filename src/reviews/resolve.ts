/**
 * `review set`: from a simulation's own id (and file path) and an optional `kind:reference` to exactly
 * one cause of the selected run. Anything that matches more than one is refused with the candidates.
 */
import { describeZodError } from "../formats/zod-issues.ts";
import type { VerdictStore } from "../store/store.ts";
import { EXIT_USAGE, RescoreError } from "../util/errors.ts";
import { type ReviewEntry, type ReviewVerdict, reviewEntrySchema } from "./file.ts";
import { type CauseRef, causesOf, findSimulations, type SimulationRef } from "./queries.ts";

export class ReviewError extends RescoreError {
  override readonly code = "review";
  override readonly exitStatus = EXIT_USAGE;

  override readonly name = "ReviewError";
}

export interface ReviewRequest {
  readonly simulation: string;
  readonly path?: string;
  /** `kind:reference` (the reference may contain colons), or just `kind`. */
  readonly cause?: string;
  readonly grader?: string;
  readonly verdict: ReviewVerdict;
  readonly reason: string;
  readonly reviewer?: string;
  readonly date?: string;
}

const label = (c: Pick<CauseRef, "grader" | "kind" | "reference">) =>
  `${c.kind}:${c.reference} (${c.grader})`;

/** One cause per grader, kind and reference (a cause can fire at several turns; a flip cause if any is). */
function distinct(causes: readonly CauseRef[]): CauseRef[] {
  const seen = new Map<string, CauseRef>();
  for (const c of causes) {
    const k = `${c.grader}\u0000${c.kind}\u0000${c.reference}`;
    const first = seen.get(k);
    if (first === undefined) seen.set(k, c);
    else if (c.flip_cause)
      seen.set(k, {
        ...first,
        flip_cause: true,
        comparisons: [...new Set([...first.comparisons, ...c.comparisons])],
      });
  }
  return [...seen.values()];
}

async function oneSimulation(store: VerdictStore, req: ReviewRequest): Promise<SimulationRef> {
  const sims = await findSimulations(store, req.simulation, req.path);
  if (sims.length === 1) return sims[0] as SimulationRef;
  if (sims.length === 0) {
    const elsewhere = req.path === undefined ? [] : await findSimulations(store, req.simulation);
    throw new ReviewError(
      `no simulation ${JSON.stringify(req.simulation)}${req.path === undefined ? "" : ` in ${req.path}`} in the run` +
        (elsewhere.length === 0 ? "" : `; it is in: ${elsewhere.map((s) => s.path).join(", ")}`),
    );
  }
  throw new ReviewError(
    `simulation ${JSON.stringify(req.simulation)} is in ${sims.length} places; pass --path with one of: ${sims
      .map((s) => s.path)
      .join(", ")}`,
  );
}

/** The same cause (kind and reference) as reported by several graders (a grader and its stricter variant). */
const sameCause = (cs: readonly CauseRef[]) =>
  cs.length > 0 && new Set(cs.map((c) => `${c.kind}\u0000${c.reference}`)).size === 1;

/**
 * The cause `req` names, once per grader that reports it as a flip cause (of any comparison): whether a
 * cause is a real violation does not depend on the grader that fails on it, so one judgment covers each.
 */
function pickCauses(sim: SimulationRef, causes: readonly CauseRef[], req: ReviewRequest): CauseRef[] {
  const all = distinct(causes);
  let candidates: CauseRef[];
  if (req.cause === undefined) {
    candidates = all.filter((c) => c.flip_cause && (req.grader === undefined || c.grader === req.grader));
  } else {
    const at = req.cause.indexOf(":");
    const kind = at < 0 ? req.cause : req.cause.slice(0, at);
    const reference = at < 0 ? undefined : req.cause.slice(at + 1);
    const named = all.filter(
      (c) =>
        c.kind === kind &&
        (reference === undefined || c.reference === reference) &&
        (req.grader === undefined || c.grader === req.grader),
    );
    // Another grader reporting the same cause without failing on it does not make a flip cause ambiguous.
    const flips = named.filter((c) => c.flip_cause);
    candidates = named.length > 1 && flips.length > 0 ? flips : named;
  }
  if (candidates.length === 1 || (req.grader === undefined && sameCause(candidates))) return candidates;
  const where = `simulation ${JSON.stringify(sim.simulation_id)} (${sim.path})`;
  if (candidates.length === 0)
    throw new ReviewError(
      `${where} has no ${req.cause === undefined ? "flip cause" : `cause ${req.cause}`}` +
        (all.length === 0 ? "" : `; its causes: ${all.map(label).join(", ")}`),
    );
  throw new ReviewError(
    `${where} has ${candidates.length} matching causes; pass --cause KIND:REFERENCE${
      new Set(candidates.map((c) => c.grader)).size > 1 ? " and --grader" : ""
    } with one of: ${candidates.map(label).join(", ")}`,
  );
}

/** The review entries `req` asks for (one per grader it is a flip cause of), keyed by the simulation's fingerprint. */
export async function resolveReview(store: VerdictStore, req: ReviewRequest): Promise<ReviewEntry[]> {
  const sim = await oneSimulation(store, req);
  if (sim.fingerprint === null)
    throw new ReviewError(
      `simulation ${JSON.stringify(sim.simulation_id)} (${sim.path}) has no stored fingerprint: its graders agree. ` +
        `Set "conversations": "all" in the experiment and run it to review simulations without a flip.`,
    );
  const fingerprint = sim.fingerprint;
  return pickCauses(sim, await causesOf(store, sim.sim_key), req).map((cause) =>
    entryOf(sim, fingerprint, cause, req),
  );
}

function entryOf(sim: SimulationRef, fingerprint: string, cause: CauseRef, req: ReviewRequest): ReviewEntry {
  const entry = reviewEntrySchema.safeParse({
    fingerprint,
    simulation_id: sim.simulation_id,
    path: sim.path,
    grader: cause.grader,
    kind: cause.kind,
    reference: cause.reference,
    verdict: req.verdict,
    reason: req.reason,
    ...(req.reviewer === undefined ? {} : { reviewer: req.reviewer }),
    ...(req.date === undefined ? {} : { date: req.date }),
  });
  if (!entry.success) throw new ReviewError(`not a valid review: ${describeZodError(entry.error)}`);
  return entry.data;
}
