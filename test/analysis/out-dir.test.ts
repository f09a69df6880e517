/**
 * `report --out` decides from the target's own listing and its manifest: a folder that is not a
 * report of ours (`/`, a home folder) is refused in one line without looking inside it, and a previous
 * report's unlisted folders are named, not entered. Every `readdirSync` is recorded to show it.
 */
import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { checkOutDir, MANIFEST, OutDirError } from "../../src/analysis/out-dir.ts";
import { registerReportCommand } from "../../src/cli/commands/report.ts";
import { VerdictStore } from "../../src/store/store.ts";
import { runInProcess } from "../helpers/cli-in-process.ts";

vi.mock("node:fs", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:fs")>();
  return { ...real, readdirSync: vi.fn(real.readdirSync) };
});

const listed = vi.mocked(readdirSync);
/** Folders strictly inside `dir` that were listed since the last reset. */
const listedInside = (dir: string) =>
  listed.mock.calls
    .map(([p]) => resolve(String(p)))
    .filter((p) => {
      const rel = relative(dir, p);
      return rel !== "" && !rel.startsWith("..");
    });

let root = "";
let db = "";
const locked: string[] = [];
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "tr-out-dir-"));
  db = join(root, "s.duckdb");
  (await VerdictStore.open(db)).close();
});
afterEach(() => {
  process.exitCode = undefined;
});
afterAll(() => {
  for (const d of locked) chmodSync(d, 0o755);
});

const report = (out: string) => runInProcess(registerReportCommand, ["report", "--db", db, "--out", out]);

const refusedInOneLine = (r: Awaited<ReturnType<typeof report>>) => {
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr.trim().split("\n")).toHaveLength(1);
  expect(r.stderr).not.toMatch(/\n\s+at /);
};

/** A folder of someone's: a file, an unreadable subfolder and a deep tree. */
function foreignFolder(name: string): string {
  const dir = join(root, name);
  let deep = join(dir, "projects");
  for (let i = 0; i < 30; i++) deep = join(deep, `d${i}`);
  mkdirSync(deep, { recursive: true });
  writeFileSync(join(deep, "thesis.txt"), "mine\n");
  writeFileSync(join(dir, "notes.txt"), "mine\n");
  const secret = join(dir, "secret");
  mkdirSync(join(secret, "inner"), { recursive: true });
  chmodSync(secret, 0o000);
  locked.push(secret);
  return dir;
}

const sha = (text: string) => createHash("sha256").update(text).digest("hex");

/** A previous report: its files and a complete manifest listing them. */
function previousReport(name: string, files: Record<string, string>): string {
  const dir = join(root, name);
  for (const [f, text] of Object.entries(files)) {
    mkdirSync(join(dir, f, ".."), { recursive: true });
    writeFileSync(join(dir, f), text);
  }
  const names = Object.keys(files).sort();
  const sums = Object.fromEntries(names.map((f) => [f, sha(files[f] as string)]));
  writeFileSync(
    join(dir, MANIFEST),
    JSON.stringify({ tau_rescore_report: 1, state: "complete", files: names, sha256: sums }),
  );
  return dir;
}

describe("report --out refuses what is not a report of ours, from its top level", () => {
  it("refuses / in one line, exit 2", async () => {
    refusedInOneLine(await report("/"));
  });

  it("refuses a non-empty folder without our manifest, never listing below it", async () => {
    const dir = foreignFolder("home");
    listed.mockClear();
    const r = await report(dir);
    refusedInOneLine(r);
    expect(r.stderr).toContain(dir);
    expect(listedInside(dir)).toEqual([]);
  });

  it("refuses a folder holding only names a report writes when it has no manifest", () => {
    const dir = join(root, "no-manifest");
    mkdirSync(join(dir, "charts"), { recursive: true });
    writeFileSync(join(dir, "summary.json"), JSON.stringify({ run: null, by_domain: [], flips: {} }));
    writeFileSync(join(dir, "flips.csv"), "a\n");
    writeFileSync(join(dir, "charts", "flip_rates.svg"), "<svg/>");
    listed.mockClear();
    expect(() => checkOutDir(dir)).toThrow(OutDirError);
    expect(listedInside(dir)).toEqual([]);
  });

  it("names a folder a previous report did not write without entering it", () => {
    const dir = previousReport("added-folder", { "summary.json": "{}", "charts/a.svg": "<svg/>" });
    mkdirSync(join(dir, "mine", "deeper"), { recursive: true });
    writeFileSync(join(dir, "mine", "deeper", "x.txt"), "mine\n");
    listed.mockClear();
    expect(() => checkOutDir(dir)).toThrow(/previous report.*\(mine\)/);
    expect(listedInside(dir)).toEqual([join(dir, "charts")]);
  });

  it("accepts a new folder, an empty one and a previous report its manifest describes", () => {
    expect(checkOutDir(join(root, "new", "report"))).toBe("new");
    mkdirSync(join(root, "empty"));
    expect(checkOutDir(join(root, "empty"))).toBe("empty");
    const dir = previousReport("ok", { "summary.json": "{}", "charts/a.svg": "<svg/>" });
    expect(checkOutDir(dir)).toBe("report");
  });

  it("refuses a previous report whose file was changed", () => {
    const dir = previousReport("changed", { "summary.json": "{}", "charts/a.svg": "<svg/>" });
    writeFileSync(join(dir, "charts", "a.svg"), "<svg>edited</svg>");
    expect(() => checkOutDir(dir)).toThrow(/charts\/a\.svg/);
  });
});
