/**
 * `grade --format table`: one tab-separated row per simulation, but one row per cause for a file's
 * simulations that could not be graded for the same reason (`ERROR: 36 simulations: …`).
 */
import { terminalSafe } from "../../formats/terminal-text.ts";
import { causeLabel } from "../../graders/causes.ts";
import type { GradedSimulation } from "../../pipeline/grade.ts";

export const tableHeader = () =>
  ["task", "trial", "term", "recorded", "tau3", "structured", "db", "basis", "file"].join("\t");

const row = (cells: readonly unknown[]): string =>
  // ids and errors quote the corpus; a tab in one would shift columns
  cells.map((cell) => terminalSafe(String(cell))).join("\t");

/** The row of a file that holds no simulations. */
export const emptyFileRow = (path: string, why: string): string =>
  row(["-", "-", "-", "-", `ERROR: ${why}`, "-", "-", "-", path]);

/** Writes rows as simulations come, holding a file's run of same-reason errors back to write it as one. */
export function tableWriter(write: (line: string) => void): {
  simulation(g: GradedSimulation): void;
  flush(): void;
} {
  let held: { first: GradedSimulation; file: string; error: string; n: number } | null = null;
  const flush = () => {
    if (held === null) return;
    const { first, file, error, n } = held;
    held = null;
    write(
      n === 1
        ? tableRow(first)
        : row(["-", "-", "-", "-", `ERROR: ${n} simulations: ${error}`, "-", "-", "-", file]),
    );
  };
  return {
    simulation(g) {
      const error = g.row.error;
      if (held !== null && (error !== held.error || g.row.file !== held.file)) flush();
      if (error === undefined) write(tableRow(g));
      else if (held === null) held = { first: g, file: g.row.file, error, n: 1 };
      else held.n++;
    },
    flush,
  };
}

export function tableRow(g: GradedSimulation): string {
  const r = g.row;
  const t = g.tau3;
  const s = g.verdicts.structured;
  return row([
    r.task_id ?? "-",
    r.trial ?? "-",
    r.termination_reason ?? "-",
    r.recorded_reward ?? "-",
    r.error !== undefined ? `ERROR: ${r.error}` : (t?.reward ?? "unknown"),
    s === undefined
      ? "-"
      : s.pass === null
        ? "unknown"
        : s.pass
          ? "pass"
          : `FAIL(${s.causes
              .filter((c) => c.gates)
              .map(causeLabel)
              .join(",")})`,
    t?.db_match ?? "-",
    t?.basis?.join("+") ?? "-",
    r.file,
  ]);
}
