/**
 * Property: every simulation of a mutated trajectory file ends as a verdict or an error row with a
 * reason. Nothing crashes, nothing is dropped (rows out = simulations in, rejected ones included),
 * no JS fault leaks out as a row, and no built-in prototype is touched.
 */
import fc from "fast-check";
import { afterAll, describe, it } from "vitest";
import { checkDocument } from "./support/grade-file.ts";
import { CaseCounter, fuzzParams } from "./support/invariants.ts";
import { applyMutation, mutation } from "./support/mutate.ts";
import { clone, documentOf, type JsonRecord, seedFiles } from "./support/seeds.ts";

const counter = new CaseCounter("pipeline");
afterAll(() => counter.report());

const seeds = seedFiles();

const mutatedFile = fc.record({
  seed: fc.nat({ max: seeds.length - 1 }),
  sims: fc.array(fc.record({ pick: fc.nat(), mutations: fc.array(mutation, { maxLength: 5 }) }), {
    minLength: 1,
    maxLength: 3,
  }),
});

describe("fuzz: gradeFile over mutated corpus simulations", () => {
  it("yields one verdict or one error row per simulation", async () => {
    await fc.assert(
      fc.asyncProperty(mutatedFile, async ({ seed: s, sims }) => {
        const seed = seeds[s] as (typeof seeds)[number];
        const out = sims.map(({ pick, mutations }) => {
          const sim = clone(seed.simulations[pick % seed.simulations.length] as JsonRecord);
          for (const m of mutations) applyMutation(sim, m, seed.taskIds);
          return sim;
        });
        await checkDocument(counter, documentOf(seed, out), out.length, `mutated ${seed.name}`);
      }),
      fuzzParams(Number(process.env.FUZZ_PIPELINE_RUNS ?? 2500)),
    );
  });
});
