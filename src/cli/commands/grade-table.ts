/** `grade --format table`: one tab-separated row per simulation. */
import { terminalSafe } from "../../formats/terminal-text.ts";
import { causeLabel } from "../../graders/causes.ts";
import type { GradedSimulation } from "../../pipeline/grade.ts";

export const tableHeader = () =>
  ["task", "trial", "term", "recorded", "tau3", "structured", "db", "basis", "file"].join("\t");

export function tableRow(g: GradedSimulation): string {
  const r = g.row;
  const t = g.tau3;
  const s = g.verdicts.structured;
  return [
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
  ]
    .map((cell) => terminalSafe(String(cell))) // ids and errors quote the corpus; a tab in one would shift columns
    .join("\t");
}
