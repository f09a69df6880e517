/** `tau-rescore probe` through commander: reproducible files that load and grade like recorded runs. */

import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command } from "commander";
import { afterEach, describe, expect, it, vi } from "vitest";
import { registerProbeCommand } from "../../src/cli/commands/probe.ts";
import { UsageError } from "../../src/cli/errors.ts";
import type { CommandIo } from "../../src/cli/io.ts";
import { loadJsonFile } from "../../src/formats/load.ts";
import { detectTaskVersion } from "../../src/formats/task-version.ts";
import { loadedStructured } from "../../src/graders/structured/engine.ts";
import { DEFAULT_STRUCTURED_OPTIONS } from "../../src/graders/structured/grade.ts";
import { recordedJudge } from "../../src/graders/tau3/nl.ts";
import { gradeFile } from "../../src/pipeline/grade.ts";
import { runCensus } from "../../src/probes/census.ts";
import { writeCensusTable } from "../../src/probes/census-store.ts";
import { VerdictStore } from "../../src/store/store.ts";
import { DATA_DIR } from "../helpers/data.ts";
import { setup } from "./helpers.ts";

const dir = mkdtempSync(join(tmpdir(), "probe-cli-"));

/**
 * Output goes to process.stdout and process.stderr, looked up at each write (the tests spy on them). The
 * census runs in this thread: census-threads.test.ts checks that threads give the same rows.
 */
const io: CommandIo = {
  stdout: { write: (s: string) => process.stdout.write(s) },
  stderr: { write: (s: string) => process.stderr.write(s) },
  env: { TAU_RESCORE_WORKERS: "1" },
  setExitCode: (code) => {
    process.exitCode = code;
  },
};

async function cli(...args: string[]): Promise<void> {
  const program = new Command("tau-rescore").exitOverride();
  registerProbeCommand(program, io);
  await program.parseAsync(["probe", "--data-dir", DATA_DIR, ...args], { from: "user" });
}

afterEach(() => vi.restoreAllMocks());

