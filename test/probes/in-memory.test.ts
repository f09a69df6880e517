/**
 * The census grades probes in memory. This checks that it sees exactly what `tau-rescore grade` sees
 * when it reads the written probe file: the same verdicts, causes and evidence, simulation by simulation.
 */
import { describe, expect, it } from "vitest";
import { graderOf } from "../../src/graders/registry.ts";
import { PROBE_KINDS } from "../../src/probes/kind.ts";
import { type ProbeVerdict, runProbe, runProbeThroughFile } from "../../src/probes/verdicts.ts";
import { setup, taskSet } from "./helpers.ts";

const SETS = [
  ["airline", "v0.2.0_f8de30c"],
  ["retail", "head"],
  ["telecom", "head/tasks_small"],
  ["mock", "head"],
  ["banking_knowledge", "head"],
] as const;

const shown = (v: ProbeVerdict) => ({
  task_id: v.task_id,
  note: v.note,
  error: v.error,
  tau3: v.verdicts.tau3 === undefined ? null : graderOf("tau3").json(v.verdicts.tau3),
  structured: v.verdicts.structured === undefined ? null : graderOf("structured").json(v.verdicts.structured),
});

describe("probes graded in memory", () => {
  for (const [domain, name] of SETS)
    it(`match the written probe file, every kind: ${domain} ${name}`, { timeout: 120_000 }, async () => {
      const set = taskSet(domain, name);
      let graded = 0;
      for (const kind of PROBE_KINDS) {
        const [memory, file] = [
          await runProbe(setup, set, kind),
          await runProbeThroughFile(setup, set, kind),
        ];
        expect(memory.skipped, kind).toEqual(file.skipped);
        expect(memory.verdicts.map(shown), kind).toEqual(file.verdicts.map(shown));
        graded += memory.verdicts.length;
      }
      expect(graded).toBeGreaterThan(0);
    });
});
