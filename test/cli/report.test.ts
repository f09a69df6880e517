/**
 * `tau-rescore report --out`: writes only into a folder that is new, empty or a previous report (its
 * manifest says so); never deletes anything else; an interrupt or a crash leaves a complete report.
 */
import { spawn, spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type CliResult, cliInProcess } from "../helpers/cli-in-process.ts";
import { CLI, smallExperiment } from "../helpers/small-run.ts";

let db = "";
let dir = "";
/** `tau-rescore ...args` in-process; the real process is spawned only where signals are the point. */
const cli = (args: readonly string[]): Promise<CliResult> => cliInProcess(args);

beforeAll(async () => {
  const s = smallExperiment();
  dir = s.dir;
  db = join(dir, "r.duckdb");
  expect((await cli(["run", s.experiment, "--db", db])).status).toBe(0);
}, 120_000);

const MANIFEST = ".tau-rescore-report.json";
const probe = join("/tmp", `tr-probe-${process.pid}`);
mkdirSync(probe, { recursive: true });
const canMount =
  process.getuid?.() === 0 &&
  spawnSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", probe]).status === 0;
if (canMount) spawnSync("umount", [probe]);

/** A fresh folder holding a copy of the store and a file of the user's. */
function workspace(name: string): { ws: string; store: string; notes: string } {
  const ws = join(dir, name);
  mkdirSync(join(ws, "notes"), { recursive: true });
  const store = join(ws, "default.duckdb");
  cpSync(db, store);
  const notes = join(ws, "notes", "thesis.txt");
  writeFileSync(notes, "three years of work\n");
  return { ws, store, notes };
}

const refused = (r: { status: number | null; stderr: string }) => {
  expect(r.status, r.stderr).toBe(2);
  expect(r.stderr.trim().split("\n")).toHaveLength(1);
  expect(r.stderr).not.toMatch(/\n\s+at /);
};

const partials = (out: string) =>
  readdirSync(dirname(out)).filter((n) => n.includes(".partial-") || n.includes(".previous-"));

describe("report --out never deletes what it did not write", () => {
  it("refuses a folder holding other files (the store, the user's notes)", async () => {
    const { ws, store, notes } = workspace("ws-parent");
    const r = await cli(["report", "--db", store, "--out", ws]);
    refused(r);
    expect(r.stderr).toContain(ws);
    expect(readFileSync(notes, "utf8")).toBe("three years of work\n");
    expect(lstatSync(store).isFile()).toBe(true);
    expect(partials(ws)).toEqual([]);
  });

  it("refuses --out . in a non-empty working directory", async () => {
    const { ws, store, notes } = workspace("ws-dot");
    const r = spawnSync(process.execPath, [CLI, "report", "--db", store, "--out", "."], {
      cwd: ws,
      encoding: "utf8",
    });
    refused(r);
    expect(existsSync(notes)).toBe(true);
    expect(existsSync(store)).toBe(true);
  });

  it("refuses a file as --out (never replaces the store with a folder)", async () => {
    const { store } = workspace("ws-file");
    const r = await cli(["report", "--db", store, "--out", store]);
    refused(r);
    expect(lstatSync(store).isFile()).toBe(true);
  });

  it("writes into a new or an empty folder, marks it, and replaces its own report", async () => {
    const { ws, store } = workspace("ws-ok");
    const empty = join(ws, "empty");
    mkdirSync(empty);
    expect((await cli(["report", "--db", store, "--out", empty])).status).toBe(0);
    const out = join(ws, "new", "report");
    let r = await cli(["report", "--db", store, "--out", out]);
    expect(r.status, r.stderr).toBe(0);
    const manifest = JSON.parse(readFileSync(join(out, MANIFEST), "utf8"));
    expect(manifest.files).toContain("summary.json");
    expect(manifest.files).toContain("flips.csv");
    r = await cli(["report", "--db", store, "--out", out]);
    expect(r.status, r.stderr).toBe(0);
    expect(existsSync(join(out, "summary.json"))).toBe(true);
    expect(partials(out)).toEqual([]);
  });

  it("refuses a previous report to which the user added a file, and keeps the file", async () => {
    const { ws, store } = workspace("ws-added");
    const out = join(ws, "report");
    expect((await cli(["report", "--db", store, "--out", out])).status).toBe(0);
    writeFileSync(join(out, "my-notes.md"), "mine\n");
    const r = await cli(["report", "--db", store, "--out", out]);
    refused(r);
    expect(r.stderr).toContain("my-notes.md");
    expect(readFileSync(join(out, "my-notes.md"), "utf8")).toBe("mine\n");
    expect(existsSync(join(out, "summary.json"))).toBe(true);
  });

  it("refuses a folder whose manifest lists files it did not write (a forged or edited manifest)", async () => {
    const { ws, store } = workspace("ws-forged");
    const out = join(ws, "report");
    mkdirSync(out);
    writeFileSync(join(out, "thesis.txt"), "mine\n");
    writeFileSync(join(out, MANIFEST), JSON.stringify({ tau_rescore_report: 1, files: ["thesis.txt"] }));
    refused(await cli(["report", "--db", store, "--out", out]));
    expect(existsSync(join(out, "thesis.txt"))).toBe(true);
  });
});

