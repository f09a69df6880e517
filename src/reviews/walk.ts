/**
 * `tau-rescore review`: walks the flip causes that have no applied review, one at a time: those of every
 * comparison, each once, or those of one comparison. Each answer is written to the reviews file at once
 * (nothing is lost when the walk is stopped), and the store's copy of the reviews is refreshed at the
 * end. Reads answers line by line, so a script can pipe them in.
 */
import { runComparisons } from "../analysis/run.ts";
import type { VerdictStore } from "../store/store.ts";
import {
  type ReviewEntry,
  type ReviewFile,
  type ReviewVerdict,
  readReviewFile,
  reviewEntrySchema,
  upsertReview,
} from "./file.ts";
import { updateReviewFile } from "./lock.ts";
import {
  conversationOf,
  evidenceOf,
  type ReviewTarget,
  taskOf,
  unreviewedTargets,
  writeMessages,
} from "./queries.ts";
import { ReviewError } from "./resolve.ts";
import { saveReviews } from "./store.ts";
import { printable, renderTarget } from "./terminal.ts";

export interface ReviewIo {
  /** One line of input after printing `prompt`; null at the end of the input. */
  ask(prompt: string): Promise<string | null>;
  write(text: string): void;
}

export interface WalkOptions {
  readonly store: VerdictStore;
  readonly experiment: string;
  readonly reviewsFile: string;
  readonly io: ReviewIo;
  readonly reviewer?: string;
  /** Written into each review (YYYY-MM-DD); the command line passes today's date. */
  readonly date?: string;
  /** Messages shown around each evidence turn. */
  readonly context?: number;
  /** Also walk flips in files the experiment excludes. */
  readonly includeExcluded?: boolean;
  /** Walk only the flips of this comparison (by name); default every comparison's. */
  readonly comparison?: string;
  /**
   * The question after a review when the simulation has other unreviewed flip causes of the same kind
   * ("the same verdict and reason for the other N <kind> cause(s) of this simulation? [y/N]"): `ask` (the
   * default) asks it; `yes` gives them this verdict and reason; `no` leaves each to be asked on its own.
   */
  readonly siblings?: SiblingAnswer;
  /** Called each time `siblings` answers that question without asking it. */
  readonly onSiblingsAnswered?: (answer: "yes" | "no") => void;
}

export const SIBLING_ANSWERS = ["ask", "yes", "no"] as const;
export type SiblingAnswer = (typeof SIBLING_ANSWERS)[number];

export interface WalkSummary {
  readonly reviewed: number;
  readonly skipped: number;
  /** Flip causes still without a review after the walk. */
  readonly remaining: number;
}

const ANSWERS: Record<string, ReviewVerdict | "skip" | "quit"> = {
  c: "confirmed",
  confirmed: "confirmed",
  f: "false_positive",
  fp: "false_positive",
  false_positive: "false_positive",
  u: "unclear",
  unclear: "unclear",
  s: "skip",
  skip: "skip",
  q: "quit",
  quit: "quit",
};

const targetKey = (t: Pick<ReviewTarget, "sim_key" | "grader" | "kind" | "reference">) =>
  `${t.sim_key}\u0000${t.grader}\u0000${t.kind}\u0000${t.reference}`;
/** A cause whatever grader fails on it: whether it is a real violation does not depend on the grader. */
const causeKey = (t: Pick<ReviewTarget, "sim_key" | "kind" | "reference">) =>
  `${t.sim_key}\u0000${t.kind}\u0000${t.reference}`;

/** Asks until the answer is one of `answers` (by its word or first letter); end of input is "quit". */
export async function askAnswer<T>(
  io: ReviewIo,
  prompt: string,
  answers: Readonly<Record<string, T | "quit">>,
): Promise<T | "quit"> {
  for (;;) {
    const line = await io.ask(prompt);
    if (line === null) return "quit";
    const answer = answers[line.trim().toLowerCase()];
    if (answer !== undefined) return answer;
    io.write(`  not an answer: ${printable(JSON.stringify(line.trim()))}\n`);
  }
}

const askVerdict = (io: ReviewIo) =>
  askAnswer(io, "verdict? [c]onfirmed, [f]alse positive, [u]nclear, [s]kip, [q]uit: ", ANSWERS);

