/**
 * Content fingerprints of the files a grader's configuration points at (fixtures, overlays, label
 * overrides), so a grader's `spec_hash` changes when they do and stays put when they only move.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import { EXIT_USAGE, RescoreError } from "../util/errors.ts";
import { type FolderSource, type Layers, layeredFiles, layersOf } from "../util/layers.ts";
import { z } from "../util/zod.ts";

/** A folder or file and the sha256 of its content; only the content enters a spec hash. */
export const contentRefSchema = z.strictObject({
  path: z.string().min(1),
  sha256: z.string().regex(/^[0-9a-f]{64}$/, "a sha256 in hex"),
  /** Folders the one at `path` lies over, the next first: a file of `path` hides theirs of the same name. */
  over: z.array(z.string().min(1)).min(1).optional(),
});
export type ContentRef = z.infer<typeof contentRefSchema>;

/** The folders a ref names, the first to win first. */
export const refLayers = (ref: ContentRef): Layers => [ref.path, ...(ref.over ?? [])];

export class FingerprintError extends RescoreError {
  override readonly code = "fingerprint";
  override readonly exitStatus = EXIT_USAGE;

  override readonly name = "FingerprintError";
}

/**
 * sha256 over the names and bytes of the files below the folder (or its layers) that `include` accepts, in
 * a fixed order: the files a grader reads, wherever each comes from.
 */
export function folderRef(source: FolderSource, include: (name: string) => boolean): ContentRef {
  const [path, ...over] = layersOf(source);
  for (const dir of [path, ...over])
    if (!existsSync(dir) || !statSync(dir).isDirectory())
      throw new FingerprintError(`${dir}: folder not found`);
  const h = createHash("sha256");
  for (const f of layeredFiles(source, include))
    h.update(`${f.rel}\0`).update(readFileSync(f.path)).update("\0");
  // One folder keeps the ref it always had (a stored spec reads as before).
  return over.length === 0 ? { path, sha256: h.digest("hex") } : { path, sha256: h.digest("hex"), over };
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
  if (
    typeof o.sha256 === "string" &&
    typeof o.path === "string" &&
    Object.keys(o).every((k) => k === "path" || k === "sha256" || k === "over")
  )
    return o.sha256;
  return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, contentIdentity(x)]));
}
