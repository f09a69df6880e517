/**
 * `tau-rescore review <experiment>` walks the unreviewed flip causes (of every comparison, or of one
 * with --comparison) in the terminal; `review set`
 * records one verdict for scripts; `review list` prints every review (flip and sampled) with whether it is stale. Reviews
 * are matched against the selected run of the experiment's store, and written to its reviews file.
 */
import type { Command } from "commander";
import type { ReviewCommandIo } from "../io.ts";
import { MEMORY_LIMIT_OPTION } from "../memory-limit.ts";
import type { ListCliOptions, SampleCliOptions, SetCliOptions, WalkCliOptions } from "./review-command.ts";

const load = () => import("./review-command.ts");

/** The verdicts of a sampled review (`SAMPLE_VERDICTS` in reviews/file.ts), for the help text. */
export const SAMPLE_VERDICTS_HELP = "clean | missed | unclear";

/** The verdicts a review takes (`REVIEW_VERDICTS` in reviews/file.ts), for the help text. */
export const VERDICTS_HELP = "confirmed | false_positive | unclear";

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

export function registerReviewCommand(program: Command, io: ReviewCommandIo): void {
  const review = program
    .command("review")
    .description(
      "review flips: walk them in the terminal, set one verdict, or list the reviews; sample simulations both sides pass to measure what they miss",
    );

  withSessionOptions(
    review
      .command("walk", { isDefault: true })
      .description(
        "walk the flip causes without a review: shows each with the comparisons it flips, its evidence and conversation, asks a verdict and a reason, and saves each answer at once",
      ),
  )
    .option(
      "--comparison <name>",
      "walk only this comparison's flips (default: every comparison's, a cause several show once)",
    )
    .option("--reviewer <name>", "recorded with each review (default $TAU_RESCORE_REVIEWER)")
    .option("--context <n>", "messages shown around each evidence turn", "3")
    .option("--include-excluded", "also walk flips in files the experiment excludes")
    .option(
      "--same-for-siblings <answer>",
      'answers the question asked after a review when the simulation has other flip causes of the same kind, "the same verdict and reason for the other N <kind> cause(s) of this simulation (...)? [y/N]": yes (they take this verdict and reason), no (each is asked on its own) or ask (default: ask when stdin is a terminal, else no, said once on stderr)',
    )
    .action(async (experiment: string, opts: WalkCliOptions) =>
      (await load()).reviewWalk(experiment, opts, io),
    );

  withSessionOptions(review.command("set").description("record one review (for scripts)"))
    .requiredOption("--simulation <id>", "the simulation's id in its trajectory file")
    .option("--path <path>", "its file, relative to the corpus root (when the id is in several files)")
    .option("--cause <kind:reference>", "the cause (default: the simulation's only flip cause)")
    .option("--grader <id>", "the grader whose cause it is (when several report it)")
    .requiredOption("--verdict <verdict>", VERDICTS_HELP)
    .requiredOption("--reason <text>", "why (cite the turns)")
    .option("--reviewer <name>", "default $TAU_RESCORE_REVIEWER")
    .option("--date <YYYY-MM-DD>", "default today")
    .action(async (experiment: string, opts: SetCliOptions) =>
      (await load()).reviewSet(experiment, opts, io),
    );

  withSessionOptions(
    review
      .command("sample")
      .description(
        `draw simulations both sides of a comparison pass (the first N per domain in an order fixed by the seed) and walk them: shows each whole conversation, its task and policy, asks ${SAMPLE_VERDICTS_HELP} and a reason citing the turns, and saves each answer at once; simulations already reviewed are not asked again`,
      ),
  )
    .requiredOption("--comparison <name>", "the comparison whose both-pass simulations are drawn")
    .requiredOption("--n <count>", "simulations drawn per domain")
    .requiredOption("--seed <n>", "the draw's seed, recorded with each review (a non-negative integer)")
    .option("--domain <name>", "draw only in this domain")
    .option("--list", "print the drawn simulations and their reviews, without walking")
    .option("--reviewer <name>", "recorded with each review (default $TAU_RESCORE_REVIEWER)")
    .action(async (experiment: string, opts: SampleCliOptions) =>
      (await load()).reviewSample(experiment, opts, io),
    );

  withSessionOptions(
    review
      .command("list")
      .summary("every review (flip and sampled), and whether it is stale in the run")
      .description(
        "every review, and whether it is stale in the run: the flip reviews (kind flip, by file, simulation and cause), then the sampled reviews of review sample (kind sample, by comparison, seed, domain, file and simulation) with their comparison and seed; the counts on stderr",
      ),
  )
    .option(
      "--json",
      "a JSON list of the same rows: {kind: flip, simulation_id, path, cause, grader, verdict, reason, reviewer, date, stale, stale_reason, comparisons} and {kind: sample, simulation_id, path, comparison, seed, domain, verdict, reason, reviewer, date, stale, stale_reason, excluded}",
    )
    .action(async (experiment: string, opts: ListCliOptions) =>
      (await load()).reviewListCommand(experiment, opts, io),
    );
}

export type { ReviewCommandIo };
