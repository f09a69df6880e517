/**
 * `tau-rescore review <experiment>` walks the unreviewed flip causes (of every comparison, or of one
 * with --comparison) in the terminal; `review set`
 * records one verdict for scripts; `review list` prints every review (flip and sampled) with whether it is stale. Reviews
 * are matched against the selected run of the experiment's store, and written to its reviews file.
 */
import { createInterface } from "node:readline";
import { REVIEW_VERDICTS, type ReviewVerdict, upsertReview } from "../../reviews/file.ts";
import { updateReviewFile } from "../../reviews/lock.ts";
import { type ListedReview, listedReviews } from "../../reviews/queries.ts";
import { resolveReview } from "../../reviews/resolve.ts";
import { drawSample, walkSample } from "../../reviews/sample.ts";
import { saveReviews } from "../../reviews/store.ts";
import { printable } from "../../reviews/terminal.ts";
import { SIBLING_ANSWERS, type SiblingAnswer, walkReviews } from "../../reviews/walk.ts";
import { LIMITS } from "../../util/limits.ts";
import { numberArg } from "../args.ts";
import { reviewerDefault } from "../env.ts";
import { UsageError } from "../errors.ts";
import { onInterrupt } from "../interrupt.ts";
import type { ReviewCommandIo } from "../io.ts";
import { openReviewSession, type ReviewSession } from "../reviews-source.ts";

export interface SessionOptions {
  db?: string;
  reviews?: string;
  run?: string;
  memoryLimit?: string;
}

export interface WalkCliOptions extends SessionOptions {
  reviewer?: string;
  context: string;
  includeExcluded?: boolean;
  comparison?: string;
  sameForSiblings?: string;
}

export interface SetCliOptions extends SessionOptions {
  simulation: string;
  path?: string;
  cause?: string;
  grader?: string;
  verdict: string;
  reason: string;
  reviewer?: string;
  date?: string;
}

export interface SampleCliOptions extends SessionOptions {
  comparison: string;
  n: string;
  seed: string;
  domain?: string;
  list?: boolean;
  reviewer?: string;
}

export interface ListCliOptions extends SessionOptions {
  json?: boolean;
}

async function inSession<T>(
  experiment: string,
  opts: SessionOptions,
  io: ReviewCommandIo,
  body: (s: ReviewSession) => Promise<T>,
): Promise<T> {
  // Each review is written to the file when given: an interrupt loses none of them.
  const removeHandlers = onInterrupt(
    () => {},
    () => "every review given so far is saved",
    io,
  );
  try {
    const session = await openReviewSession(experiment, opts);
    if (session.store.readOnly)
      io.stderr.write(
        printable(
          `${session.exp.output} is open in another process (a tau-rescore view?): read read-only; reviews are written to ${session.exp.reviewsFile}, and into the store at its next run or review`,
        ) + "\n",
      );
    try {
      return await body(session);
    } finally {
      session.store.close();
    }
  } finally {
    removeHandlers();
  }
}

/** Lines from stdin, one per answer; works the same from a terminal or a pipe. */
function lineReader(io: ReviewCommandIo) {
  const rl = createInterface({ input: io.stdin, crlfDelay: Number.POSITIVE_INFINITY });
  const lines = rl[Symbol.asyncIterator]();
  return {
    ask: async (prompt: string) => {
      io.stdout.write(prompt);
      const next = await lines.next();
      return next.done === true ? null : next.value;
    },
    close: () => rl.close(),
  };
}

/**
 * How the walk answers "the same verdict and reason for the other N <kind> cause(s)…?": as
 * --same-for-siblings says; without it, asked when stdin is a terminal, and taken as no (said once) when
 * it is not, so piped answers are never read as that question's.
 */
function siblingsPolicy(
  flag: string | undefined,
  io: ReviewCommandIo,
): { siblings: SiblingAnswer; onSiblingsAnswered?: () => void } {
  if (flag !== undefined) {
    if (!(SIBLING_ANSWERS as readonly string[]).includes(flag))
      throw new UsageError(
        `--same-for-siblings: one of ${SIBLING_ANSWERS.join(", ")}, not ${JSON.stringify(flag)}`,
      );
    return { siblings: flag as SiblingAnswer };
  }
  if ((io.stdin as { isTTY?: boolean }).isTTY === true) return { siblings: "ask" };
  let said = false;
  return {
    siblings: "no",
    onSiblingsAnswered: () => {
      if (said) return;
      said = true;
      io.stderr.write(
        "stdin is not a terminal: the other causes of one kind in a simulation are not offered the same verdict; each is asked on its own (--same-for-siblings yes|no|ask answers this)\n",
      );
    },
  };
}

