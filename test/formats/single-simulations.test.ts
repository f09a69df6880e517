/**
 * Simulations saved one by one: a simulation object at a file's top level, JSON Lines of simulations
 * (a bad line is a rejection with its line number, never a lost file), and a folder of per-simulation
 * files, which `corpus inspect` reads as one run. Each is built from a real results file, so the grade of
 * every simulation must equal the one of the same simulation in its original file.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { registerCorpusCommand } from "../../src/cli/commands/corpus.ts";
import { loadJsonFile } from "../../src/formats/load.ts";
import { cliInProcess, runInProcess } from "../helpers/cli-in-process.ts";
import { CORPUS_DIR, DATA_DIR } from "../helpers/data.ts";

const SOURCE = join(CORPUS_DIR, "sierra-tau2-bench__pr448-whissle/airline_run1.json");
const sims: { id: string; task_id: string }[] = JSON.parse(readFileSync(SOURCE, "utf8")).simulations;
const dir = mkdtempSync(join(tmpdir(), "tr-single-"));
const at = (name: string) => join(dir, name);

/** τ³ rewards by simulation id, as `grade` prints them. */
async function rewards(path: string): Promise<{ rewards: Map<string, number | null>; errors: string[] }> {
  const r = await cliInProcess([
    "grade",
    path,
    "--grader",
    "tau3",
    "--format",
    "jsonl",
    "--data-dir",
    DATA_DIR,
  ]);
  const lines =
    r.stdout.trim() === ""
      ? []
      : r.stdout
          .trim()
          .split("\n")
          .map((l) => JSON.parse(l));
  const graded = lines.filter((l) => l.error === undefined);
  return {
    rewards: new Map(graded.map((l) => [l.simulation_id, l.tau3.reward])),
    errors: lines.filter((l) => l.error !== undefined).map((l) => l.error),
  };
}
const inspect = async (path: string) => {
  const r = await runInProcess(
    (program, io) => registerCorpusCommand(program, { ...io, env: {} }),
    ["corpus", "inspect", path, "--json", "--data-dir", DATA_DIR],
  );
  return { code: r.code, report: JSON.parse(r.stdout) };
};

let original: Map<string, number | null>;
beforeAll(async () => {
  original = (await rewards(SOURCE)).rewards;
  writeFileSync(at("one.json"), JSON.stringify(sims[3], null, 2));
  const lines = [
    ...sims.slice(0, 3).map((s) => JSON.stringify(s)),
    '{"id": "cut", "messages": [',
    "",
    JSON.stringify({ id: "no-simulation", note: "a judge record" }),
    JSON.stringify(sims[4]),
  ];
  writeFileSync(at("sims.jsonl"), `${lines.join("\n")}\n`);
  mkdirSync(at("run"));
  for (const i of [5, 6, 7]) writeFileSync(at(`run/sim_${i}.json`), JSON.stringify(sims[i]));
}, 120_000);

describe("a simulation object at the top level", () => {
  it("is read as one simulation and graded as in its results file", async () => {
    const f = loadJsonFile(at("one.json"));
    expect(f.variant).toBe("single-simulation");
    const { rewards: got } = await rewards(at("one.json"));
    const id = sims[3]?.id as string;
    expect([...got]).toEqual([[id, original.get(id)]]);
  });

  it("a bad one is a rejection at its JSON path, not an unknown format", () => {
    writeFileSync(at("bad.json"), JSON.stringify({ ...sims[3], termination_reason: "bored" }));
    const f = loadJsonFile(at("bad.json"));
    expect(f.variant).toBe("single-simulation");
    if (f.variant === "not-trajectories") throw new Error("unreachable");
    expect(f.simulations).toEqual([]);
    expect(f.rejected.map((r) => r.path)).toEqual(["termination_reason"]);
  });
});

describe("JSON Lines of simulations", () => {
  it("grades every simulation line as in its results file; each bad line is a rejection with its line number", async () => {
    const f = loadJsonFile(at("sims.jsonl"));
    expect(f.variant).toBe("jsonl-simulations");
    if (f.variant === "not-trajectories") throw new Error("unreachable");
    expect(f.simulations.map((s) => s.id)).toEqual([0, 1, 2, 4].map((i) => sims[i]?.id));
    expect(f.rejected.map((r) => [r.path, r.id])).toEqual([
      ["line 4", null],
      ["line 6: task_id", "no-simulation"],
    ]);
    expect(f.rejected[0]?.reason).toMatch(/^invalid JSON/);
    const { rewards: got, errors } = await rewards(at("sims.jsonl"));
    expect(errors).toEqual([
      expect.stringMatching(/^invalid simulation at line 4: invalid JSON/),
      expect.stringMatching(/^invalid simulation at line 6: task_id: /),
    ]);
    expect([...got.keys()]).toEqual(f.simulations.map((s) => s.id));
    for (const [id, reward] of got) expect(reward, id).toBe(original.get(id));
  });

  it("JSON Lines of other records stay classified, not graded", () => {
    writeFileSync(at("judge.jsonl"), '{"verdict": "pass"}\n{"verdict": "fail"}\n');
    expect(loadJsonFile(at("judge.jsonl"))).toMatchObject({
      variant: "not-trajectories",
      reason: "JSON Lines (2 records), not a results file",
    });
  });
});

describe("corpus inspect", () => {
  it("classifies each format, and reads a folder of per-simulation files sharing their metadata as one run", async () => {
    const { code, report } = await inspect(dir);
    expect(code).toBe(1); // the rejected lines and simulation are input problems
    const variants = Object.fromEntries(
      report.files.map((f: { path: string; variant: string }) => [f.path.slice(dir.length + 1), f.variant]),
    );
    expect(variants).toMatchObject({
      "one.json": "single-simulation",
      "sims.jsonl": "jsonl-simulations",
      "judge.jsonl": "not-trajectories",
      "run/sim_5.json": "single-simulation",
    });
    expect(report.runs).toEqual([
      expect.objectContaining({ folder: at("run"), files: 3, simulations: 3, domain: "airline", trials: 1 }),
    ]);
  });
});
