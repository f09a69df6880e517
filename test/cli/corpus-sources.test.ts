/**
 * `corpus inspect` names where the fixtures it counts come from: the curated set, a folder given with
 * `--requirements`, or an experiment's own requirements over the curated set (`--experiment`).
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BUILTIN_REQUIREMENTS_DIR } from "../../src/graders/structured/folders.ts";
import { TOOL_VERSION } from "../../src/util/package.ts";
import { cliInProcess } from "../helpers/cli-in-process.ts";
import { CORPUS_DIR, DATA_DIR } from "../helpers/data.ts";

const FILE = join(
  CORPUS_DIR,
  "sierra-tau2-bench__leaderboard-pr__ironshell-ironforge_ironshell-ui_2026-03-09/ironshell_ironforge_v3_deepseek.json",
);
const CURATED = new RegExp(
  `tau-rescore ${TOOL_VERSION.replaceAll(".", "\\.")}'s curated set \\(\\d+ files\\)`,
);
const inspect = (args: readonly string[]) =>
  cliInProcess(["corpus", "inspect", ...args], { env: { TAU2_DATA_DIR: DATA_DIR } });

/** A project whose own fixture for airline task 35 hides the curated one; its fixture forbids nothing the file does. */
function project(): string {
  const dir = mkdtempSync(join(tmpdir(), "tr-inspect-"));
  const rel = "airline/v0.2.0_f8de30c/35.json";
  mkdirSync(join(dir, "requirements/airline/v0.2.0_f8de30c"), { recursive: true });
  writeFileSync(join(dir, "requirements", rel), readFileSync(join(BUILTIN_REQUIREMENTS_DIR, rel)));
  writeFileSync(
    join(dir, "experiment.json"),
    JSON.stringify({ name: "p", corpus: ["corpus"], output: "results/p.duckdb" }),
  );
  return dir;
}

describe("corpus inspect", () => {
  it("names the curated set its FIXTURES column counts by default, in the table and the JSON", async () => {
    const table = await inspect([FILE]);
    expect(table.status, table.stderr).toBe(0);
    expect(table.stdout).toMatch(new RegExp(`\\nfixtures: requirements: ${CURATED.source}\\n`));
    const json = JSON.parse((await inspect([FILE, "--json"])).stdout);
    expect(json.requirements).toMatch(new RegExp(`^requirements: ${CURATED.source}$`));
  });

  it("with --experiment counts the project's fixtures over the curated set, and says so", async () => {
    const dir = project();
    const r = await inspect([FILE, "--experiment", join(dir, "experiment.json")]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      new RegExp(
        `\\nfixtures: requirements: project ${dir}/requirements/ \\(1 file\\) over ${CURATED.source}\\n`,
      ),
    );
    expect(r.stdout).toMatch(/ 1\/4\n/);
  });

  it("with --requirements names the folder alone", async () => {
    const dir = project();
    const r = await inspect([FILE, "--requirements", join(dir, "requirements")]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`\nfixtures: requirements: ${dir}/requirements/ (1 file)\n`);
  });

  it("refuses --experiment with --requirements in one line, exit 2", async () => {
    const dir = project();
    const r = await inspect([FILE, "--experiment", join(dir, "experiment.json"), "--requirements", dir]);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      "tau-rescore: corpus inspect: --requirements and --experiment both name the fixtures: pass one\n",
    );
  });
});
