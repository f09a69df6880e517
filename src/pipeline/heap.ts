/**
 * V8's young generation, sized for grading. Each file's parsed tree stays alive through many
 * scavenges, and with V8's default 16 MB semi-space it is copied again and again. Measured on 2 cores
 * (`npm run bench -- --replicate 10`): a 32 MB semi-space cut two-thread grading time by about 10%
 * at no RSS cost (780 MB); 36–64 MB was faster still but put peak RSS at 930–1,060 MB, across the
 * 1 GB budget.
 */
import { setFlagsFromString } from "node:v8";

export const SEMI_SPACE_MB = 32;

/** What `resourceLimits.maxYoungGenerationSizeMb` takes: two semi-spaces plus the new large-object space. */
export const YOUNG_GENERATION_MB = 3 * SEMI_SPACE_MB;

/**
 * The main thread's semi-space, for runs graded on it (threads get `YOUNG_GENERATION_MB` when
 * created). Set only then: the flag is process-wide and would also grow the young generation of a
 * main thread that merely writes the threads' rows. `--max-semi-space-size` on the command line or
 * in `NODE_OPTIONS` wins.
 */
export function sizeMainThreadYoungGeneration(): void {
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(/\s+/)];
  if (given.some((a) => a.startsWith("--max-semi-space-size"))) return;
  setFlagsFromString(`--max-semi-space-size=${SEMI_SPACE_MB}`);
}
