/**
 * `review sample`: draws simulations both sides of a comparison pass, per domain, and walks them so a
 * reviewer says whether each is clean or a violation both sides missed. The draw is the first N of each
 * domain in the order of md5(seed, fingerprint): the same seed draws the same simulations from the same
 * run, a larger N extends the sample, and a simulation already reviewed is not asked again.
 */
import { existsSync } from "node:fs";
import { join, relative } from "node:path";
import { rows } from "../analysis/rows.ts";
import type { VerdictStore } from "../store/store.ts";
import { type FolderSource, layersOf } from "../util/layers.ts";
import {
  type ReviewFile,
  readReviewFile,
  type SampledReview,
  type SampleVerdict,
  sampledKey,
  sampledReviewSchema,
  upsertSampled,
} from "./file.ts";
import { updateReviewFile } from "./lock.ts";
import { conversationOf, type SampledSimulation, taskOf } from "./queries.ts";
import { ReviewError } from "./resolve.ts";
import { saveReviews } from "./store.ts";
import { printable, renderSample, type SampleCause } from "./terminal.ts";
import { askAnswer, type ReviewIo } from "./walk.ts";

export interface SampleRequest {
  readonly comparison: string;
  readonly n: number;
  readonly seed: number;
  readonly domain?: string;
}

export type { SampledSimulation };

export interface SampleDraw {
  /** Per domain: simulations both sides pass (outside excluded files and tasks), and how many were drawn. */
  readonly domains: readonly { domain: string | null; both_pass: number; drawn: number }[];
  readonly simulations: readonly SampledSimulation[];
}

/**
 * Both-pass simulations of the comparison outside excluded files and tasks, with their fingerprints:
 * the query and its parameters (`$1`, and `$2` with a domain), which a query around it extends.
 */
const population = (r: SampleRequest): { sql: string; params: string[] } => ({
  sql: `SELECT pv.sim_key, pv.domain, pv.task_id, pv.trial, pv.model, pv.path, pv.simulation_id, pv.baseline,
          pv.candidate, x.fingerprint
   FROM pair_verdicts pv
   LEFT JOIN (SELECT sc.sim_key, sc.fingerprint FROM sim_context sc JOIN current_run r USING (run_id)) x USING (sim_key)
   WHERE pv.comparison = $1 AND pv.baseline_pass AND pv.candidate_pass AND NOT pv.excluded
     ${r.domain === undefined ? "" : "AND pv.domain = $2"}`,
  params: r.domain === undefined ? [r.comparison] : [r.comparison, r.domain],
});

/** The draw of `r` from the selected run (`installAnalyses` first). */
export async function drawSample(store: VerdictStore, r: SampleRequest): Promise<SampleDraw> {
  const known = await rows<{ comparison: string }>(
    store,
    "SELECT comparison FROM run_comparisons ORDER BY seq",
  );
  if (!known.some((k) => k.comparison === r.comparison))
    throw new ReviewError(
      `--comparison: no comparison ${JSON.stringify(r.comparison)} in the run; its comparisons: ${known.map((k) => k.comparison).join(", ") || "none"}`,
    );
  const pop = population(r);
  const counts = await rows<{ domain: string | null; both_pass: number; unstored: number }>(
    store,
    `SELECT domain, count(*) AS both_pass, count(*) FILTER (WHERE fingerprint IS NULL) AS unstored
     FROM (${pop.sql}) GROUP BY domain ORDER BY domain`,
    pop.params,
  );
  if (r.domain !== undefined && counts.length === 0) {
    const { domain: _, ...everyDomain } = r;
    const everyPop = population(everyDomain);
    const domains = await rows<{ domain: string }>(
      store,
      `SELECT DISTINCT domain FROM (${everyPop.sql}) WHERE domain IS NOT NULL ORDER BY 1`,
      everyPop.params,
    );
    throw new ReviewError(
      `--domain: no simulation of ${JSON.stringify(r.domain)} that both sides of ${r.comparison} pass; domains with some: ${domains.map((d) => d.domain).join(", ") || "none"}`,
    );
  }
  const unstored = counts.reduce((a, c) => a + c.unstored, 0);
  // Drawing only among the stored ones would sample the simulations some other grader fails: a biased rate.
  if (unstored > 0)
    throw new ReviewError(
      `${unstored} of ${counts.reduce((a, c) => a + c.both_pass, 0)} simulations both sides of ${r.comparison} pass have no stored conversation ` +
        `(the run keeps them only where graders disagree). Set "conversations": "all" in the experiment and run it again to sample them.`,
    );
  const seedParam = pop.params.length + 1; // the seed, then N, follow the population's parameters
  const drawn = await rows<SampledSimulation>(
    store,
    `SELECT sim_key, fingerprint, domain, rank, task_id, trial, model, path, simulation_id, baseline, candidate
     FROM (SELECT *, row_number() OVER (PARTITION BY domain ORDER BY md5($${seedParam} || ':' || fingerprint), fingerprint) AS rank
           FROM (${pop.sql})
           -- a simulation in several files is drawn once
           QUALIFY row_number() OVER (PARTITION BY domain, fingerprint ORDER BY path, sim_key) = 1)
     WHERE rank <= $${seedParam + 1}
     ORDER BY domain, rank`,
    [...pop.params, String(r.seed), r.n],
  );
  return {
    domains: counts.map((c) => ({
      domain: c.domain,
      both_pass: c.both_pass,
      drawn: drawn.filter((d) => d.domain === c.domain).length,
    })),
    simulations: drawn,
  };
}

