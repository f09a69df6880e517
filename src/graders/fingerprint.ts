/**
 * Content fingerprints of the files a grader's configuration points at (fixtures, overlays, label
 * overrides), so a grader's `spec_hash` changes when they do and stays put when they only move.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { z } from "zod";
import { EXIT_USAGE, RescoreError } from "../util/errors.ts";

/** A folder or file and the sha256 of its content; only the content enters a spec hash. */
export const contentRefSchema = z.strictObject({
  path: z.string().min(1),
  sha256: z.string().regex(/^[0-9a-f]{64}$/, "a sha256 in hex"),
});
export type ContentRef = z.infer<typeof contentRefSchema>;

export class FingerprintError extends RescoreError {
  override readonly code = "fingerprint";
  override readonly exitStatus = EXIT_USAGE;

  override readonly name = "FingerprintError";
}

/** sha256 over the names and bytes of the files below `dir` that `include` accepts, in a fixed order. */
export function folderRef(dir: string, include: (name: string) => boolean): ContentRef {
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new FingerprintError(`${dir}: folder not found`);
  const h = createHash("sha256");
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (include(name))
        h.update(`${relative(dir, p)}\0`)
          .update(readFileSync(p))
          .update("\0");
    }
  };
  walk(dir);
  return { path: dir, sha256: h.digest("hex") };
}

export function fileRef(path: string): ContentRef {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw new FingerprintError(
      `${path}: cannot read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
    );
  }
  return { path, sha256: createHash("sha256").update(bytes).digest("hex") };
}

/** The value with every content ref reduced to its hash: what a spec hash is taken over. */
export function contentIdentity(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(contentIdentity);
  if (v === null || typeof v !== "object") return v;
  const o = v as Record<string, unknown>;
  if (typeof o.sha256 === "string" && typeof o.path === "string" && Object.keys(o).length === 2)
    return o.sha256;
  return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, contentIdentity(x)]));
}
