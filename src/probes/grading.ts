/**
 * What grades the probes: a grading spec built as `grade` and `run` build theirs, and the probe setup
 * that carries its loaded graders. The spec is plain JSON, so a grading thread rebuilds the same setup.
 */
import { resolveQuirks } from "../domains/quirks.ts";
import { DEFAULT_GRADERS } from "../experiments/config.ts";
import { BUILTIN_CORRECTIONS_DIR } from "../graders/corrections/folder.ts";
import { loadGrading } from "../graders/load.ts";
import { buildGradingSpec, type GradingSpec } from "../graders/spec.ts";
import { loadClauses } from "../graders/structured/clauses/load.ts";
import { NO_EXTRA_GATES } from "../graders/structured/gates.ts";
import { loadRequirements } from "../graders/structured/requirements/load.ts";
import { ContextPool } from "../pipeline/contexts.ts";
import type { ProbeSetup } from "./verdicts.ts";

/** Where the probes' requirement fixtures and policy clauses come from. */
export interface ProbeFixtureDirs {
  readonly requirementsDir: string;
  readonly policiesDir: string;
}

/**
 * The default experiment's graders at tau2 parity, with no judge: probes have no recorded judgments,
 * so an NL assertion in the reward basis leaves τ³ unknown rather than guessed.
 */
export const probeGradingSpec = (dirs: ProbeFixtureDirs): GradingSpec =>
  buildGradingSpec({
    graders: DEFAULT_GRADERS,
    quirks: { preset: "tau2", overrides: [] },
    judge: { mode: "none" },
    // A probe file embeds its tasks: each is graded against its own task set, never this one.
    fallbackTaskVersion: "head",
    requirementsDir: dirs.requirementsDir,
    policiesDir: dirs.policiesDir,
    correctionsDir: BUILTIN_CORRECTIONS_DIR,
    handoffOverrides: null,
    gate: NO_EXTRA_GATES,
  });

/**
 * The probe setup over `dataDir` that grades with `spec`'s graders. The fixtures and clauses are read
 * here too: the probe kinds cite the fixtures, and the command reports what either rejects.
 */
export async function probeSetup(
  dataDir: string,
  dirs: ProbeFixtureDirs,
  spec: GradingSpec,
): Promise<ProbeSetup> {
  const grading = await loadGrading(spec, { judgeApiKey: null });
  return {
    dataDir,
    pool: new ContextPool(dataDir, resolveQuirks(spec.quirks.preset, spec.quirks.overrides)),
    requirements: loadRequirements(dirs.requirementsDir),
    clauses: loadClauses(dirs.policiesDir),
    graders: grading.graders,
  };
}
