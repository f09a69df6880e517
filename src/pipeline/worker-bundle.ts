/**
 * Worker threads start without the main thread's TypeScript loader, and re-compiling every module
 * in every worker costs more than the grading it parallelises. So the worker is bundled once with
 * esbuild (already installed for tsx) into a cached self-contained file; tsx is the fallback.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const SRC = fileURLToPath(new URL("..", import.meta.url));
const WORKER = fileURLToPath(new URL("./worker.ts", import.meta.url));
const FALLBACK = new URL("./worker-entry.mjs", import.meta.url);

/** A fingerprint of every source file (path, size, mtime): a changed tree gets a new bundle. */
function sourceFingerprint(): string {
  const h = createHash("sha256");
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else if (name.endsWith(".ts")) h.update(`${p}:${st.size}:${st.mtimeMs}\n`);
    }
  };
  walk(SRC);
  return h.digest("hex").slice(0, 16);
}

let cached: URL | undefined;

export async function workerScript(): Promise<URL> {
  if (cached !== undefined) return cached;
  try {
    const dir = join(tmpdir(), "tau-rescore-workers");
    const out = join(dir, `worker-${sourceFingerprint()}.mjs`);
    if (!existsSync(out)) {
      mkdirSync(dir, { recursive: true });
      // Bundles of older source trees are never used again.
      for (const old of readdirSync(dir))
        if (old.startsWith("worker-") && old.endsWith(".mjs")) rmSync(join(dir, old), { force: true });
      const esbuild = await import("esbuild");
      await esbuild.build({
        entryPoints: [WORKER],
        bundle: true,
        platform: "node",
        format: "esm",
        target: "node20",
        outfile: out,
        logLevel: "silent",
        // Bundled CommonJS dependencies still call require().
        banner: {
          js: 'import { createRequire as __trRequire } from "node:module"; const require = __trRequire(import.meta.url);',
        },
      });
    }
    cached = new URL(`file://${out}`);
  } catch {
    cached = FALLBACK;
  }
  return cached;
}
