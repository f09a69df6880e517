/**
 * The build: bin/ runs dist/ (compiled by tsc), which behaves exactly like the TypeScript sources,
 * resolves paths relative to a module (requirements, policies, corrections, thread entries) to the
 * same folders, and loads neither tsx nor esbuild (development tools).
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { CORPUS_DIR, DATA_DIR } from "../helpers/data.ts";

const REPO = join(import.meta.dirname, "../..");
const DIST = join(REPO, "dist");
const BIN = join(REPO, "bin/tau-rescore.js");

const run = (args: string[]) =>
  spawnSync(process.execPath, args, {
    cwd: REPO,
    encoding: "utf8",
    env: { ...process.env, TAU2_DATA_DIR: DATA_DIR },
  });

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
  );
}

describe("build", () => {
  it("runs a command from dist/ exactly like the TypeScript sources", () => {
    // `requirements list` reads the fixtures beside the code (a path relative to `import.meta.url`);
    // `corpus inspect` loads and classifies files.
    for (const args of [
      ["requirements", "list"],
      ["corpus", "inspect", join(CORPUS_DIR, "jitrc-tau2-enhanced")],
    ]) {
      const built = run([BIN, ...args]);
      const sources = run(["--import", "tsx", join(REPO, "src/cli/main.ts"), ...args]);
      expect(built.status, built.stderr).toBe(sources.status);
      expect(built.stdout.length).toBeGreaterThan(0);
      expect(built.stdout).toBe(sources.stdout);
      expect(built.stderr).toBe(sources.stderr);
    }
  }, 60_000);

  it("resolves the folders beside the code to the same paths from dist/ as from src/", async () => {
    const fromSrc: Record<string, Record<string, unknown>> = {
      "graders/structured/folders": await import("../../src/graders/structured/folders.ts"),
      "graders/corrections/folder": await import("../../src/graders/corrections/folder.ts"),
      "util/code-cache": await import("../../src/util/code-cache.ts"),
    };
    const names: [string, string][] = [
      ["graders/structured/folders", "BUILTIN_REQUIREMENTS_DIR"],
      ["graders/structured/folders", "BUILTIN_POLICIES_DIR"],
      ["graders/corrections/folder", "BUILTIN_CORRECTIONS_DIR"],
      ["util/code-cache", "CACHE_DIR"],
    ];
    for (const [module, name] of names) {
      const fromDist = (await import(pathToFileURL(join(DIST, `${module}.js`)).href)) as Record<
        string,
        unknown
      >;
      const expected = fromSrc[module]?.[name];
      expect(typeof expected, `${module} ${name}`).toBe("string");
      expect(fromDist[name], `${module} ${name}`).toBe(expected);
      expect(String(expected).startsWith(join(REPO, "src")), `${module} ${name}`).toBe(false);
    }
    // What threads are started from, beside the module that starts them.
    expect(existsSync(join(DIST, "pipeline/thread-entry.js"))).toBe(true);
    expect(existsSync(join(DIST, "charts/png-worker.mjs"))).toBe(true);
  });

  it("loads no development tool and no TypeScript file at run time", () => {
    const offending: string[] = [];
    for (const f of files(DIST).filter((p) => /\.(js|mjs)$/.test(p))) {
      const text = readFileSync(f, "utf8");
      for (const m of text.matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)) {
        const spec = m[1] as string;
        if (/^(tsx|esbuild)(\/|$)/.test(spec) || (spec.startsWith(".") && spec.endsWith(".ts")))
          offending.push(`${relative(DIST, f)}: ${spec}`);
      }
    }
    expect(offending).toEqual([]);
    expect(existsSync(join(DIST, "pipeline/thread-entry-tsx.mjs"))).toBe(false);
  });

  it("says in one line to build first when dist/ is missing, and exits 2", () => {
    const dir = mkdtempSync(join(tmpdir(), "tr-bin-"));
    mkdirSync(join(dir, "bin"));
    copyFileSync(BIN, join(dir, "bin/tau-rescore.js"));
    const r = spawnSync(process.execPath, [join(dir, "bin/tau-rescore.js"), "--help"], { encoding: "utf8" });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("npm run build");
  });
});
