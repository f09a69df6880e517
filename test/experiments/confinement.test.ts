/**
 * Confinement: a config cannot declare the filesystem root as a root, a file it
 * names is never echoed in an error, and a symlink in the corpus is followed only when its target stays
 * inside the corpus root.
 */
import { cpSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ExperimentError, loadExperiment } from "../../src/experiments/config.ts";
import { runExperiment } from "../../src/pipeline/run.ts";
import { planRun } from "../../src/pipeline/settings.ts";
import { VerdictStore } from "../../src/store/store.ts";
import { CORPUS_DIR } from "../helpers/data.ts";
import { cli, writeExperiment } from "../helpers/small-run.ts";

const GOOD = join(CORPUS_DIR, "sierra-tau2-bench__pr170-tau2-trace/e2e_airline_baseline.json");

function setup(extra: Record<string, unknown> = {}, roots: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), "tr-conf-"));
  mkdirSync(join(dir, "corpus"));
  const file = writeExperiment(join(dir, "x.json"), { graders: undefined, ...extra }, roots);
  return { dir, file };
}

describe("roots", () => {
  it.each(["output", "repo", "corpus", "data"])("roots.%s may not be the filesystem root", (root) => {
    const { file } = setup({}, { [root]: "/" });
    expect(() => loadExperiment(file)).toThrow(ExperimentError);
    expect(() => loadExperiment(file)).toThrow(`roots.${root} may not be the filesystem root`);
  });
});

describe("a file the config names", () => {
  it("is never echoed in the error when it is not what was expected", () => {
    const { dir, file } = setup({ handoff_overrides: "secret.txt" }, { repo: "." });
    writeFileSync(join(dir, "secret.txt"), "root:SECRET-LINE:0:0\n");
    for (const d of ["requirements", "policies", "corrections"])
      cpSync(join(process.cwd(), d), join(dir, d), { recursive: true });
    const r = cli(["run", file]);
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/secret\.txt: not valid JSON/);
    expect(r.stderr).not.toContain("SECRET");
  });
});

describe("a symlink in the corpus", () => {
  it("is followed only when its target stays inside the corpus root", async () => {
    const { dir, file } = setup({ graders: ["tau3"] });
    const outside = mkdtempSync(join(tmpdir(), "tr-outside-"));
    cpSync(GOOD, join(outside, "elsewhere.json"));
    mkdirSync(join(outside, "folder"));
    cpSync(GOOD, join(outside, "folder", "deep.json"));
    cpSync(GOOD, join(dir, "corpus", "a.json"));
    symlinkSync("a.json", join(dir, "corpus", "inside.json"));
    symlinkSync(join(outside, "elsewhere.json"), join(dir, "corpus", "out.json"));
    symlinkSync(join(outside, "folder"), join(dir, "corpus", "outdir"));
    const store = await VerdictStore.open(join(dir, "x.duckdb"));
    try {
      const quiet = { start() {}, tick() {}, stop() {} };
      await runExperiment(await planRun(loadExperiment(file)), store, quiet, { workers: 1 });
      const rows = await store.query<{ path: string; status: string; error: string | null }>(
        "SELECT path, status, error FROM files ORDER BY path",
      );
      expect(rows).toEqual([
        { path: "a.json", status: "graded", error: null },
        { path: "inside.json", status: "duplicate", error: "same content as a.json" },
        {
          path: "out.json",
          status: "error",
          error: expect.stringMatching(/^out\.json: .*outside the corpus root/),
        },
        {
          path: "outdir",
          status: "error",
          error: expect.stringMatching(/^outdir: .*outside the corpus root/),
        },
      ]);
    } finally {
      store.close();
    }
  });
});
