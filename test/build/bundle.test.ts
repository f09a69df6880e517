/**
 * The cached esbuild bundles the launcher and the grading threads run from: built once per source
 * tree (also under parallel builds), stale ones pruned, and a bundled command behaves exactly like
 * the TypeScript sources (paths relative to a source file included).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { bundle, CACHE_DIR, SRC_DIR, sourceFingerprint } from "../../src/build/bundle.mjs";
import { CORPUS_DIR, DATA_DIR } from "../helpers/data.ts";

const MAIN = join(SRC_DIR, "cli", "main.ts");
// Inside the checkout (packages left external must resolve from the bundle), apart from the real cache.
const cacheDir = join(dirname(CACHE_DIR), `tau-rescore-test-${process.pid}`);
afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

const run = (script: string[]) =>
  spawnSync(process.execPath, script, { encoding: "utf8", env: { ...process.env, TAU2_DATA_DIR: DATA_DIR } });

describe("bundle", () => {
  it("builds one bundle per source tree, also when builds race", async () => {
    const paths = await Promise.all([bundle(MAIN, "cli", cacheDir), bundle(MAIN, "cli", cacheDir)]);
    expect(paths[0]).toBe(paths[1]);
    const main = paths[0] as string;
    expect(basename(dirname(main))).toBe(`cli-${sourceFingerprint()}`);
    expect(existsSync(main)).toBe(true);
    // The loser's folder is gone: nothing but the bundle itself is left.
    expect(readdirSync(cacheDir)).toEqual([basename(dirname(main))]);
    const built = statSync(main).mtimeMs;
    expect(await bundle(MAIN, "cli", cacheDir)).toBe(main);
    expect(statSync(main).mtimeMs).toBe(built); // cached, not rebuilt
  }, 60_000);

  it("prunes bundles of other source trees once they are stale, and keeps recent ones", async () => {
    mkdirSync(cacheDir, { recursive: true });
    const stale = join(cacheDir, "cli-0000000000000000");
    const recent = join(cacheDir, "cli-1111111111111111");
    const otherName = join(cacheDir, "worker-0000000000000000");
    for (const d of [stale, recent, otherName]) mkdirSync(d, { recursive: true });
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    utimesSync(stale, twoHoursAgo, twoHoursAgo);
    utimesSync(otherName, twoHoursAgo, twoHoursAgo);
    // A build happens only for a tree without a bundle: start from a cache without this tree's.
    rmSync(join(cacheDir, `cli-${sourceFingerprint()}`), { recursive: true, force: true });
    await bundle(MAIN, "cli", cacheDir);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(recent)).toBe(true);
    expect(existsSync(otherName)).toBe(true); // another bundle's folders are its own to prune
  }, 60_000);

  it("keeps each module's import.meta.url its source file's URL (in code, not in strings)", async () => {
    const fixture = fileURLToPath(new URL("./fixtures/where.ts", import.meta.url));
    const m = (await import(pathToFileURL(await bundle(fixture, "where", cacheDir)).href)) as {
      here: string;
      there: string;
      text: string;
    };
    expect(m.here).toBe(pathToFileURL(fixture).href);
    expect(m.there).toBe(new URL("./fixtures/nested/where.ts", import.meta.url).href);
    expect(m.text).toBe("import.meta.url");
  }, 60_000);

  it("runs a command exactly like the TypeScript sources", async () => {
    const main = await bundle(MAIN, "cli", cacheDir);
    // `requirements list` reads the fixtures next to the sources (a path relative to a source file's
    // `import.meta.url`); `corpus inspect` loads and classifies files.
    for (const args of [
      ["requirements", "list"],
      ["corpus", "inspect", join(CORPUS_DIR, "jitrc-tau2-enhanced")],
    ]) {
      const bundled = run([main, ...args]);
      const sources = run(["--import", "tsx", MAIN, ...args]);
      expect(bundled.status, bundled.stderr).toBe(sources.status);
      expect(bundled.stdout.length).toBeGreaterThan(0);
      expect(bundled.stdout).toBe(sources.stdout);
      expect(bundled.stderr).toBe(sources.stderr);
    }
  }, 60_000);

  it("says once per process, on stderr, when it cannot build and runs from the sources", () => {
    // A cache folder below a regular file cannot be created (ENOTDIR, also for root).
    mkdirSync(cacheDir, { recursive: true });
    const blocker = join(cacheDir, "not-a-folder");
    writeFileSync(blocker, "");
    const script = `
      import { bundleToRun } from ${JSON.stringify(pathToFileURL(join(SRC_DIR, "build", "bundle.mjs")).href)};
      const entry = ${JSON.stringify(MAIN)};
      const cache = ${JSON.stringify(join(blocker, "cache"))};
      console.log(JSON.stringify([await bundleToRun(entry, "cli", cache), await bundleToRun(entry, "worker", cache)]));`;
    const attempt = (env: NodeJS.ProcessEnv) =>
      spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", env });
    const failed = attempt({ ...process.env, TAU_RESCORE_NO_BUNDLE: "" });
    expect(failed.status, failed.stderr).toBe(0);
    expect(JSON.parse(failed.stdout)).toEqual([null, null]);
    const warnings = failed.stderr.split("\n").filter((l) => l.startsWith("tau-rescore: warning:"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("could not build the cli bundle");
    expect(warnings[0]).toContain("ENOTDIR");
    expect(warnings[0]).toContain("TAU_RESCORE_NO_BUNDLE=1");
    // Asked for the sources: no attempt, nothing to say.
    const asked = attempt({ ...process.env, TAU_RESCORE_NO_BUNDLE: "1" });
    expect(JSON.parse(asked.stdout)).toEqual([null, null]);
    expect(asked.stderr).toBe("");
  }, 60_000);
});
