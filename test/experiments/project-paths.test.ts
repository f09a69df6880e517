/**
 * An experiment without `roots` (a project's, as `tau-rescore init` writes it): every path resolves against
 * the experiment's own folder and stays inside it, its own requirements, policies and corrections lie over
 * the tool's curated sets, and the tau2 data dir comes from the command line. An experiment that declares
 * roots resolves as it always did, and hashes as it did.
 */
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { registerRunCommand } from "../../src/cli/commands/run.ts";
import { ExperimentError, loadExperiment } from "../../src/experiments/config.ts";
import { BUILTIN_CORRECTIONS_DIR } from "../../src/graders/corrections/folder.ts";
import { BUILTIN_POLICIES_DIR, BUILTIN_REQUIREMENTS_DIR } from "../../src/graders/structured/folders.ts";
import { planRun } from "../../src/pipeline/settings.ts";
import { VerdictStore } from "../../src/store/store.ts";
import { runInProcess } from "../helpers/cli-in-process.ts";
import { CORPUS_DIR, DATA_DIR } from "../helpers/data.ts";

const GOOD = join(CORPUS_DIR, "sierra-tau2-bench__pr170-tau2-trace/e2e_airline_baseline.json");

/** A project folder outside the repository, with `experiment.json` (no roots) and the given folders. */
function projectWith(
  over: Record<string, unknown> = {},
  folders: readonly string[] = [],
): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), "tr-project-"));
  mkdirSync(join(dir, "corpus"));
  cpSync(GOOD, join(dir, "corpus", "a.json"));
  for (const f of folders) mkdirSync(join(dir, f), { recursive: true });
  const file = join(dir, "experiment.json");
  writeFileSync(
    file,
    JSON.stringify({ name: "mine", corpus: ["corpus"], output: "results/mine.duckdb", ...over }),
  );
  return { dir, file };
}

/** A grader module that imports nothing (a project has no node_modules): τ³'s verdict, as its own. */
const PLAIN_GRADER = `export default {
  id: "plain_tau3",
  version: "plain/1",
  label: "plain",
  description: "τ³'s verdict again",
  config: { safeParse: (v) => ({ success: true, data: v ?? {} }) },
  requires: ["tau3"],
  reads: ["tau3"],
  load: () => null,
  grade: (_input, _loaded, prior) => prior.tau3,
  record: (v) => ({ pass: v.reward === null ? null : v.reward === 1, reward: v.reward, dbMatch: v.db_match,
    notes: [], judgeFailure: null, components: [], causes: [] }),
  json: (v) => ({ reward: v.reward }),
};
`;

