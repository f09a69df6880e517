/**
 * Coverage of the curated set per domain and task version: how many candidates the scanner found,
 * how many a rule covers (its quote lies in the candidate sentence), how many were rejected with a
 * reason, and how many nobody has looked at yet. `unreviewed` and `stale` should both be zero.
 */
import type { DomainDef } from "../../../domains/domain.ts";
import { type LoadedFixture, loadRequirements } from "./load.ts";
import { reviewedCandidatesPath, reviewedFactsPath } from "./paths.ts";
import { instructionField, locateQuote } from "./quote.ts";
import { EVERY_TASK, loadReviewedCandidates, reviewKey } from "./reviewed.ts";
import { type Candidate, type CandidateKind, scanTask } from "./scan.ts";
import { SUGGESTED_KEY } from "./schema.ts";
import { taskSetsOf } from "./task-sets.ts";

export interface CoverageRow {
  readonly domain: string;
  readonly task_version: string;
  readonly tasks: number;
  readonly candidates: number;
  readonly rules: number;
  /** Candidates containing the quote of at least one rule. */
  readonly covered: number;
  /** Candidates with a reason in `_reviewed-candidates.json`. */
  readonly rejected: number;
  /** Candidates neither covered nor rejected. */
  readonly unreviewed: number;
  /** Review notes that match no current candidate (the task text or the scanner changed). */
  readonly stale: number;
}

export interface CoverageReport {
  readonly rows: readonly CoverageRow[];
  readonly unreviewed: readonly Candidate[];
  /** Problems reading fixtures or review files. */
  readonly problems: readonly string[];
}

/**
 * Prohibition candidates are covered by rules and reviewed in `_reviewed-candidates.json`; fact
 * candidates are covered by task facts and reviewed in `_reviewed-facts.json` (`rules` then counts facts).
 */
export function coverageReport(
  dataDir: string,
  dir: string,
  domains: readonly DomainDef[],
  kind: CandidateKind = "prohibitions",
): CoverageReport {
  const set = loadRequirements(dir);
  const problems = set.problems.map((p) => `${p.path}: ${p.message}`);
  const rows: CoverageRow[] = [];
  const unreviewed: Candidate[] = [];
  for (const domain of domains) {
    for (const tasks of taskSetsOf(dataDir, domain.name)) {
      const version = tasks.ref.name;
      const reviewPath = (kind === "facts" ? reviewedFactsPath : reviewedCandidatesPath)(
        dir,
        domain.name,
        version,
      );
      const review = loadReviewedCandidates(reviewPath);
      if (!review.ok) problems.push(`${reviewPath}: ${review.message}`);
      const notes = new Set(
        (review.ok ? review.entries : []).map((e) => reviewKey(e.task_id, e.field, e.sentence)),
      );
      const used = new Set<string>();
      let candidates = 0;
      let covered = 0;
      let rejected = 0;
      let rules = 0;
      for (const task of tasks.tasks) {
        const fixture = set.find(domain.name, version, task.id);
        rules +=
          kind === "facts"
            ? (fixture?.fixture.task_facts.length ?? 0)
            : (fixture?.fixture.user_preflight_requirements.action_preconditions.length ?? 0);
        for (const c of scanTask(task, domain, version, kind)) {
          candidates++;
          const own = reviewKey(c.task_id, c.field, c.sentence);
          const every = reviewKey(EVERY_TASK, c.field, c.sentence);
          const key = notes.has(own) ? own : notes.has(every) ? every : null;
          if (fixture !== undefined && coversCandidate(fixture, task, c, kind)) covered++;
          else if (key !== null) {
            rejected++;
            used.add(key);
          } else unreviewed.push(c);
        }
      }
      rows.push({
        domain: domain.name,
        task_version: version,
        tasks: tasks.tasks.length,
        candidates,
        rules,
        covered,
        rejected,
        unreviewed: candidates - covered - rejected,
        stale: [...notes].filter((k) => !used.has(k)).length,
      });
    }
  }
  return { rows, unreviewed, problems };
}

/** A rule (or fact) covers a candidate when its quote sits (at least partly) inside the candidate sentence. */
function coversCandidate(
  loaded: LoadedFixture,
  task: Parameters<typeof instructionField>[0],
  c: Candidate,
  kind: CandidateKind,
): boolean {
  // A suggested fact (`requirements new`) is not a reviewed one: its candidate stays unreviewed.
  const quoted =
    kind === "facts"
      ? loaded.fixture.task_facts.filter((f) => f[SUGGESTED_KEY] === undefined)
      : loaded.fixture.user_preflight_requirements.action_preconditions;
  return quoted.some((rule) => {
    if (rule.source_field !== c.field) return false;
    const loc = locateQuote(instructionField(task, c.field), rule.source_quote);
    return loc.found && loc.start < c.end && c.start < loc.end;
  });
}
