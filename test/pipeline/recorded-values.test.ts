/**
 * Odd recorded values: duplicate simulation ids in one file are graded but warned
 * about, and a NaN recorded reward is no recorded reward (not a reward tau3 failed to reproduce).
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { rows } from "../../src/analysis/rows.ts";
import { installAnalyses } from "../../src/analysis/run.ts";
import { VerdictStore } from "../../src/store/store.ts";
import { cliInProcess as cli } from "../helpers/cli-in-process.ts";
import { CORPUS_DIR, DATA_DIR } from "../helpers/data.ts";
import { writeExperiment } from "../helpers/small-run.ts";

const SOURCE = join(CORPUS_DIR, "sierra-tau2-bench__pr170-tau2-trace/e2e_airline_baseline.json");

/** The source file with its simulation twice under the same id, the second with a NaN reward. */
function corpus(): { dir: string; file: string; experiment: string } {
  const dir = mkdtempSync(join(tmpdir(), "tr-recorded-"));
  mkdirSync(join(dir, "corpus"));
  const doc = JSON.parse(readFileSync(SOURCE, "utf8"));
  const sim = doc.simulations[0];
  doc.simulations = [sim, { ...sim, trial: 1, reward_info: { ...sim.reward_info, reward: "__NAN__" } }];
  const file = join(dir, "corpus", "r.json");
  writeFileSync(file, JSON.stringify(doc).replace('"__NAN__"', "NaN"));
  const experiment = writeExperiment(join(dir, "x.json"));
  return { dir, file, experiment };
}

describe("duplicate simulation ids in one file", () => {
  it("are graded, with a warning from grade and from run", async () => {
    const { file, experiment, dir } = corpus();
    const g = await cli(["grade", file, "--grader", "tau3", "--data-dir", DATA_DIR]);
    expect(g.stdout.split("\n").filter((l) => l !== "")).toHaveLength(2);
    expect(g.stderr).toMatch(
      /r\.json: warning: simulation id 0e32d252-7a06-4893-b390-b048a0ec32ff appears 2 times/,
    );
    const r = await cli(["run", experiment, "--db", join(dir, "x.duckdb")]);
    expect(r.stderr).toMatch(
      /r\.json: warning: simulation id 0e32d252-7a06-4893-b390-b048a0ec32ff appears 2 times/,
    );
  });
});

describe("a NaN recorded reward", () => {
  it("is not counted as a recorded reward tau3 did not reproduce", async () => {
    const { experiment, dir } = corpus();
    const db = join(dir, "x.duckdb");
    expect((await cli(["run", experiment, "--db", db])).status).toBe(0);
    const store = await VerdictStore.open(db);
    try {
      await installAnalyses(store);
      const [agreement] = await rows<{ with_baseline_reward: number; same_reward: number }>(
        store,
        `SELECT with_baseline_reward::INTEGER AS with_baseline_reward, same_reward::INTEGER AS same_reward
         FROM reward_agreement WHERE comparison = 'recorded-vs-tau3'`,
      );
      expect(agreement).toEqual({ with_baseline_reward: 1, same_reward: 1 });
    } finally {
      store.close();
    }
  });
});
