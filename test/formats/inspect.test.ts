/** `corpus inspect`'s TASKS column: the version `detectTaskVersion` gives, from fewer validated task sets. */
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { inspectFile } from "../../src/formats/inspect.ts";
import { loadTrajectoryFile } from "../../src/formats/load.ts";
import type { TrajectoryFile } from "../../src/formats/model.ts";
import { detectTaskVersion, listedTaskVersion } from "../../src/formats/task-version.ts";
import { errorOf } from "../helpers/errors.ts";
import { corpusFile, DATA_DIR } from "./paths.ts";

const TRACE = "sierra-tau2-bench__pr170-tau2-trace";
const FILES = [
  `${TRACE}/e2e_airline_baseline.json`, // head (ties with v0.2.0)
  `${TRACE}/e2e_mock_baseline.json`,
  `${TRACE}/e2e_retail_baseline.json`,
  `${TRACE}/e2e_telecom_baseline.json`, // head/tasks_small (also in head)
  "sierra-tau2-bench__branch-feature-gym__experiments/gpt-4.1_telecom_default_gpt-4.1_1trials.json", // v0.2.0
  "sierra-tau2-bench__pr448-whissle/airline_run1.json",
  "sierra-tau2-bench__leaderboard-pr__adaptive-agent_community_2026-03-23/adaptive_agent_airline_opus46_cascata.json", // none: no embedded tasks
];

const detected = (file: TrajectoryFile, dataDir: string | null) => {
  const { version, note } = detectTaskVersion(file, dataDir);
  return { version, note };
};

/** The first task's communicate_info changed: no set matches any more. */
const withChangedTask = (file: TrajectoryFile): TrajectoryFile => ({
  ...file,
  tasks: (file.tasks ?? []).map((t, i) =>
    i === 0 ? { ...t, evaluation_criteria: { ...t.evaluation_criteria!, communicate_info: ["changed"] } } : t,
  ),
});

/** A data dir with airline's head tasks and one more airline task set, `versions/v9.9.9/…`, of `text`. */
function dataDirWithExtraSet(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), "tau-rescore-inspect-"));
  mkdirSync(join(dir, "domains", "airline"), { recursive: true });
  copyFileSync(
    join(DATA_DIR, "domains", "airline", "tasks.json"),
    join(dir, "domains", "airline", "tasks.json"),
  );
  mkdirSync(join(dir, "versions", "v9.9.9", "domains", "airline"), { recursive: true });
  writeFileSync(join(dir, "versions", "v9.9.9", "domains", "airline", "tasks.json"), text);
  return dir;
}

describe("listedTaskVersion", () => {
  it.each(FILES)("says what detectTaskVersion says: %s", (path) => {
    const file = loadTrajectoryFile(corpusFile(path));
    expect(listedTaskVersion(file, DATA_DIR)).toEqual(detected(file, DATA_DIR));
    expect(listedTaskVersion(file, null)).toEqual(detected(file, null));
    const changed = withChangedTask(file);
    expect(listedTaskVersion(changed, DATA_DIR)).toEqual(detected(changed, DATA_DIR));
  });

  it("names the closest set when none matches, as detectTaskVersion does", () => {
    const file = withChangedTask(loadTrajectoryFile(corpusFile(`${TRACE}/e2e_telecom_baseline.json`)));
    expect(listedTaskVersion(file, DATA_DIR)).toEqual({
      version: "unknown",
      note: "closest: head (1 of 1 tasks differ)",
    });
    expect(detected(file, DATA_DIR)).toEqual(listedTaskVersion(file, DATA_DIR));
  });

  it("a task set that is not valid JSON fails the file as before", () => {
    const dataDir = dataDirWithExtraSet('[{"id": "0"');
    const path = corpusFile(`${TRACE}/e2e_airline_baseline.json`);
    const file = loadTrajectoryFile(path);
    const expected = errorOf(() => detectTaskVersion(file, dataDir));
    expect(errorOf(() => listedTaskVersion(file, dataDir))).toEqual(expected);
    expect(inspectFile(path, dataDir).error).toMatch(/v9\.9\.9\/domains\/airline\/tasks\.json: invalid JSON/);
  });

  it("a task set that decides no version is not schema-checked", () => {
    // The extra set is larger than head (which matches): it is counted, never compared.
    const dataDir = dataDirWithExtraSet(
      JSON.stringify(Array.from({ length: 60 }, (_, i) => ({ id: `extra_${i}`, no_user_scenario: true }))),
    );
    const path = corpusFile(`${TRACE}/e2e_airline_baseline.json`);
    expect(inspectFile(path, dataDir)).toMatchObject({ task_version: "head", error: null });
    expect(errorOf(() => detectTaskVersion(loadTrajectoryFile(path), dataDir)).message).toMatch(
      /invalid task/,
    );
  });
});
