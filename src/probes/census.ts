/**
 * The blind-spot census: every probe kind over every task set of every domain, graded by both
 * graders. Every number comes from grading the probes, none from counting task metadata.
 */
import type { DomainName } from "../domains/domain.ts";
import { DOMAINS } from "../domains/registry.ts";
import { listTaskSets, type TaskSetRef } from "../formats/tasks.ts";
import { causeLabel } from "../graders/causes.ts";
import { PROBE_KINDS, type ProbeKind } from "./kind.ts";
import { type ProbeRun, type ProbeSetup, type ProbeVerdict, runProbe } from "./verdicts.ts";

export interface Disagreement {
  readonly task_id: string;
  readonly cause: string;
}

export interface CensusRow {
  readonly domain: string;
  readonly task_version: string;
  readonly kind: ProbeKind;
  /** Tasks probed (a kind may not apply to every task: see `skipped`). */
  readonly tasks: number;
  readonly tau3_pass: number;
  readonly structured_pass: number;
  /** Tasks where one grader passes and the other fails, with the structured grader's causes. */
  readonly disagreements: readonly Disagreement[];
  /** τ³ verdicts left unknown (an NL assertion in the basis and no judge). */
  readonly tau3_unknown: number;
  /** Structured verdicts left unknown (τ³ unknown and nothing else failing). */
  readonly structured_unknown: number;
  /** Simulations whose grading aborted (tau2 raises there too, e.g. an assertion on a missing record). */
  readonly errors: readonly { readonly task_id: string; readonly error: string }[];
}

/** Why the two verdicts differ, or null when they agree or either is unknown or aborted. */
export function disagreement(v: ProbeVerdict): string | null {
  if (v.error !== null) return null;
  const tau3 = v.tau3?.reward ?? null;
  const structured = v.structured?.pass ?? null;
  if (tau3 === null || structured === null) return null;
  if (tau3 === 1 && structured === false)
    return (
      v.structured?.causes
        .filter((c) => c.gates)
        .map(causeLabel)
        .join(" ") ?? "structured fails"
    );
  if (tau3 !== 1 && structured === true) return "structured passes what τ³ fails";
  return null;
}

export function censusRow(set: TaskSetRef, kind: ProbeKind, run: ProbeRun): CensusRow {
  const disagreements: Disagreement[] = [];
  for (const v of run.verdicts) {
    const cause = disagreement(v);
    if (cause !== null) disagreements.push({ task_id: v.task_id, cause });
  }
  return {
    domain: set.domain,
    task_version: set.name,
    kind,
    tasks: run.verdicts.length,
    tau3_pass: run.verdicts.filter((v) => v.tau3?.reward === 1).length,
    structured_pass: run.verdicts.filter((v) => v.structured?.pass === true).length,
    disagreements,
    tau3_unknown: run.verdicts.filter((v) => v.error === null && v.tau3?.reward === null).length,
    structured_unknown: run.verdicts.filter(
      (v) => v.error === null && v.structured !== null && v.structured.pass === null,
    ).length,
    errors: run.verdicts.flatMap((v) => (v.error === null ? [] : [{ task_id: v.task_id, error: v.error }])),
  };
}

export interface CensusOptions {
  readonly domains?: readonly DomainName[];
  readonly kinds?: readonly ProbeKind[];
  readonly onProgress?: (set: TaskSetRef, kind: ProbeKind) => void;
}

/** Rows for every (domain, task set, kind) with at least one applicable task, in a fixed order. */
export async function runCensus(setup: ProbeSetup, options: CensusOptions = {}): Promise<CensusRow[]> {
  const rows: CensusRow[] = [];
  for (const domain of options.domains ?? (Object.keys(DOMAINS) as DomainName[])) {
    for (const set of listTaskSets(setup.dataDir, domain)) {
      for (const kind of options.kinds ?? PROBE_KINDS) {
        options.onProgress?.(set, kind);
        const run = await runProbe(setup, set, kind);
        if (run.verdicts.length > 0) rows.push(censusRow(set, kind, run));
      }
    }
  }
  return rows;
}
