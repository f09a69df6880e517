/**
 * V8's young generation for grading threads. Each file's parsed tree stays alive through many
 * scavenges, and with V8's default 16 MB semi-space it is copied again and again. Measured on 2 cores
 * (`npm run bench -- --replicate 10`): a 32 MB semi-space cut two-thread grading time by about 10%
 * at no RSS cost (780 MB); 36–64 MB was faster still but put peak RSS at 930–1,060 MB, across the
 * 1 GB budget.
 *
 * The main thread keeps V8's default: its heap is sized when the process starts (a later
 * `v8.setFlagsFromString` does not resize it), and grading on it measured no faster with
 * `--max-semi-space-size=32` on the command line (its GC helpers run on the idle cores).
 */
const SEMI_SPACE_MB = 32;

/** What `resourceLimits.maxYoungGenerationSizeMb` takes: two semi-spaces plus the new large-object space. */
export const YOUNG_GENERATION_MB = 3 * SEMI_SPACE_MB;
