/**
 * Where values derived by this code are kept across processes (the validated airline and retail DBs),
 * and a fingerprint of the code that derived them. The paths are relative to this module, so they
 * name the same folders from src/ (tests, `tsx`) and from dist/ (the built command).
 */
import { createHash } from "node:crypto";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The running code's root: src/ or dist/. */
const CODE_DIR = fileURLToPath(new URL("..", import.meta.url));

/** Inside the checkout's node_modules, so two checkouts never share or prune each other's entries. */
export const CACHE_DIR = fileURLToPath(new URL("../../node_modules/.cache/tau-rescore", import.meta.url));

/** A fingerprint of every module of the running code (path, size, mtime): changed code gets new entries. */
export function codeFingerprint(dir: string = CODE_DIR): string {
  const h = createHash("sha256");
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else if (/\.(ts|js|mjs)$/.test(name)) h.update(`${p}:${st.size}:${st.mtimeMs}\n`);
    }
  };
  walk(dir);
  return h.digest("hex").slice(0, 16);
}
