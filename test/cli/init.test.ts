/**
 * `tau-rescore init DIR`: a project of its own — an experiment whose paths are the folder's, empty
 * `requirements/` and `reviews/` folders, a `corpus/` to put trajectories in, and a README of the next three
 * commands. A folder that holds anything is refused in one line (exit 2) and left as it was.
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { registerInitCommand } from "../../src/cli/commands/init.ts";
import { registerRunCommand } from "../../src/cli/commands/run.ts";
import { loadExperiment } from "../../src/experiments/config.ts";
import { BUILTIN_REQUIREMENTS_DIR } from "../../src/graders/structured/folders.ts";
import { runInProcess } from "../helpers/cli-in-process.ts";
import { CORPUS_DIR, DATA_DIR } from "../helpers/data.ts";

const init = (dir: string) => runInProcess(registerInitCommand, ["init", dir]);
const tmp = () => mkdtempSync(join(tmpdir(), "tr-init-"));

describe("init", () => {
  it("writes an experiment over the folder's own corpus, requirements and reviews, and a README", async () => {
    const dir = join(tmp(), "my-project");
    const r = await init(dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain(dir);
    expect(readdirSync(dir).sort()).toEqual([
      "README.md",
      "corpus",
      "experiment.json",
      "requirements",
      "reviews",
    ]);
    for (const empty of ["corpus", "requirements", "reviews"])
      expect(readdirSync(join(dir, empty))).toEqual([]);
    const exp = loadExperiment(join(dir, "experiment.json"));
    expect(exp.config.name).toBe("my-project");
    expect(exp.config.roots).toBeUndefined();
    expect(exp.corpusPaths).toEqual([join(dir, "corpus")]);
    expect(exp.output.startsWith(join(dir, "results"))).toBe(true);
    expect(exp.reviewsFile).toBe(join(dir, "reviews/my-project.json"));
    expect(exp.requirementsDir).toEqual([join(dir, "requirements"), BUILTIN_REQUIREMENTS_DIR]);
    expect(exp.dataDir).toBeNull();
    const readme = readFileSync(join(dir, "README.md"), "utf8");
    for (const command of [
      "tau-rescore corpus inspect corpus --experiment experiment.json",
      "tau-rescore run experiment.json",
      "tau-rescore report --experiment experiment.json --out report --html",
    ])
      expect(readme).toContain(command);
    expect(readme).toContain("TAU2_DATA_DIR");
  });

  it("uses an existing empty folder, and names the experiment from it", async () => {
    const dir = join(tmp(), "Odd name!");
    mkdirSync(dir);
    const r = await init(dir);
    expect(r.code, r.stderr).toBe(0);
    expect(loadExperiment(join(dir, "experiment.json")).config.name).toBe("Odd-name");
  });

  it("writes a project that runs once trajectories are in it", async () => {
    const dir = join(tmp(), "p");
    expect((await init(dir)).code).toBe(0);
    cpSync(
      join(CORPUS_DIR, "sierra-tau2-bench__pr170-tau2-trace/e2e_airline_baseline.json"),
      join(dir, "corpus/a.json"),
    );
    const r = await runInProcess(registerRunCommand, ["run", join(dir, "experiment.json")], {
      TAU2_DATA_DIR: DATA_DIR,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(dir, "results/p.duckdb"))).toBe(true);
  });

  it.each([
    ["a folder that holds a file", (d: string) => writeFileSync(join(d, "notes.txt"), "mine")],
    ["a folder that holds a hidden folder", (d: string) => mkdirSync(join(d, ".git"))],
  ])("refuses %s in one line, exit 2, and leaves it as it was", async (_what, fill) => {
    const dir = join(tmp(), "full");
    mkdirSync(dir);
    fill(dir);
    const before = readdirSync(dir);
    const r = await init(dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `tau-rescore: init: ${dir} is not empty: init writes a new project into a new or empty folder\n`,
    );
    expect(readdirSync(dir)).toEqual(before);
  });

  it("refuses a file in one line, exit 2", async () => {
    const file = join(tmp(), "f");
    writeFileSync(file, "x");
    const r = await init(file);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`tau-rescore: init: ${file} is a file, not a folder\n`);
    expect(readFileSync(file, "utf8")).toBe("x");
  });
});