/** Walks the flip causes without a review, asking a verdict for each on stdin. */
export function reviewWalk(experiment: string, opts: WalkCliOptions, io: ReviewCommandIo): Promise<void> {
  // Flags are checked before the session opens the store (it writes the reviews into it).
  const context = numberArg("--context", opts.context, LIMITS.reviewContext);
  const siblings = siblingsPolicy(opts.sameForSiblings, io);
  return inSession(experiment, opts, io, async (s) => {
    const reader = lineReader(io);
    const reviewer = opts.reviewer ?? reviewerDefault(io.env);
    try {
      const r = await walkReviews({
        store: s.store,
        experiment: s.exp.config.name,
        reviewsFile: s.exp.reviewsFile,
        io: { ask: reader.ask, write: (t) => io.stdout.write(t) },
        ...(reviewer === undefined ? {} : { reviewer }),
        date: io.today(),
        context,
        includeExcluded: opts.includeExcluded === true,
        ...(opts.comparison === undefined ? {} : { comparison: opts.comparison }),
        ...siblings,
      });
      const scope = opts.comparison === undefined ? "" : ` in ${opts.comparison}`;
      io.stderr.write(
        `\nreviewed ${r.reviewed}, skipped ${r.skipped}; ${r.remaining} flip cause(s) without a review${scope} (run ${s.run.run_id}) → ${s.exp.reviewsFile}\n`,
      );
    } finally {
      reader.close();
    }
  });
}

/** Draws a sample of both-pass simulations and walks those without a review (or lists the draw). */
export function reviewSample(experiment: string, opts: SampleCliOptions, io: ReviewCommandIo): Promise<void> {
  const request = {
    comparison: opts.comparison,
    n: numberArg("--n", opts.n, LIMITS.sampleSize),
    seed: numberArg("--seed", opts.seed, LIMITS.sampleSeed),
    ...(opts.domain === undefined ? {} : { domain: opts.domain }),
  };
  return inSession(experiment, opts, io, async (s) => {
    if (opts.list === true) {
      const draw = await drawSample(s.store, request);
      const reviews = new Map(
        (s.file.sampled ?? [])
          .filter((e) => e.comparison === request.comparison)
          .map((e) => [e.fingerprint, e]),
      );
      for (const d of draw.simulations) {
        const r = reviews.get(d.fingerprint);
        io.stdout.write(
          printable(
            `${d.domain ?? "?"}\t${d.rank}\t${r?.verdict ?? "-"}\t${d.simulation_id ?? "?"}\t${d.path}\ttask ${d.task_id ?? "?"}${d.trial === null ? "" : ` trial ${d.trial}`}\t${d.fingerprint}`,
          ) + "\n",
        );
      }
      io.stderr.write(
        printable(
          `${request.comparison}, seed ${request.seed}: ${draw.domains.map((d) => `${d.domain ?? "?"} ${d.drawn} of ${d.both_pass}`).join(", ")} both-pass simulations drawn; ${draw.simulations.filter((d) => reviews.has(d.fingerprint)).length} reviewed (run ${s.run.run_id})`,
        ) + "\n",
      );
      return;
    }
    const reader = lineReader(io);
    const reviewer = opts.reviewer ?? reviewerDefault(io.env);
    try {
      const r = await walkSample({
        store: s.store,
        experiment: s.exp.config.name,
        reviewsFile: s.exp.reviewsFile,
        io: { ask: reader.ask, write: (t) => io.stdout.write(t) },
        request,
        ...(reviewer === undefined ? {} : { reviewer }),
        date: io.today(),
        ...(s.exp.dataDir === null ? {} : { dataDir: s.exp.dataDir }),
        policiesDir: s.exp.policiesDir,
      });
      io.stderr.write(
        printable(
          `\nreviewed ${r.reviewed}, skipped ${r.skipped}; ${r.alreadyReviewed} already reviewed; ${r.remaining} of ${r.drawn} drawn without a review in ${request.comparison} (seed ${request.seed}, run ${s.run.run_id}) → ${s.exp.reviewsFile}`,
        ) + "\n",
      );
    } finally {
      reader.close();
    }
  });
}