async function askReason(io: ReviewIo): Promise<string | null> {
  for (;;) {
    const line = await io.ask("reason (cite the turns): ");
    if (line === null) return null;
    if (line.trim() !== "") return line.trim();
    io.write("  a review needs a reason\n");
  }
}

function entryFor(t: ReviewTarget, verdict: ReviewVerdict, reason: string, o: WalkOptions): ReviewEntry {
  return reviewEntrySchema.parse({
    fingerprint: t.fingerprint,
    simulation_id: t.simulation_id,
    path: t.path,
    grader: t.grader,
    kind: t.kind,
    reference: t.reference,
    verdict,
    reason,
    ...(o.reviewer === undefined ? {} : { reviewer: o.reviewer }),
    ...(o.date === undefined ? {} : { date: o.date }),
  });
}

/** Refuses a comparison the run does not have, naming those it has. */
async function checkComparison(store: VerdictStore, name: string | undefined): Promise<void> {
  if (name === undefined) return;
  const known = (await runComparisons(store)).map((c) => c.comparison);
  if (!known.includes(name))
    throw new ReviewError(
      `--comparison: no comparison ${JSON.stringify(name)} in the run; its comparisons: ${known.join(", ") || "none"}`,
    );
}

export async function walkReviews(o: WalkOptions): Promise<WalkSummary> {
  const { store, io } = o;
  await checkComparison(store, o.comparison);
  const scope = {
    includeExcluded: o.includeExcluded === true,
    ...(o.comparison === undefined ? {} : { comparison: o.comparison }),
  };
  const targets = await unreviewedTargets(store, scope);
  let file: ReviewFile = readReviewFile(o.reviewsFile);
  const done = new Set<string>();
  let reviewed = 0;
  let skipped = 0;
  // One question per cause: the same cause failing two graders (in two comparisons) is one judgment.
  const questions = targets.filter((t, i) => targets.findIndex((u) => causeKey(u) === causeKey(t)) === i);
  if (questions.length === 0)
    io.write(
      `every flip cause${o.comparison === undefined ? "" : ` of ${printable(o.comparison)}`} has a review\n`,
    );
  for (const [i, t] of questions.entries()) {
    if (done.has(targetKey(t))) continue;
    io.write(
      renderTarget({
        target: t,
        position: { index: i + 1, total: questions.length },
        evidence: await evidenceOf(store, t),
        task: await taskOf(store, t.sim_key),
        messages: await conversationOf(store, t.sim_key),
        writes: await writeMessages(store, t.sim_key),
        context: o.context ?? 3,
      }),
    );
    const verdict = await askVerdict(io);
    if (verdict === "quit") break;
    if (verdict === "skip") {
      skipped++;
      continue;
    }
    const reason = await askReason(io);
    if (reason === null) break;
    // The same cause failing another grader is the same judgment: it takes this verdict without asking.
    const batch = targets.filter((s) => causeKey(s) === causeKey(t) && !done.has(targetKey(s)));
    // Causes of one kind in one simulation often share a root (three fields of one wrong reservation).
    const siblings = targets.filter(
      (s) =>
        s.sim_key === t.sim_key &&
        s.kind === t.kind &&
        s.reference !== t.reference &&
        !done.has(targetKey(s)),
    );
    if (siblings.length > 0) {
      const references = [...new Set(siblings.map((s) => s.reference))];
      const policy = o.siblings ?? "ask";
      let same: boolean;
      if (policy === "ask") {
        const answer = await io.ask(
          printable(
            `the same verdict and reason for the other ${references.length} ${t.kind} cause(s) of this simulation (${references.join(", ")})? [y/N]: `,
          ),
        );
        same = answer !== null && /^y(es)?$/i.test(answer.trim());
      } else {
        same = policy === "yes";
        o.onSiblingsAnswered?.(policy);
      }
      if (same) batch.push(...siblings);
    }
    file = updateReviewFile(o.reviewsFile, (now) =>
      batch.reduce((f, b) => upsertReview(f, entryFor(b, verdict, reason, o)).file, now),
    );
    for (const b of batch) done.add(targetKey(b));
    reviewed += new Set(batch.map(causeKey)).size;
    io.write(`  saved ${batch.length} review(s) to ${o.reviewsFile}\n`);
  }
  await saveReviews(store, o.experiment, file.reviews, file.sampled);
  const left = await unreviewedTargets(store, scope);
  const remaining = new Set(left.map(causeKey)).size;
  return { reviewed, skipped, remaining };
}
