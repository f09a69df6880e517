/** `tau-rescore report`: the exported files, summary.json, and no half-written report on I/O failure. */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { REPORTED } from "../../src/analysis/views.ts";
import { cli, smallExperiment } from "../helpers/small-run.ts";

let db = "";
let dir = "";
beforeAll(() => {
  const s = smallExperiment();
  dir = s.dir;
  db = join(dir, "r.duckdb");
  expect(cli(["run", s.experiment, "--db", db]).status).toBe(0);
});

const mount = (target: string, opts: string): boolean => {
  mkdirSync(target, { recursive: true });
  return spawnSync("mount", ["-t", "tmpfs", "-o", opts, "tmpfs", target]).status === 0;
};
const canMount = process.getuid?.() === 0 && mount(join("/tmp", `tr-probe-${process.pid}`), "size=64k");
if (canMount) spawnSync("umount", [join("/tmp", `tr-probe-${process.pid}`)]);

describe("tau-rescore report", () => {
  it("writes every analysis as JSON, CSV and Parquet, and summary.json", () => {
    const out = join(dir, "report");
    const r = cli(["report", "--db", db, "--out", out]);
    expect(r.status, r.stderr).toBe(0);
    const files = new Set(readdirSync(out));
    for (const v of REPORTED)
      for (const ext of ["json", "csv", "parquet"]) expect(files.has(`${v}.${ext}`)).toBe(true);
    const summary = JSON.parse(readFileSync(join(out, "summary.json"), "utf8"));
    expect(Object.keys(summary)).toEqual([
      "run",
      "simulations",
      "graded",
      "errors",
      "flips",
      "excluded_files",
      "excluded_tasks",
      "reviews",
      "vacuous_passes",
      "by_domain",
      "ranking",
      "comparisons",
      "published_vs_reproduced",
      "submissions_without_trajectories",
    ]);
    expect(summary.run).toMatchObject({ experiment: "small", completed: true });
    expect(summary.run.run_id).toMatch(/^[0-9a-f]{16}$/);
    expect(summary.simulations).toBe(155);
    expect(summary.graded + summary.errors).toBe(155);
    expect(Object.keys(summary.by_domain).sort()).toEqual(["airline", "mock", "retail", "telecom"]);
    // The top-level flips are the headline comparison's: the experiment's first.
    const [headline, ...rest] = Object.entries(summary.comparisons) as [
      string,
      { headline: boolean; flips: unknown },
    ][];
    expect(headline?.[1].headline).toBe(true);
    expect(rest.every(([, c]) => !c.headline)).toBe(true);
    expect(summary.flips).toEqual(headline?.[1].flips);
  });

  it.skipIf(!canMount)("fails clearly on a read-only folder and leaves nothing behind", () => {
    const ro = join(dir, "ro");
    expect(mount(ro, "ro")).toBe(true);
    try {
      const r = cli(["report", "--db", db, "--out", join(ro, "report")]);
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(/cannot write the report .*(EROFS|EACCES|ENOENT)/);
      expect(readdirSync(ro)).toEqual([]);
    } finally {
      spawnSync("umount", [ro]);
    }
  });

  it.skipIf(!canMount)("fails clearly on a full disk and leaves nothing behind", () => {
    const full = join(dir, "full");
    expect(mount(full, "size=64k")).toBe(true);
    try {
      const r = cli(["report", "--db", db, "--out", join(full, "report")]);
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(/cannot write the report .*ENOSPC|No space left/);
      expect(readdirSync(full)).toEqual([]);
      expect(existsSync(join(full, "report"))).toBe(false);
    } finally {
      spawnSync("umount", [full]);
    }
  });
});
