/** The census as a readable table, next to the published claims it tests. */
import type { CensusRow } from "./census.ts";

const pad = (s: string | number, n: number) => String(s).padEnd(n);

function table(rows: readonly CensusRow[]): string[] {
  const head = [
    "domain",
    "task_version",
    "kind",
    "tasks",
    "tau3",
    "structured",
    "disagree",
    "unknown",
    "s.unknown",
    "errors",
  ];
  const cells = rows.map((r) => [
    r.domain,
    r.task_version,
    r.kind,
    r.tasks,
    r.tau3_pass,
    r.structured_pass,
    r.disagreements.length,
    r.tau3_unknown,
    r.structured_unknown,
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
  for (const r of rows) {
    const byCause = new Map<string, string[]>();
    for (const d of r.disagreements) byCause.set(d.cause, [...(byCause.get(d.cause) ?? []), d.task_id]);
    for (const e of r.errors)
      byCause.set(`aborted: ${e.error}`, [...(byCause.get(`aborted: ${e.error}`) ?? []), e.task_id]);
    for (const [cause, ids] of byCause) {
      const shown = ids.length > 3 ? `${ids.slice(0, 3).join(", ")}, … (${ids.length})` : ids.join(", ");
      out.push(`  ${r.domain} ${r.task_version} ${r.kind}: ${cause} — ${shown}`);
    }
  }
  return out;
}

function claims(rows: readonly CensusRow[]): string[] {
  const out: string[] = [];
  for (const r of rows.filter((x) => x.domain === "airline" && x.kind === "null-agent")) {
    out.push(
      `  airline ${r.task_version}: a null agent passes τ³ on ${r.tau3_pass} of ${r.tasks} tasks ` +
        "(issue: 22–24 of 50 airline tasks have no DB write)",
    );
  }
  for (const r of rows.filter((x) => x.domain === "telecom" && x.kind === "extra-forbidden-write")) {
    out.push(
      `  telecom ${r.task_version}: a policy-forbidden DB write passes τ³ on ${r.tau3_pass} of ${r.tasks} probed tasks ` +
        `(no DB in their reward basis); the structured grader fails ${r.tasks - r.structured_pass}`,
    );
  }
  return out;
}

export function formatCensus(rows: readonly CensusRow[]): string {
  return [
    ...table(rows),
    "",
    "Disagreements (τ³ passes, structured fails unless noted) and aborted gradings:",
    ...causes(rows),
    "",
    "Published claims, measured:",
    ...claims(rows),
    "",
  ].join("\n");
}