/** Records one review. */
export function reviewSet(experiment: string, opts: SetCliOptions, io: ReviewCommandIo): Promise<void> {
  if (!(REVIEW_VERDICTS as readonly string[]).includes(opts.verdict))
    throw new UsageError(
      `--verdict: one of ${REVIEW_VERDICTS.join(", ")}, not ${JSON.stringify(opts.verdict)}`,
    );
  return inSession(experiment, opts, io, async (s) => {
    const reviewer = opts.reviewer ?? reviewerDefault(io.env);
    const entries = await resolveReview(s.store, {
      simulation: opts.simulation,
      ...(opts.path === undefined ? {} : { path: opts.path }),
      ...(opts.cause === undefined ? {} : { cause: opts.cause }),
      ...(opts.grader === undefined ? {} : { grader: opts.grader }),
      verdict: opts.verdict as ReviewVerdict,
      reason: opts.reason,
      ...(reviewer === undefined ? {} : { reviewer }),
      date: opts.date ?? io.today(),
    });
    const said: string[] = [];
    const file = updateReviewFile(s.exp.reviewsFile, (now) => {
      said.length = 0;
      let file = now;
      for (const entry of entries) {
        const next = upsertReview(file, entry);
        file = next.file;
        said.push(
          `${next.replaced ? "replaced" : "added"}: ${entry.verdict} for ${entry.kind}:${entry.reference} (${entry.grader}) of simulation ${entry.simulation_id ?? "?"} in ${entry.path ?? "?"} → ${s.exp.reviewsFile}`,
        );
      }
      return file;
    });
    for (const line of said) io.stderr.write(`${printable(line)}\n`);
    await saveReviews(s.store, s.exp.config.name, file.reviews, file.sampled);
  });
}

/** One review as `review list` prints it: a head line (kind, verdict, what it judges, where), then indented lines. */
function listedText(r: ListedReview): string {
  const stale = r.stale ? "STALE " : "";
  const by = `    ${r.reason}${r.reviewer === null ? "" : ` — ${r.reviewer}`}${r.date === null ? "" : `, ${r.date}`}`;
  if (r.kind === "flip")
    return [
      `flip    ${stale}${r.verdict}  ${r.cause} (${r.grader})  ${r.simulation_id ?? "?"}  ${r.path ?? "?"}${r.stale ? `  [${r.stale_reason}]` : ""}`,
      ...(r.stale
        ? []
        : [`    flips in: ${r.comparisons.join(", ") || "none (not a flip cause in this run)"}`]),
      by,
    ].join("\n");
  return [
    `sample  ${stale}${r.verdict}  ${r.comparison} (seed ${r.seed})  ${r.domain ?? "?"}  ${r.simulation_id ?? "?"}  ${r.path ?? "?"}${r.stale ? `  [${r.stale_reason}]` : r.excluded ? "  [excluded]" : ""}`,
    by,
  ].join("\n");
}

/** Prints every review (flip reviews, then sampled ones) and whether it is stale; the counts go to stderr. */
export function reviewListCommand(
  experiment: string,
  opts: ListCliOptions,
  io: ReviewCommandIo,
): Promise<void> {
  return inSession(experiment, opts, io, async (s) => {
    const list = await listedReviews(s.store);
    if (opts.json === true) {
      io.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
      return;
    }
    // One write, each line ending in a newline: the summary on stderr starts a line of its own.
    if (list.length > 0) io.stdout.write(`${printable(list.map(listedText).join("\n"))}\n`);
    const count = (kind: ListedReview["kind"]) => {
      const of = list.filter((r) => r.kind === kind);
      return `${of.length} ${kind === "flip" ? "flip" : "sampled"} review(s), ${of.filter((r) => r.stale).length} stale`;
    };
    io.stderr.write(printable(`${count("flip")}; ${count("sample")} (run ${s.run.run_id})`) + "\n");
  });
}
