/**
 * Errors once per cause: a reason common to a file's simulations (a domain the tool cannot grade) is one
 * line per file with the count, in `grade`'s table and stderr, `run`'s summary and the report's errors;
 * every simulation stays in the JSON lines and the errors table. A file with no simulations is a row.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { rows } from "../../src/analysis/rows.ts";
import { installAnalyses } from "../../src/analysis/run.ts";
import { VerdictStore } from "../../src/store/store.ts";
import { cliInProcess, gradeTau3 } from "../helpers/cli-in-process.ts";
import { CORPUS_DIR, DATA_DIR } from "../helpers/data.ts";
import { writeExperiment } from "../helpers/small-run.ts";

const dir = mkdtempSync(join(tmpdir(), "tr-error-causes-"));
mkdirSync(join(dir, "corpus"));
const source = JSON.parse(
  readFileSync(join(CORPUS_DIR, "sierra-tau2-bench__pr170-tau2-trace/e2e_airline_baseline.json"), "utf8"),
);
/** The one-simulation file thrice over, of a domain nothing declares. */
const unknown = join(dir, "corpus", "unknown-domain.json");
writeFileSync(
  unknown,
  JSON.stringify({
    ...source,
    info: {
      ...source.info,
      environment_info: { ...source.info.environment_info, domain_name: "airline_fork" },
    },
    simulations: [0, 1, 2].map((i) => ({ ...source.simulations[0], id: `sim-${i}`, trial: i })),
  }),
);
const empty = join(dir, "corpus", "empty.json");
writeFileSync(empty, JSON.stringify({ ...source, simulations: [] }));

const NOT_SUPPORTED = /domain airline_fork is not supported/;

describe("grade", () => {
  it("writes one table row per file and reason, with the count, and one for a file with no simulations", async () => {
    const r = await gradeTau3(join(dir, "corpus"), DATA_DIR, "table");
    expect(r.status).toBe(1);
    const lines = r.stdout.trim().split("\n").slice(1);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(`-\t-\t-\t-\tERROR: the file holds no simulations\t-\t-\t-\t${empty}`);
    expect(lines[1]).toMatch(/^-\t-\t-\t-\tERROR: 3 simulations: domain airline_fork is not supported/);
    expect(lines[1]?.endsWith(`\t${unknown}`)).toBe(true);
  });

  it("keeps a JSON line per simulation, says each cause once on stderr, and gives the empty file a line", async () => {
    const r = await gradeTau3(join(dir, "corpus"), DATA_DIR, "jsonl");
    const lines = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines[0]).toEqual({ file: empty, simulations: 0, error: "the file holds no simulations" });
    expect(lines.slice(1).map((l) => l.simulation_id)).toEqual(["sim-0", "sim-1", "sim-2"]);
    const causes = r.stderr.split("\n").filter((l) => NOT_SUPPORTED.test(l));
    expect(causes).toHaveLength(1);
    expect(causes[0]).toContain(`${unknown}: 3 simulations: domain airline_fork is not supported`);
    expect(r.stderr).toContain(`${empty}: the file holds no simulations`);
  });
});

describe("run and report", () => {
  it("print each cause once per file with the count, list the empty file, and keep every simulation's row", async () => {
    const experiment = writeExperiment(join(dir, "x.json"));
    const db = join(dir, "x.duckdb");
    const r = await cliInProcess(["run", experiment, "--db", db]);
    expect(r.status).toBe(1);
    expect(r.stderr.split("\n").filter((l) => NOT_SUPPORTED.test(l))).toEqual([
      expect.stringMatching(/^ {2}unknown-domain\.json: 3 simulations: domain airline_fork is not supported/),
    ]);
    expect(r.stderr).toContain("  empty.json: the file holds no simulations");
    const store = await VerdictStore.open(db, { readOnly: true });
    try {
      await installAnalyses(store);
      expect(
        await rows(store, "SELECT count(*)::INTEGER AS n FROM error_list WHERE scope = 'simulation'"),
      ).toEqual([{ n: 3 }]);
      expect(
        await rows(store, "SELECT scope, path, stage, simulations FROM error_causes ORDER BY scope, path"),
      ).toEqual([
        { scope: "file", path: "empty.json", stage: "empty", simulations: 0 },
        { scope: "simulation", path: "unknown-domain.json", stage: "grade", simulations: 3 },
      ]);
    } finally {
      await store.close();
    }
  });
});

describe("a task-set error common to a file's simulations", () => {
  /** The one-simulation file as `n` simulations of the given tasks, embedding none. */
  const withoutTasks = (name: string, taskIds: readonly string[]) => {
    const path = join(dir, name);
    writeFileSync(
      path,
      JSON.stringify({
        ...source,
        tasks: [],
        simulations: taskIds.map((task_id, i) => ({ ...source.simulations[0], id: `sim-${i}`, task_id })),
      }),
    );
    return path;
  };
  const gradeTable = (path: string, ...flags: string[]) =>
    cliInProcess(["grade", path, "--format", "table", "--data-dir", DATA_DIR, ...flags]);

  it("is one line per file when the data dir has no such task set", async () => {
    const path = withoutTasks("no-set.json", ["0", "1", "2"]);
    const r = await gradeTable(path, "--fallback-task-version", "nope");
    expect(r.status).toBe(1);
    const rows = r.stdout.trim().split("\n").slice(1);
    expect(rows).toEqual([
      `-\t-\t-\t-\tERROR: 3 simulations: the data dir has no task set nope for domain airline (the file embeds no tasks; --fallback-task-version names the set)\t-\t-\t-\t${path}`,
    ]);
    expect(r.stderr).toContain(
      `tau-rescore: ${path}: 3 simulations: the data dir has no task set nope for domain airline`,
    );
  });

  it("is one line per file when the set lacks the simulations' tasks, each simulation's row naming its task", async () => {
    const path = withoutTasks("other-tasks.json", ["fork-1", "fork-2", "fork-3"]);
    const r = await gradeTable(path);
    expect(r.status).toBe(1);
    expect(r.stdout.trim().split("\n").slice(1)).toEqual([
      `-\t-\t-\t-\tERROR: 3 simulations: the simulation's task is not among the tasks of head (assumed: the file embeds no tasks)\t-\t-\t-\t${path}`,
    ]);
    const jsonl = await cliInProcess(["grade", path, "--data-dir", DATA_DIR]);
    expect(
      jsonl.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l).task_id),
    ).toEqual(["fork-1", "fork-2", "fork-3"]);
  });
});