/** Starts a report and signals it as soon as its partial folder appears. */
async function interrupt(
  store: string,
  out: string,
  signal: NodeJS.Signals,
): Promise<{ code: number | null; signal: string | null; stderr: string }> {
  const child = spawn(process.execPath, [CLI, "report", "--db", store, "--out", out, "--html"], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d) => {
    stderr += String(d);
  });
  const done = new Promise<{ code: number | null; signal: string | null }>((res) =>
    child.on("exit", (code, sig) => res({ code, signal: sig })),
  );
  const partial = join(dirname(out), `.report.partial-${child.pid}`);
  const deadline = Date.now() + 60_000;
  while (!existsSync(partial) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  expect(existsSync(partial)).toBe(true);
  // Mid-write: a file of the report beside the partial manifest (its signal handlers are installed by then).
  const writing = () => existsSync(partial) && readdirSync(partial).some((n) => n !== MANIFEST);
  while (!writing() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  expect(writing()).toBe(true);
  child.kill(signal);
  return { ...(await done), stderr };
}

describe("report --out under interruption", () => {
  it("Ctrl-C mid-write leaves the old report complete and no partial folder", async () => {
    const { ws, store } = workspace("ws-int");
    const out = join(ws, "report");
    expect((await cli(["report", "--db", store, "--out", out])).status).toBe(0);
    const before = readFileSync(join(out, MANIFEST), "utf8");
    const r = await interrupt(store, out, "SIGINT");
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toMatch(/interrupted/);
    expect(partials(out)).toEqual([]);
    expect(readFileSync(join(out, MANIFEST), "utf8")).toBe(before);
  }, 120_000);

  it("SIGHUP (a closed terminal) mid-write exits 129, says so, and leaves no partial folder", async () => {
    const { ws, store } = workspace("ws-hup");
    const out = join(ws, "report");
    const r = await interrupt(store, out, "SIGHUP");
    expect(r.code, r.stderr).toBe(129);
    expect(r.stderr).toMatch(/report interrupted \(SIGHUP\); .*report was left as it was/);
    expect(partials(out)).toEqual([]);
    expect(existsSync(out)).toBe(false);
  }, 120_000);

  it("after a hard kill mid-write, the next report cleans up and replaces the old one", async () => {
    const { ws, store } = workspace("ws-kill");
    const out = join(ws, "report");
    expect((await cli(["report", "--db", store, "--out", out])).status).toBe(0);
    const r = await interrupt(store, out, "SIGKILL");
    expect(r.signal).toBe("SIGKILL");
    expect(existsSync(join(out, "summary.json"))).toBe(true); // the old report is still whole
    const again = await cli(["report", "--db", store, "--out", out]);
    expect(again.status, again.stderr).toBe(0);
    expect(partials(out)).toEqual([]);
  }, 120_000);
});

describe("report --out over a report whose manifest is gone", () => {
  it("refuses a folder holding only the names a report writes and its summary.json, and keeps it", async () => {
    const { ws, store } = workspace("ws-legacy");
    const out = join(ws, "report");
    expect((await cli(["report", "--db", store, "--out", out])).status).toBe(0);
    rmSync(join(out, MANIFEST));
    const before = readFileSync(join(out, "summary.json"), "utf8");
    refused(await cli(["report", "--db", store, "--out", out]));
    expect(existsSync(join(out, MANIFEST))).toBe(false);
    expect(readFileSync(join(out, "summary.json"), "utf8")).toBe(before);
  });

  it("refuses it when it holds anything else", async () => {
    const { ws, store } = workspace("ws-legacy-notes");
    const out = join(ws, "report");
    expect((await cli(["report", "--db", store, "--out", out])).status).toBe(0);
    rmSync(join(out, MANIFEST));
    writeFileSync(join(out, "notes.txt"), "mine\n");
    refused(await cli(["report", "--db", store, "--out", out]));
    expect(existsSync(join(out, "notes.txt"))).toBe(true);
  });
});

describe("report reads the store read-only", () => {
  it("leaves the store file unchanged: no views, no reviews written into it", async () => {
    const { ws, store } = workspace("ws-ro-bytes");
    const reviews = join(ws, "reviews.json");
    writeFileSync(reviews, JSON.stringify({ version: 1, reviews: [] }));
    const before = readFileSync(store);
    const r = await cli(["report", "--db", store, "--reviews", reviews, "--out", join(ws, "report")]);
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(store).equals(before)).toBe(true);
    expect(existsSync(`${store}.wal`)).toBe(false);
  });

  it("reports a store another process has open read-only", async () => {
    const { ws, store } = workspace("ws-ro-shared");
    const holder = spawn(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `import { DuckDBInstance } from "@duckdb/node-api";
         const i = await DuckDBInstance.create(${JSON.stringify(store)}, { access_mode: "READ_ONLY" });
         await i.connect(); process.stdout.write("open\\n"); setTimeout(() => {}, 60000);`,
      ],
      { stdio: ["ignore", "pipe", "inherit"], cwd: process.cwd() },
    );
    try {
      await new Promise<void>((res) => holder.stdout.once("data", () => res()));
      const r = await cli(["report", "--db", store, "--out", join(ws, "report")]);
      expect(r.status, r.stderr).toBe(0);
      expect(existsSync(join(ws, "report", "summary.json"))).toBe(true);
    } finally {
      holder.kill();
    }
  }, 60_000);

  it.skipIf(!canMount)("reports a store on a read-only file system", async () => {
    const { ws, store } = workspace("ws-ro-fs");
    const ro = join(ws, "ro");
    mkdirSync(ro);
    expect(spawnSync("mount", ["-t", "tmpfs", "tmpfs", ro]).status).toBe(0);
    try {
      cpSync(store, join(ro, "s.duckdb"));
      expect(spawnSync("mount", ["-o", "remount,ro", ro]).status).toBe(0);
      const r = await cli(["report", "--db", join(ro, "s.duckdb"), "--out", join(ws, "report")]);
      expect(r.status, r.stderr).toBe(0);
    } finally {
      spawnSync("umount", [ro]);
    }
  });
});
