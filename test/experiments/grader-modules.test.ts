/**
 * `grader_modules`: graders from outside the package, imported and registered by `run` before the grading
 * spec is built. A module that cannot be imported or exports no grader, an id nobody registered, or a
 * configuration its schema refuses is one line naming the file, before the store is opened.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { registerRunCommand } from "../../src/cli/commands/run.ts";
import { loadExperiment } from "../../src/experiments/config.ts";
import { planRun } from "../../src/pipeline/settings.ts";
import { runInProcess } from "../helpers/cli-in-process.ts";
import { DATA_DIR } from "../helpers/data.ts";
import { writeExperiment } from "../helpers/small-run.ts";
import { expectRefused } from "./refused.ts";

const EXAMPLE = "examples/graders/tau3-lenient.ts";

function setup(over: Record<string, unknown>, modules: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), "tr-modules-"));
  mkdirSync(join(dir, "corpus"));
  for (const [name, text] of Object.entries(modules)) writeFileSync(join(dir, name), text);
  // The repo root is the checkout (the example's imports resolve there) unless the test writes modules.
  return writeExperiment(join(dir, "x.json"), over, Object.keys(modules).length > 0 ? { repo: "." } : {});
}

const _run = (file: string) => runInProcess(registerRunCommand, ["run", file], { TAU2_DATA_DIR: DATA_DIR });

describe("a grader module", () => {
  it("adds its grader, its default comparison and its configuration", async () => {
    const plan = await planRun(
      loadExperiment(
        setup({
          graders: ["tau3", "tau3_lenient"],
          grader_modules: [EXAMPLE],
          grader_config: { tau3_lenient: { ignore: ["ACTION", "DB"] } },
        }),
      ),
    );
    expect(plan.grading.spec.graders).toEqual({ tau3: {}, tau3_lenient: { ignore: ["ACTION", "DB"] } });
    expect(plan.comparisons.map((c) => c.name)).toEqual(["recorded-vs-tau3", "tau3-vs-tau3_lenient"]);
    expect(plan.exp.graderModules).toEqual([resolve(EXAMPLE)]);
  });

  it("is part of the config hash; no modules hash as before there were any", () => {
    const hash = (over: Record<string, unknown>) =>
      loadExperiment(setup({ graders: ["tau3"], ...over })).configHash;
    expect(hash({ grader_modules: [], grader_config: {} })).toBe(hash({}));
    expect(hash({ grader_modules: [EXAMPLE] })).not.toBe(hash({}));
    expect(hash({ grader_modules: [EXAMPLE], grader_config: { tau3_lenient: {} } })).not.toBe(
      hash({ grader_modules: [EXAMPLE] }),
    );
  });

  it.each([
    [
      "a grader id nobody registered",
      { graders: ["tau3", "tau3_lenient", "nope"], grader_modules: [EXAMPLE] },
      {},
      /: at graders\[2\]: unknown grader nope \(tau3, tau3_corrected, structured, structured_strict, structured_informed, tau3_lenient\)$/,
    ],
    [
      "a configuration its schema refuses",
      {
        graders: ["tau3", "tau3_lenient"],
        grader_modules: [EXAMPLE],
        grader_config: { tau3_lenient: { ignore: ["EVERYTHING"] } },
      },
      {},
      /: at grader_config\.tau3_lenient\.ignore\[0\]: /,
    ],
    [
      "a configuration for a grader not run",
      { graders: ["tau3"], grader_modules: [EXAMPLE], grader_config: { tau3_lenient: {} } },
      {},
      /: at grader_config\.tau3_lenient: grader tau3_lenient is not selected$/,
    ],
    [
      "a comparison with a grader it registers but the experiment does not run",
      {
        graders: ["tau3"],
        grader_modules: [EXAMPLE],
        comparisons: [{ baseline: "tau3", candidate: "tau3_lenient" }],
      },
      {},
      /: at comparisons\[0\]\.candidate: "tau3_lenient" is not a grader this experiment runs \(recorded, tau3\)$/,
    ],
    [
      "a module without a grader",
      { graders: ["tau3"], grader_modules: ["empty.mjs"] },
      { "empty.mjs": "export const nothing = 1;\n" },
      /: grader module \S+empty\.mjs: grader undefined: not a grader value/,
    ],
    [
      "a module that does not import",
      { graders: ["tau3"], grader_modules: ["broken.mjs"] },
      { "broken.mjs": "export default {\n" },
      /: grader module \S+broken\.mjs: cannot import it: /,
    ],
    [
      "a grader that takes a built-in id",
      { graders: ["tau3"], grader_modules: ["taken.mjs"] },
      { "taken.mjs": 'export default { id: "structured" };\n' },
      /: grader module \S+taken\.mjs: grader "structured": this id is taken$/,
    ],
  ])(
    "refuses %s in one line naming the file, before the store is opened",
    async (_what, over, modules, pattern) => {
      const file = setup(over, modules);
      await expectRefused(file, pattern);
    },
  );
});