describe("probe --out", () => {
  const out = join(dir, "airline-gold.json");
  const args = ["--domain", "airline", "--task-version", "v0.2.0_f8de30c", "--kind", "gold", "--out"];

  it("writes the same bytes every time", async () => {
    vi.spyOn(process.stderr, "write").mockReturnValue(true);
    await cli(...args, out);
    const first = readFileSync(out, "utf8");
    await cli(...args, join(dir, "again.json"));
    expect(readFileSync(join(dir, "again.json"), "utf8")).toBe(first);
  });

  it("loads back as a tau2 results file and passes both graders through gradeFile", async () => {
    const file = loadJsonFile(out);
    if (file.variant === "not-trajectories") throw new Error(file.reason);
    expect(file.variant).toBe("tau2-results");
    expect(file.info).toMatchObject({
      domain: "airline",
      agent_model: "probe:gold",
      agent_implementation: "probe",
    });
    expect(file.rejected).toEqual([]);
    expect(file.tasks).toHaveLength(50);
    expect(file.simulations).toHaveLength(50);
    expect(new Set(file.simulations.map((s) => s.termination_reason))).toEqual(new Set(["user_stop"]));
    const version = detectTaskVersion(file, DATA_DIR);
    expect(version.version).toBe("v0.2.0_f8de30c");
    const verdicts: [number | null | undefined, boolean | null | undefined][] = [];
    for await (const g of gradeFile(file, version, setup.pool, {
      judge: recordedJudge,
      fallbackTaskVersion: "head",
      graders: {
        structured: loadedStructured({ ...DEFAULT_STRUCTURED_OPTIONS, requirements: setup.requirements }),
      },
    })) {
      expect(g.row.error).toBeUndefined();
      verdicts.push([g.tau3?.reward, g.verdicts.structured?.pass]);
    }
    expect(verdicts).toEqual(Array.from({ length: 50 }, () => [1, true]));
  });

  it("names the injected record and policy clause in each simulation's info", async () => {
    vi.spyOn(process.stderr, "write").mockReturnValue(true);
    const path = join(dir, "retail-forbidden.json");
    await cli(
      "--domain",
      "retail",
      "--task-version",
      "v0.2.0_f8de30c",
      "--kind",
      "extra-forbidden-write",
      "--out",
      path,
    );
    const doc = JSON.parse(readFileSync(path, "utf8")) as {
      probe: { kind: string; skipped: unknown[] };
      simulations: {
        info: { probe: { injected: { tool: string; record: string; policy: { quote: string } } } };
      }[];
    };
    expect(doc.probe).toMatchObject({ kind: "extra-forbidden-write", skipped: [] });
    const injected = doc.simulations[0]?.info.probe.injected;
    expect(injected?.tool).toBe("cancel_pending_order");
    expect(injected?.record).toMatch(/^order #W\d+ \(user \w+, pending\)$/);
    expect(injected?.policy.quote).toContain("must deny any requests for tasks related to any other user");
  });

  it("rejects an unknown kind and a missing task set", async () => {
    await expect(cli("--domain", "airline", "--kind", "nope", "--out", join(dir, "x.json"))).rejects.toThrow(
      UsageError,
    );
    await expect(
      cli("--domain", "airline", "--task-version", "v9", "--kind", "gold", "--out", join(dir, "x.json")),
    ).rejects.toThrow(/no task set v9/);
  });
});

describe("probe --census", () => {
  it("prints exactly the census rows as JSON", async () => {
    const chunks: string[] = [];
    vi.spyOn(process.stdout, "write").mockImplementation((s) => {
      chunks.push(String(s));
      return true;
    });
    vi.spyOn(process.stderr, "write").mockReturnValue(true);
    await cli("--census", "--json");
    const rows = JSON.parse(chunks.join("")) as Record<string, unknown>[];
    expect(rows.map((r) => `${r.domain} ${r.task_version}`)).toContain("telecom head/tasks_small");
    expect(Object.keys(rows[0] ?? {})).toEqual([
      "domain",
      "task_version",
      "kind",
      "grader",
      "tasks",
      "pass",
      "unknown",
      "disagreements",
      "errors",
    ]);
    const row = (d: string, v: string, k: string, g: string) =>
      rows.find((r) => r.domain === d && r.task_version === v && r.kind === k && r.grader === g);
    expect(row("airline", "v0.2.0_f8de30c", "null-agent", "tau3")).toMatchObject({ tasks: 50, pass: 19 });
    expect(row("airline", "head", "null-agent", "tau3")).toMatchObject({ tasks: 50, pass: 23 });
    expect(row("telecom", "v0.2.0_f8de30c", "extra-forbidden-write", "tau3")).toMatchObject({
      tasks: 114,
      pass: 114,
    });
    expect(row("telecom", "v0.2.0_f8de30c", "extra-forbidden-write", "structured")).toMatchObject({
      tasks: 114,
      pass: 0,
    });
    // banking: 9 ACTION-basis tasks, where τ³ cannot see the stranger's frozen card.
    expect(row("banking_knowledge", "head", "extra-forbidden-write", "tau3")).toMatchObject({
      tasks: 97,
      pass: 9,
    });
    expect(row("banking_knowledge", "head", "extra-forbidden-write", "structured")).toMatchObject({
      tasks: 97,
      pass: 0,
    });
  });

  it("replaces the rows of table probe_census in a DuckDB file", async () => {
    const db = join(dir, "census.duckdb");
    const rows = await runCensus(setup, { domains: ["mock"] });
    await writeCensusTable(db, rows);
    await writeCensusTable(db, rows); // a second run replaces, never appends
    const store = await VerdictStore.open(db, { readOnly: true });
    try {
      const back = await store.query<{
        kind: string;
        grader: string;
        tasks: number;
        disagreements: string;
        errors: string;
      }>("SELECT kind, grader, tasks, disagreements, errors FROM probe_census ORDER BY task_version, kind");
      expect(back).toHaveLength(rows.length);
      const nullAgent = back.filter((r) => r.kind === "null-agent");
      // One row per grader that graded the probes, every one with the same aborted grading.
      expect([...new Set(nullAgent.map((r) => r.grader))].sort()).toEqual([
        "structured",
        "structured_strict",
        "tau3",
      ]);
      for (const r of nullAgent) {
        expect(JSON.parse(r.errors)).toEqual([
          { task_id: "create_task_1_with_env_assertions", error: "grading aborted: Task task_2 not found" },
        ]);
        expect(JSON.parse(r.disagreements)).toEqual([]);
      }
    } finally {
      store.close();
    }
  });
});
