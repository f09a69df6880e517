/**
 * `tau-rescore review <experiment>` walks the unreviewed flip causes in the terminal; `review set`
 * records one verdict for scripts; `review list` prints every review with whether it is stale. Reviews
 * are matched against the selected run of the experiment's store, and written to its reviews file.
 */
import { createInterface } from "node:readline";
import type { Command } from "commander";
import { REVIEW_VERDICTS, type ReviewVerdict, upsertReview, writeReviewFile } from "../../reviews/file.ts";
import { reviewList } from "../../reviews/queries.ts";
import { ReviewError, resolveReview } from "../../reviews/resolve.ts";
import { saveReviews } from "../../reviews/store.ts";
import { printable } from "../../reviews/terminal.ts";
import { walkReviews } from "../../reviews/walk.ts";
import { LIMITS } from "../../util/limits.ts";
import { numberArg } from "../args.ts";
import { reviewerDefault } from "../env.ts";
import { UsageError } from "../errors.ts";
import { onInterrupt } from "../interrupt.ts";
import { MEMORY_LIMIT_OPTION } from "../memory-limit.ts";
import { openReviewSession, type ReviewSession } from "../reviews-source.ts";

interface Output {
  write(chunk: string): unknown;
}

export interface ReviewCommandIo {
  readonly stdin: NodeJS.ReadableStream;
  readonly stdout: Output;
  readonly stderr: Output;
  readonly env: NodeJS.ProcessEnv;
  /** Today as YYYY-MM-DD (the date a review is recorded with). */
  readonly today: () => string;
}

const defaultIo: ReviewCommandIo = {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  today: () => new Date().toISOString().slice(0, 10),
};

interface SessionOptions {
  db?: string;
  reviews?: string;
  run?: string;
  memoryLimit?: string;
}

const withSessionOptions = (c: Command): Command =>
  c
    .argument(
      "<experiment>",
      "experiment config (JSON); its reviews file is `reviews` (default reviews/<name>.json)",
    )
    .option("--db <file>", "the experiment's DuckDB file (default: its `output`)")
    .option("--reviews <file>", "reviews file, replacing the experiment's")
    .option("--run <id>", "the run to match reviews against (default: the latest completed run)")
    .option(...MEMORY_LIMIT_OPTION);

async function inSession<T>(
  experiment: string,
  opts: SessionOptions,
  body: (s: ReviewSession) => Promise<T>,
): Promise<T> {
  // Each review is written to the file when given: an interrupt loses none of them.
  const removeHandlers = onInterrupt(
    () => {},
    () => "every review given so far is saved",
  );
  try {
    const session = await openReviewSession(experiment, opts);
    try {
      return await body(session);
    } catch (e) {
      throw e instanceof ReviewError ? new UsageError(e.message) : e;
    } finally {
      session.store.close();
    }
  } finally {
    removeHandlers();
  }
}

interface WalkCliOptions extends SessionOptions {
  reviewer?: string;
  context: string;
  includeExcluded?: boolean;
}

interface SetCliOptions extends SessionOptions {
  simulation: string;
  path?: string;
  cause?: string;
  grader?: string;
  verdict: string;
  reason: string;
  reviewer?: string;
  date?: string;
}

interface ListCliOptions extends SessionOptions {
  json?: boolean;
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

export function registerReviewCommand(program: Command, io: ReviewCommandIo = defaultIo): void {
  const review = program
    .command("review")
    .description("review flips: walk them in the terminal, set one verdict, or list the reviews");

  withSessionOptions(
    review
      .command("walk", { isDefault: true })
      .description(
        "walk the flip causes without a review: shows each with its evidence and conversation, asks a verdict and a reason, and saves each answer at once",
      ),
  )
    .option("--reviewer <name>", "recorded with each review (default $TAU_RESCORE_REVIEWER)")
    .option("--context <n>", "messages shown around each evidence turn", "3")
    .option("--include-excluded", "also walk flips in files the experiment excludes")
    .action((experiment: string, opts: WalkCliOptions) => {
      // Flags are checked before the session opens the store (it writes the reviews into it).
      const context = numberArg("--context", opts.context, LIMITS.reviewContext);
      return inSession(experiment, opts, async (s) => {
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
          });
          io.stderr.write(
            `\nreviewed ${r.reviewed}, skipped ${r.skipped}; ${r.remaining} flip cause(s) without a review (run ${s.run.run_id}) → ${s.exp.reviewsFile}\n`,
          );
        } finally {
          reader.close();
        }
      });
    });

  withSessionOptions(review.command("set").description("record one review (for scripts)"))
    .requiredOption("--simulation <id>", "the simulation's id in its trajectory file")
    .option("--path <path>", "its file, relative to the corpus root (when the id is in several files)")
    .option("--cause <kind:reference>", "the cause (default: the simulation's only flip cause)")
    .option("--grader <id>", "the grader whose cause it is (when several report it)")
    .requiredOption("--verdict <verdict>", REVIEW_VERDICTS.join(" | "))
    .requiredOption("--reason <text>", "why (cite the turns)")
    .option("--reviewer <name>", "default $TAU_RESCORE_REVIEWER")
    .option("--date <YYYY-MM-DD>", "default today")
    .action((experiment: string, opts: SetCliOptions) => {
      if (!(REVIEW_VERDICTS as readonly string[]).includes(opts.verdict))
        throw new UsageError(
          `--verdict: one of ${REVIEW_VERDICTS.join(", ")}, not ${JSON.stringify(opts.verdict)}`,
        );
      return inSession(experiment, opts, async (s) => {
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
        let file = s.file;
        for (const entry of entries) {
          const next = upsertReview(file, entry);
          file = next.file;
          io.stderr.write(
            printable(
              `${next.replaced ? "replaced" : "added"}: ${entry.verdict} for ${entry.kind}:${entry.reference} (${entry.grader}) of simulation ${entry.simulation_id ?? "?"} in ${entry.path ?? "?"} → ${s.exp.reviewsFile}`,
            ) + "\n",
          );
        }
        writeReviewFile(s.exp.reviewsFile, file);
        await saveReviews(s.store, s.exp.config.name, file.reviews);
      });
    });

  withSessionOptions(review.command("list").description("every review, and whether it is stale in the run"))
    .option(
      "--json",
      "a JSON list of {simulation_id, path, cause, grader, verdict, reason, reviewer, date, stale, stale_reason}",
    )
    .action((experiment: string, opts: ListCliOptions) =>
      inSession(experiment, opts, async (s) => {
        const list = await reviewList(s.store);
        if (opts.json === true) {
          io.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
          return;
        }
        for (const r of list)
          io.stdout.write(
            printable(
              `${r.stale ? "STALE " : ""}${r.verdict}  ${r.cause} (${r.grader})  ${r.simulation_id ?? "?"}  ${r.path ?? "?"}${r.stale ? `  [${r.stale_reason}]` : ""}\n    ${r.reason}${r.reviewer === null ? "" : ` — ${r.reviewer}`}${r.date === null ? "" : `, ${r.date}`}`,
            ) + "\n",
          );
        const stale = list.filter((r) => r.stale).length;
        io.stderr.write(`${list.length} review(s), ${stale} stale (run ${s.run.run_id})\n`);
      }),
    );
}
