/** The census as a readable table, next to the published claims it tests. */
import { graderOf, isGraderId } from "../graders/registry.ts";
import type { CensusRow } from "./census.ts";

const pad = (s: string | number, n: number) => String(s).padEnd(n);

const graderLabel = (id: string): string => (isGraderId(id) ? graderOf(id).label : id);

function table(rows: readonly CensusRow[]): string[] {
  const head = ["domain", "task_version", "kind", "grader", "tasks", "pass", "unknown", "disagree", "errors"];
  const cells = rows.map((r) => [
    r.domain,
    r.task_version,
    r.kind,
    r.grader,
    r.tasks,
    r.pass,
    r.unknown,
    r.disagreements.length,
    r.errors.length,
  ]);
  // Each column as wide as its widest cell (domain names run from "mock" to "banking_knowledge").
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => String(c[i]).length)) + 1);
  const line = (row: readonly (string | number)[]) =>
    row
      .map((c, i) => pad(c, widths[i] ?? 8))
      .join(" ")
      .trimEnd();
  return [line(head), ...cells.map(line)];
}

/** Disagreements grouped by cause, so 93 identical delta-gate hits read as one line. */
function causes(rows: readonly CensusRow[]): string[] {
  const out: string[] = [];
  const aborted = new Set<string>();
  for (const r of rows) {
    const byCause = new Map<string, string[]>();
    const add = (cause: string, id: string) => byCause.set(cause, [...(byCause.get(cause) ?? []), id]);
    for (const d of r.disagreements) add(`${r.grader}: ${d.cause}`, d.task_id);
    // Every grader's row lists the same aborted gradings: said once per probe kind.
    const probe = `${r.domain} ${r.task_version} ${r.kind}`;
    if (!aborted.has(probe)) for (const e of r.errors) add(`aborted: ${e.error}`, e.task_id);
    aborted.add(probe);
    for (const [cause, ids] of byCause) {
      const shown = ids.length > 3 ? `${ids.slice(0, 3).join(", ")}, … (${ids.length})` : ids.join(", ");
      out.push(`  ${probe}: ${cause} — ${shown}`);
    }
  }
  return out;
}

/**
 * Each grader's passes on the rows `pick` selects, per task set: `τ³ 23 of 50; structured 0 of 50`
 * (a label may hold a comma: "structured, strict gate").
 */
function passes(rows: readonly CensusRow[], pick: (r: CensusRow) => boolean): Map<string, string> {
  const out = new Map<string, string[]>();
  for (const r of rows.filter(pick))
    out.set(r.task_version, [
      ...(out.get(r.task_version) ?? []),
      `${graderLabel(r.grader)} ${r.pass} of ${r.tasks}`,
    ]);
  return new Map([...out].map(([version, each]) => [version, each.join("; ")]));
}

function claims(rows: readonly CensusRow[]): string[] {
  const out: string[] = [];
  const nullAgent = passes(rows, (r) => r.domain === "airline" && r.kind === "null-agent");
  for (const [version, each] of nullAgent)
    out.push(
      `  airline ${version}: a null agent passes ${each} tasks (issue: 22–24 of 50 airline tasks have no DB write)`,
    );
  const forbidden = passes(rows, (r) => r.domain === "telecom" && r.kind === "extra-forbidden-write");
  for (const [version, each] of forbidden)
    out.push(
      `  telecom ${version}: a policy-forbidden DB write passes ${each} probed tasks (no DB in their reward basis)`,
    );
  return out;
}

export function formatCensus(rows: readonly CensusRow[]): string {
  return [
    ...table(rows),
    "",
    "Disagreements with the grader each is compared with (it passes, this one fails, unless noted), and aborted gradings:",
    ...causes(rows),
    "",
    "Published claims, measured:",
    ...claims(rows),
    "",
  ].join("\n");
}
