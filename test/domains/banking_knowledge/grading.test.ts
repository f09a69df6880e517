/**
 * The synthetic banking trajectories of trajectories/banking_knowledge/, graded by the CLI as a user
 * would (`tau-rescore grade <file> --grader tau3 --format jsonl`): a gold replay passes; one write
 * dropped fails the DB check; an unrelated extra write fails a DB-basis task and leaves an
 * ACTION-basis task passing with `db_match` false; a direct call of a READ discoverable tool that
 * wrote live fails under tau2's replay (quirk discoverableDirectReadSkip) and passes when fixed.
 */
import { spawnSync } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { bankingVectors, DATA_DIR } from "./helpers.ts";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const CLI = join(REPO, "bin/tau-rescore.js");

function tau(args: readonly string[]): {
  rows: Record<string, unknown>[];
  stderr: string;
  status: number | null;
} {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd: REPO,
    encoding: "utf8",
    env: { ...process.env, TAU2_DATA_DIR: DATA_DIR },
    timeout: 120_000,
  });
  const rows = r.stdout
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { rows, stderr: r.stderr, status: r.status };
}

interface Verdict {
  readonly id: string;
  readonly reward: number;
  readonly dbMatch: boolean;
  readonly basis: readonly string[];
}

function grade(file: string, extra: readonly string[] = []): Verdict[] {
  const { rows, stderr } = tau([
    "grade",
    join("trajectories/banking_knowledge", file),
    "--grader",
    "tau3",
    "--format",
    "jsonl",
    ...extra,
  ]);
  expect(rows.length, stderr).toBeGreaterThan(0);
  return rows.map((r) => {
    const t = r.tau3 as { reward: number; db_match: boolean; basis: string[] };
    return { id: r.simulation_id as string, reward: t.reward, dbMatch: t.db_match, basis: t.basis };
  });
}

describe("grading synthetic banking trajectories with τ³", () => {
  it("passes the gold replays (a logged read, initialization data and user tools, an ACTION task)", () => {
    expect(grade("gold.json")).toEqual([
      { id: "gold-task_046", reward: 1, dbMatch: true, basis: ["DB"] },
      { id: "gold-task_031", reward: 1, dbMatch: true, basis: ["DB"] },
      { id: "gold-task_035", reward: 1, dbMatch: true, basis: ["ACTION"] },
    ]);
  });

  it("fails the DB check when one write is dropped (the allow-listed read's log record included)", () => {
    expect(grade("dropped-write.json")).toEqual([
      { id: "dropped-task_046", reward: 0, dbMatch: false, basis: ["DB"] },
      { id: "dropped-task_031", reward: 0, dbMatch: false, basis: ["DB"] },
    ]);
  });

  it("fails a DB-basis task with one extra unrelated write; an ACTION-basis task still passes", () => {
    expect(grade("extra-write.json")).toEqual([
      { id: "extra-task_046", reward: 0, dbMatch: false, basis: ["DB"] },
      { id: "extra-task_035", reward: 1, dbMatch: false, basis: ["ACTION"] },
    ]);
  });

  it("skips a direct READ discoverable call in replay (tau2), replays it with the quirk off", () => {
    expect(grade("direct-read-call.json")).toEqual([
      { id: "direct-task_031", reward: 0, dbMatch: false, basis: ["DB"] },
    ]);
    expect(grade("direct-read-call.json", ["--quirk", "discoverableDirectReadSkip=off"])).toEqual([
      { id: "direct-task_031", reward: 1, dbMatch: true, basis: ["DB"] },
    ]);
  });

  it("prints tau2's hashes with `tau-rescore hash --domain banking_knowledge --gold`", () => {
    const { rows, stderr, status } = tau([
      "hash",
      "--domain",
      "banking_knowledge",
      "--gold",
      "--task",
      "task_046",
      "task_031",
    ]);
    expect(status, stderr).toBe(0);
    const v = bankingVectors().gold;
    expect(rows).toEqual(
      ["task_031", "task_046"].map((id) => {
        const g = v[`head/banking_knowledge/${id}`];
        return {
          task_id: id,
          after_init: g?.after_init,
          gold_target: g?.gold_target,
          gold_action_results: g?.gold_action_results,
        };
      }),
    );
  });
});
