/** Runs the real pipeline path (file on disk → loader → task version → `gradeFile`) for the fuzz suites. */

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { TAU2_QUIRKS } from "../../../src/domains/quirks.ts";
import { FormatError } from "../../../src/formats/errors.ts";
import { type LoadedJsonFile, loadJsonFile } from "../../../src/formats/load.ts";
import { detectTaskVersion } from "../../../src/formats/task-version.ts";
import { loadedStructured } from "../../../src/graders/structured/engine.ts";
import { DEFAULT_STRUCTURED_OPTIONS } from "../../../src/graders/structured/grade.ts";
import { recordedJudge } from "../../../src/graders/tau3/nl.ts";
import { ContextPool } from "../../../src/pipeline/contexts.ts";
import { type GradedSimulation, gradeFile } from "../../../src/pipeline/grade.ts";
import { DATA_DIR } from "../../helpers/data.ts";
import { type CaseCounter, expectNoPrototypePollution } from "./invariants.ts";
import type { Json } from "./seeds.ts";

const pool = new ContextPool(DATA_DIR, TAU2_QUIRKS);
const dir = mkdtempSync(join(tmpdir(), "tr-fuzz-"));
let n = 0;

/** Writes `text` to a fresh temp file and returns its path. */
export function writeCase(text: string | Uint8Array, name = "case.json"): string {
  const path = join(dir, `${n++ % 64}-${name}`);
  writeFileSync(path, text);
  return path;
}

export async function gradeLoaded(file: LoadedJsonFile): Promise<GradedSimulation[]> {
  if (file.variant === "not-trajectories") return [];
  const rows: GradedSimulation[] = [];
  const version = detectTaskVersion(file, DATA_DIR);
  for await (const g of gradeFile(file, version, pool, {
    judge: recordedJudge,
    fallbackTaskVersion: "head",
    graders: { structured: loadedStructured(DEFAULT_STRUCTURED_OPTIONS) },
  }))
    rows.push(g);
  return rows;
}

export const gradePath = async (path: string) => gradeLoaded(loadJsonFile(path));

/** What every row must satisfy: a verdict (both graders) or an error with a reason, never a JS fault. */
export function rowProblems(rows: readonly GradedSimulation[]): string[] {
  const problems: string[] = [];
  for (const g of rows) {
    const { error } = g.row;
    const id = g.row.simulation_id;
    if (error !== undefined) {
      if (error.trim() === "") problems.push(`${id}: empty error reason`);
      if (error.startsWith("internal fault")) problems.push(`${id}: ${error}`);
      if (error.length > 2000) problems.push(`${id}: error reason of ${error.length} characters`);
      continue;
    }
    if (g.tau3 === null || g.verdicts.structured === undefined)
      problems.push(`${id}: no error and no verdict`);
    for (const note of g.tau3?.notes ?? [])
      if (note.startsWith("internal fault")) problems.push(`${id}: ${note}`);
  }
  return problems;
}

/** Serialises a raw case; `deep` placeholders become nested JSON that `JSON.stringify` could not write. */
export function caseText(doc: Json, deep: ReadonlyMap<string, string> = new Map()): string {
  let text = JSON.stringify(doc);
  for (const [placeholder, raw] of deep) text = text.replace(JSON.stringify(placeholder), raw);
  return text;
}

/**
 * The pipeline property for one file: loaded (never a crash, and never a whole-file error when the file
 * is well-formed), every simulation in is one row out, rows satisfy `rowProblems`, no prototype changed.
 */
export async function checkDocument(
  counter: CaseCounter,
  doc: Json | string,
  simulationsIn: number,
  property: string,
): Promise<void> {
  counter.hit(property);
  try {
    const loaded = loadJsonFile(writeCase(typeof doc === "string" ? doc : caseText(doc)));
    const rows = await gradeLoaded(loaded);
    if (loaded.variant !== "not-trajectories") {
      expect(loaded.simulations.length + loaded.rejected.length).toBe(simulationsIn);
      expect(rows.length).toBe(simulationsIn);
    }
    expect(rowProblems(rows)).toEqual([]);
  } catch (e) {
    if (!(e instanceof FormatError)) counter.crashes++;
    throw e;
  } finally {
    expectNoPrototypePollution();
  }
}
