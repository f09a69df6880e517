/**
 * esbuild bundles of our TypeScript sources, built once per source tree and cached, for the command
 * line and the grading threads. Loading the ~200 modules one by one through tsx's loader costs about
 * 0.4 s per process and per thread; one bundled file loads in well under 0.1 s.
 *
 * Plain JavaScript, because the launcher (`bin/tau-rescore.js`) uses it before any TypeScript loader
 * exists. Bundles live in the checkout's `node_modules/.cache/tau-rescore/`, so the packages they
 * import (left external) resolve as they do from `src/`, and two checkouts never share or prune each
 * other's bundles. Each source file's `import.meta.url` stays that file's URL, so paths relative to a
 * source file (requirements, corrections, the worker entry) resolve the same bundled or not.
 */
import { createHash, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** The `src/` folder these bundles are built from. */
export const SRC_DIR = fileURLToPath(new URL("..", import.meta.url));
export const CACHE_DIR = fileURLToPath(new URL("../../node_modules/.cache/tau-rescore", import.meta.url));

/** Bundles of other source trees are deleted once this old (a process started before an edit may still load its own). */
const STALE_MS = 60 * 60 * 1000;

/** A fingerprint of every source file (path, size, mtime): a changed tree gets a new bundle. */
export function sourceFingerprint(dir = SRC_DIR) {
  const h = createHash("sha256");
  const walk = (d) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else if (/\.(ts|mjs)$/.test(name)) h.update(`${p}:${st.size}:${st.mtimeMs}\n`);
    }
  };
  walk(dir);
  return h.digest("hex").slice(0, 16);
}

/** Gives each of our modules its own source file's URL as `import.meta.url` (esbuild would give the bundle's). */
const sourceUrls = {
  name: "source-import-meta-url",
  setup(build) {
    build.onLoad({ filter: /\.(ts|mjs)$/ }, (args) => {
      const text = readFileSync(args.path, "utf8");
      if (!text.includes("import.meta.url")) return undefined;
      // `define` below turns `import.meta.url` (in code, never in strings) into this module's constant.
      const prelude = `const __sourceFileUrl = ${JSON.stringify(pathToFileURL(args.path).href)};\n`;
      return { contents: prelude + text, loader: args.path.endsWith(".ts") ? "ts" : "js" };
    });
  },
};

/**
 * The path of the bundle of `entry` (a module under `src/`), building it first when this source tree
 * has none yet. Throws when esbuild fails or the cache folder is not writable (callers fall back to tsx).
 * The bundle is split at dynamic imports, so what a command loads lazily (vega for charts) is still
 * loaded only when used.
 * @param {string} entry absolute path of the entry module
 * @param {string} name folder name prefix of the bundle; it stands for `entry` (one bundle per name and source tree)
 * @param {string} [cacheDir] where bundles are kept (inside the checkout, so packages resolve)
 * @returns {Promise<string>}
 */
export async function bundle(entry, name, cacheDir = CACHE_DIR) {
  const dir = join(cacheDir, `${name}-${sourceFingerprint()}`);
  const main = join(dir, `${basename(entry).replace(/\.[^.]+$/, "")}.mjs`);
  if (existsSync(main)) return main;
  mkdirSync(cacheDir, { recursive: true });
  // Parallel builds of the same bundle (processes, threads, calls): each builds its own folder and
  // renames it into place; the first rename wins.
  const partial = `${dir}.${randomUUID()}.partial`;
  const esbuild = await import("esbuild");
  await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    splitting: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    outdir: partial,
    outExtension: { ".js": ".mjs" },
    logLevel: "silent",
    define: { "import.meta.url": "__sourceFileUrl" },
    plugins: [sourceUrls],
  });
  try {
    renameSync(partial, dir);
  } catch (e) {
    rmSync(partial, { recursive: true, force: true });
    if (!existsSync(main)) throw e; // not another process's identical bundle: a real failure
  }
  pruneStale(cacheDir, name, basename(dir));
  return main;
}

/** Set once a process has said that it runs from the sources (the CLI and its threads may each ask). */
const WARNED = Symbol.for("tau-rescore.bundle-fallback-warned");

/**
 * The bundle of `entry` to run, or null for the sources through tsx: when `TAU_RESCORE_NO_BUNDLE` is
 * set (stack traces then name the .ts files), or when no bundle can be built (no esbuild, a read-only
 * checkout). A failed build is said once per process on stderr, so a slow fallback is never a mystery.
 * The launcher and the grading threads both decide here.
 * @param {string} entry absolute path of the entry module
 * @param {string} name as for `bundle`
 * @param {string} [cacheDir] as for `bundle`
 * @returns {Promise<string | null>}
 */
export async function bundleToRun(entry, name, cacheDir = CACHE_DIR) {
  if (process.env.TAU_RESCORE_NO_BUNDLE) return null;
  try {
    return await bundle(entry, name, cacheDir);
  } catch (e) {
    if (!globalThis[WARNED]) {
      globalThis[WARNED] = true;
      const why = e instanceof Error ? e.message.split("\n")[0] : String(e);
      process.stderr.write(
        `tau-rescore: warning: could not build the ${name} bundle in ${cacheDir} (${why}); running from ` +
          "the TypeScript sources, which starts about 0.4 s slower. Set TAU_RESCORE_NO_BUNDLE=1 to skip the attempt.\n",
      );
    }
    return null;
  }
}

function pruneStale(cacheDir, name, current) {
  const now = Date.now();
  for (const f of readdirSync(cacheDir)) {
    if (!f.startsWith(`${name}-`) || f === current) continue;
    const p = join(cacheDir, f);
    try {
      if (now - statSync(p).mtimeMs > STALE_MS) rmSync(p, { recursive: true, force: true });
    } catch {
      // another process pruned it first
    }
  }
}
