/**
 * What `grade` writes for the files it grades: JSON lines or table rows, and a line per problem. The
 * same code writes them in this thread and, for grader modules, in a grading thread, which hands a
 * file's lines back whole for this thread to write in file order.
 */
import { NO_SIMULATIONS } from "../../formats/file-warnings.ts";
import { jsonLine, type ModuleGraderWatch } from "../../pipeline/grade.ts";
import { type GradeFilesSink, type GradeFilesSummary, gradeOneFile } from "../../pipeline/grade-files.ts";
import type { FileDeps, FileJob } from "../../pipeline/process-file.ts";
import type { ThreadTask } from "../../pipeline/thread-protocol.ts";
import { emptyFileRow, tableWriter } from "./grade-table.ts";

export type GradeFormat = "jsonl" | "table";

/** Where the lines go, each without its newline: the output, and the problems (stderr). */
export interface GradeLines {
  out(line: string): void;
  problem(line: string): void;
}

/** `grade`'s sink in `format`; `flush` writes the table rows it holds back (a run of same-reason errors). */
export function gradeSink(format: GradeFormat, lines: GradeLines): GradeFilesSink & { flush(): void } {
  const table = tableWriter((line) => lines.out(line));
  return {
    simulation: (g) => (format === "jsonl" ? lines.out(JSON.stringify(jsonLine(g))) : table.simulation(g)),
    problem: (line) => {
      table.flush();
      lines.problem(line);
    },
    emptyFile: (path) =>
      lines.out(
        format === "jsonl"
          ? JSON.stringify({ file: path, simulations: 0, error: NO_SIMULATIONS })
          : emptyFileRow(path, NO_SIMULATIONS),
      ),
    flush: () => table.flush(),
  };
}

/** One file's lines, graded in a grading thread. */
export interface FileLines {
  readonly path: string;
  readonly out: readonly string[];
  readonly problems: readonly string[];
  readonly summary: GradeFilesSummary;
}

async function fileLines(
  format: GradeFormat,
  job: FileJob,
  deps: FileDeps,
  watch: ModuleGraderWatch,
): Promise<FileLines> {
  const out: string[] = [];
  const problems: string[] = [];
  const sink = gradeSink(format, { out: (l) => out.push(l), problem: (l) => problems.push(l) });
  const grading = job.overdue === undefined ? { watch } : { watch, overdue: job.overdue };
  const summary = await gradeOneFile(job.full, deps.dataDir, deps.pool, deps.settings, sink, grading);
  sink.flush();
  return { path: job.path, out, problems, summary };
}

/** The `FileTask`s a grading thread runs for `grade` (`gradeInWorkers`' `perFile`). */
export const jsonlFileLines = (job: FileJob, deps: FileDeps, watch: ModuleGraderWatch) =>
  fileLines("jsonl", job, deps, watch);
export const tableFileLines = (job: FileJob, deps: FileDeps, watch: ModuleGraderWatch) =>
  fileLines("table", job, deps, watch);

export const FILE_LINES_TASK: Readonly<Record<GradeFormat, ThreadTask>> = {
  jsonl: { module: import.meta.url, name: "jsonlFileLines" },
  table: { module: import.meta.url, name: "tableFileLines" },
};
