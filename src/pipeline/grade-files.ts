/**
 * `grade`'s loop over trajectory files: each file loaded, checked and graded in turn, its simulations
 * handed on as they are graded. A file that cannot be loaded is counted and the loop goes on.
 */
import { errorCauseLine, fileWarnings, NO_SIMULATIONS } from "../formats/file-warnings.ts";
import { loadJsonFile } from "../formats/load.ts";
import { detectTaskVersion } from "../formats/task-version.ts";
import { terminalSafe } from "../formats/terminal-text.ts";
import type { ContextPool } from "./contexts.ts";
import {
  type FileGrading,
  type GradedSimulation,
  type GradeSettings,
  gradeFile,
  judgeLookahead,
  prefetchFileAt,
} from "./grade.ts";

export interface GradeFilesSink {
  /** One graded simulation, in file order. */
  simulation(g: GradedSimulation): void;
  /** A file that was skipped or a warning about one, as one line (terminal-safe). */
  problem(line: string): void;
  /** A trajectory file that holds no simulations: said, never left out. */
  emptyFile(path: string): void;
}

/** One line per cause of a file's ungraded simulations, with the count: not one per simulation. */
export function errorCauseLines(path: string, errors: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const e of errors) counts.set(e, (counts.get(e) ?? 0) + 1);
  return [...counts].map(([e, n]) => errorCauseLine(path, n, e));
}

export interface GradeFilesSummary {
  readonly trajectoryFiles: number;
  readonly failedFiles: number;
  /** Simulations that could not be graded (their rows carry an `error`). */
  readonly errorRows: number;
}

export async function gradeFiles(
  files: readonly string[],
  dataDir: string,
  pool: ContextPool,
  settings: GradeSettings,
  sink: GradeFilesSink,
): Promise<GradeFilesSummary> {
  const total = { trajectoryFiles: 0, failedFiles: 0, errorRows: 0 };
  // A live judge starts on the next files while one is graded (its limiter bounds the requests).
  const ahead = judgeLookahead(files.length, (i) => prefetchFileAt(files[i] as string, pool, settings));
  for (const [i, path] of files.entries()) {
    ahead(i);
    const one = await gradeOneFile(path, dataDir, pool, settings, sink);
    total.trajectoryFiles += one.trajectoryFiles;
    total.failedFiles += one.failedFiles;
    total.errorRows += one.errorRows;
  }
  return total;
}

/**
 * One file of `gradeFiles`; `grading` is a grading thread's watchdog (`FileTask`): told when a grader
 * module grades, and the simulations it gave no verdict on before.
 */
export async function gradeOneFile(
  path: string,
  dataDir: string,
  pool: ContextPool,
  settings: GradeSettings,
  sink: GradeFilesSink,
  grading: Pick<FileGrading, "watch" | "overdue"> = {},
): Promise<GradeFilesSummary> {
  let loaded: ReturnType<typeof loadJsonFile>;
  try {
    loaded = loadJsonFile(path);
  } catch (e) {
    sink.problem(terminalSafe((e as Error).message));
    return { trajectoryFiles: 0, failedFiles: 1, errorRows: 0 };
  }
  if (loaded.variant === "not-trajectories") {
    sink.problem(`${terminalSafe(path)}: not a trajectory file: ${loaded.reason}`);
    return { trajectoryFiles: 0, failedFiles: 0, errorRows: 0 };
  }
  for (const w of fileWarnings(loaded, path)) sink.problem(terminalSafe(w));
  const version = detectTaskVersion(loaded, dataDir);
  if (loaded.simulations.length === 0 && loaded.rejected.length === 0) {
    sink.problem(`${terminalSafe(path)}: ${NO_SIMULATIONS}`);
    sink.emptyFile(path);
    return { trajectoryFiles: 1, failedFiles: 0, errorRows: 0 };
  }
  const errors: string[] = [];
  const warn = (line: string) => sink.problem(terminalSafe(line));
  for await (const g of gradeFile(loaded, version, pool, settings, { ...grading, warn })) {
    if (g.row.error !== undefined) errors.push(g.row.error);
    sink.simulation(g);
  }
  for (const line of errorCauseLines(path, errors)) sink.problem(terminalSafe(line));
  return { trajectoryFiles: 1, failedFiles: 0, errorRows: errors.length };
}
