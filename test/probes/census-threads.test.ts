/** The census's rows do not depend on how its tasks are chunked or on which thread grades a chunk. */

import { afterAll, describe, expect, it } from "vitest";
import { BUILTIN_POLICIES_DIR, BUILTIN_REQUIREMENTS_DIR } from "../../src/graders/structured/folders.ts";
import { closeWorkers } from "../../src/pipeline/parallel.ts";
import { censusChunks, runCensus } from "../../src/probes/census.ts";
import { censusInWorkers, censusSetup, censusSources } from "../../src/probes/census-thread.ts";
import { DATA_DIR } from "../helpers/data.ts";

const sources = censusSources(DATA_DIR, {
  requirementsDir: BUILTIN_REQUIREMENTS_DIR,
  policiesDir: BUILTIN_POLICIES_DIR,
});
const domains = ["mock", "airline"] as const;

afterAll(() => closeWorkers());

describe("the census on threads", () => {
  it("gives the rows of one whole-set pass in this thread, with small chunks on two threads", {
    timeout: 180_000,
  }, async () => {
    const whole = await runCensus(await censusSetup(sources), {
      domains,
      chunkBytes: Number.MAX_SAFE_INTEGER,
    });
    const setup = await censusSetup(sources);
    const chunkBytes = 20_000;
    // Several chunks per airline set, so rows are merged across chunks and threads.
    expect(
      censusChunks(setup, { domains, chunkBytes }).filter((c) => c.set.domain === "airline").length,
    ).toBeGreaterThan(8);
    const threaded = await runCensus(setup, {
      domains,
      chunkBytes,
      gradeChunks: (chunks) =>
        censusInWorkers(
          chunks.map((chunk) => ({ census: "test", sources, chunk })),
          2,
        ),
    });
    expect(threaded).toEqual(whole);
    expect(whole.reduce((n, r) => n + r.tasks, 0)).toBeGreaterThan(400);
  });
});