describe("an experiment without roots", () => {
  it("resolves every path against its own folder", () => {
    const { dir, file } = projectWith({ grader_modules: ["graders/plain.mjs"], reviews: "my-reviews.json" }, [
      "requirements",
      "graders",
    ]);
    const exp = loadExperiment(file);
    expect(exp.corpusPaths).toEqual([join(dir, "corpus")]);
    expect(exp.corpusRoot).toBe(dir);
    expect(exp.output).toBe(join(dir, "results/mine.duckdb"));
    expect(exp.reviewsFile).toBe(join(dir, "my-reviews.json"));
    expect(exp.graderModules).toEqual([join(dir, "graders/plain.mjs")]);
    expect(loadExperiment(projectWith().file).reviewsFile).toMatch(/\/reviews\/mine\.json$/);
  });

  it("lays its own requirements, policies and corrections folders over the curated sets, or uses those alone", () => {
    const { dir, file } = projectWith({}, ["requirements"]);
    const exp = loadExperiment(file);
    expect(exp.requirementsDir).toEqual([join(dir, "requirements"), BUILTIN_REQUIREMENTS_DIR]);
    expect(exp.policiesDir).toEqual([BUILTIN_POLICIES_DIR]);
    expect(exp.correctionsDir).toEqual([BUILTIN_CORRECTIONS_DIR]);
  });

  it("refuses a folder it names that does not exist (only the default names may be missing)", async () => {
    const { file } = projectWith({ requirements_dir: "requirementz" });
    await expect(planRun(loadExperiment(file, { dataDir: DATA_DIR }))).rejects.toThrow(
      /requirementz: folder not found/,
    );
  });

  it.each([
    ["reviews", { reviews: "../mine-reviews.json" }],
    ["corpus path", { corpus: ["../corpus"] }],
    ["output", { output: "/tmp/elsewhere.duckdb" }],
    ["requirements_dir", { requirements_dir: "../requirements" }],
    ["grader module", { grader_modules: ["../plain.mjs"] }],
    ["data_dir", { data_dir: "../tau2" }],
  ])("confines its %s to its folder", (what, over) => {
    const { file } = projectWith(over);
    expect(() => loadExperiment(file)).toThrow(ExperimentError);
    // One line naming the file, the key and the folder it must stay in.
    expect(() => loadExperiment(file)).toThrow(
      new RegExp(`^${file}: ${what} ".*" escapes its root ${join(file, "..")}$`),
    );
  });

  it("takes the tau2 data dir from the command line, and says so when there is none", async () => {
    const { file } = projectWith();
    expect(loadExperiment(file, { dataDir: DATA_DIR }).dataDir).toBe(DATA_DIR);
    expect(loadExperiment(file).dataDir).toBeNull();
    await expect(planRun(loadExperiment(file))).rejects.toThrow(
      /^no tau2 data dir: pass --data-dir DIR or set TAU2_DATA_DIR \(the experiment names no data_dir\)$/,
    );
  });

  it("runs with its own grader module and reviews file, in a folder outside the repository", async () => {
    const { dir, file } = projectWith(
      { graders: ["tau3", "plain_tau3"], grader_modules: ["graders/plain.mjs"], reviews: "my-reviews.json" },
      ["graders"],
    );
    writeFileSync(join(dir, "graders/plain.mjs"), PLAIN_GRADER);
    writeFileSync(join(dir, "my-reviews.json"), JSON.stringify({ version: 1, reviews: [] }));
    const r = await runInProcess(registerRunCommand, ["run", file], { TAU2_DATA_DIR: DATA_DIR });
    expect(r.code, r.stderr).toBe(0);
    const store = await VerdictStore.open(join(dir, "results/mine.duckdb"));
    try {
      const rows = await store.query<{ grader: string; n: number }>(
        "SELECT grader, count(*)::INTEGER AS n FROM verdicts GROUP BY grader ORDER BY grader",
      );
      expect(rows).toEqual([
        { grader: "plain_tau3", n: 1 },
        { grader: "tau3", n: 1 },
      ]);
    } finally {
      store.close();
    }
  });

  it("is refused without a data dir, in one line naming the file, before anything is written", async () => {
    const { file } = projectWith();
    const r = await runInProcess(registerRunCommand, ["run", file], {});
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `tau-rescore: ${file}: no tau2 data dir: pass --data-dir DIR or set TAU2_DATA_DIR (the experiment names no data_dir)\n`,
    );
  });
});

describe("an experiment that declares roots", () => {
  it("keeps its folders: the checkout's own requirements, policies and corrections are the curated sets", () => {
    const exp = loadExperiment("experiments/default.json");
    expect(exp.requirementsDir).toEqual([BUILTIN_REQUIREMENTS_DIR]);
    expect(exp.policiesDir).toEqual([BUILTIN_POLICIES_DIR]);
    expect(exp.correctionsDir).toEqual([BUILTIN_CORRECTIONS_DIR]);
    expect(exp.dataDir).not.toBeNull();
  });

  it('hashes a missing data_dir as the "." it has always defaulted to', () => {
    const dir = mkdtempSync(join(tmpdir(), "tr-roots-"));
    mkdirSync(join(dir, "corpus"));
    const write = (over: Record<string, unknown>) => {
      const file = join(dir, "x.json");
      writeFileSync(
        file,
        JSON.stringify({
          name: "x",
          roots: { corpus: "corpus", data: DATA_DIR, output: "." },
          corpus: ["."],
          output: "x.duckdb",
          ...over,
        }),
      );
      return loadExperiment(file);
    };
    expect(write({}).configHash).toBe(write({ data_dir: "." }).configHash);
    expect(write({}).dataDir).toBe(DATA_DIR);
  });
});