/** Every cause any grader reported for the simulation: none fails both sides, but they point at rules. */
async function causesFor(store: VerdictStore, simKey: string): Promise<SampleCause[]> {
  return await rows<SampleCause>(
    store,
    `SELECT grader, kind, reference, gates, message, message_index, turn_idx FROM run_causes
     WHERE sim_key = $1 ORDER BY grader, seq`,
    [simKey],
  );
}

export interface SampleWalkOptions {
  readonly store: VerdictStore;
  readonly experiment: string;
  readonly reviewsFile: string;
  readonly io: ReviewIo;
  readonly request: SampleRequest;
  readonly reviewer?: string;
  /** Written into each review (YYYY-MM-DD); the command line passes today's date. */
  readonly date?: string;
  /** Where the domain's policy text and the policy clauses (each layer's) are, shown as pointers. */
  readonly dataDir?: string;
  readonly policiesDir?: FolderSource;
}

export interface SampleWalkSummary {
  readonly drawn: number;
  /** Drawn simulations that had a review of this comparison before the walk. */
  readonly alreadyReviewed: number;
  readonly reviewed: number;
  readonly skipped: number;
  /** Drawn simulations still without a review after the walk. */
  readonly remaining: number;
}

const ANSWERS: Record<string, SampleVerdict | "skip" | "quit"> = {
  c: "clean",
  clean: "clean",
  m: "missed",
  missed: "missed",
  u: "unclear",
  unclear: "unclear",
  s: "skip",
  skip: "skip",
  q: "quit",
  quit: "quit",
};

/** A missed violation is only evidence with the turns it happened at. */
const CITES_TURN = /(#\d+|turn\s+\d+)/i;

const askVerdict = (io: ReviewIo) =>
  askAnswer(io, "verdict? [c]lean, [m]issed, [u]nclear, [s]kip, [q]uit: ", ANSWERS);

async function askReason(io: ReviewIo, verdict: SampleVerdict): Promise<string | null> {
  for (;;) {
    const line = await io.ask("reason (cite the turns, e.g. #12): ");
    if (line === null) return null;
    const reason = line.trim();
    if (reason === "") io.write("  a review needs a reason\n");
    else if (verdict === "missed" && !CITES_TURN.test(reason))
      io.write("  a missed violation needs the turns it happened at (#N or turn N)\n");
    else return reason;
  }
}

/** Relative to the working directory when inside it: a pointer a reader can open. */
const shown = (p: string) => {
  const r = relative(process.cwd(), p);
  return r !== "" && !r.startsWith("..") ? r : p;
};

function pointers(o: SampleWalkOptions, domain: string | null): string[] {
  if (domain === null) return [];
  const out: string[] = [];
  const policy = o.dataDir === undefined ? undefined : join(o.dataDir, "domains", domain, "policy.md");
  if (policy !== undefined && existsSync(policy)) out.push(shown(policy));
  for (const dir of o.policiesDir === undefined ? [] : layersOf(o.policiesDir)) {
    const clauses = join(dir, domain);
    if (existsSync(clauses)) out.push(`${shown(clauses)}/`);
  }
  return out;
}

export async function walkSample(o: SampleWalkOptions): Promise<SampleWalkSummary> {
  const { store, io, request } = o;
  const draw = await drawSample(store, request);
  let file: ReviewFile = readReviewFile(o.reviewsFile);
  const reviewed = (s: SampledSimulation, f: ReviewFile) =>
    (f.sampled ?? []).some(
      (e) => sampledKey(e) === sampledKey({ fingerprint: s.fingerprint, comparison: request.comparison }),
    );
  const todo = draw.simulations.filter((s) => !reviewed(s, file));
  const alreadyReviewed = draw.simulations.length - todo.length;
  if (todo.length === 0)
    io.write(
      `every drawn simulation (${draw.simulations.length}) has a review of ${printable(request.comparison)}\n`,
    );
  let done = 0;
  let skipped = 0;
  for (const [i, s] of todo.entries()) {
    const domain = draw.domains.find((d) => d.domain === s.domain);
    io.write(
      renderSample({
        simulation: s,
        comparison: request.comparison,
        seed: request.seed,
        position: { index: i + 1, total: todo.length },
        population: domain?.both_pass ?? null,
        causes: await causesFor(store, s.sim_key),
        task: await taskOf(store, s.sim_key),
        messages: await conversationOf(store, s.sim_key),
        pointers: pointers(o, s.domain),
      }),
    );
    const verdict = await askVerdict(io);
    if (verdict === "quit") break;
    if (verdict === "skip") {
      skipped++;
      continue;
    }
    const reason = await askReason(io, verdict);
    if (reason === null) break;
    const entry: SampledReview = sampledReviewSchema.parse({
      fingerprint: s.fingerprint,
      simulation_id: s.simulation_id,
      path: s.path,
      comparison: request.comparison,
      seed: request.seed,
      verdict,
      reason,
      ...(o.reviewer === undefined ? {} : { reviewer: o.reviewer }),
      ...(o.date === undefined ? {} : { date: o.date }),
    });
    file = updateReviewFile(o.reviewsFile, (now) => upsertSampled(now, entry).file);
    done++;
    io.write(`  saved to ${o.reviewsFile}\n`);
  }
  await saveReviews(store, o.experiment, file.reviews, file.sampled);
  const remaining = draw.simulations.filter((s) => !reviewed(s, file)).length;
  return { drawn: draw.simulations.length, alreadyReviewed, reviewed: done, skipped, remaining };
}
