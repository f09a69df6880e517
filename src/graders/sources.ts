/**
 * Where the authored files a grader reads come from, in words: `requirements: project requirements/ (3
 * files) over tau-rescore 0.1.0's curated set (108 files)`. `corpus inspect` and the report name them.
 */
import { existsSync, realpathSync } from "node:fs";
import { isAbsolute, relative, sep } from "node:path";
import { type FolderSource, layeredFiles, layersOf } from "../util/layers.ts";
import { TOOL_VERSION } from "../util/package.ts";
import { BUILTIN_CORRECTIONS_DIR } from "./corrections/folder.ts";
import { type ContentRef, contentRefSchema, refLayers } from "./fingerprint.ts";
import { BUILTIN_POLICIES_DIR, BUILTIN_REQUIREMENTS_DIR } from "./structured/folders.ts";

export type SourceKind = "requirements" | "policies" | "corrections";

const CURATED: Record<SourceKind, string> = {
  requirements: BUILTIN_REQUIREMENTS_DIR,
  policies: BUILTIN_POLICIES_DIR,
  corrections: BUILTIN_CORRECTIONS_DIR,
};

/** The files counted: fixtures (not the `_` files beside them), clause files, overlays. */
const COUNTED: Record<SourceKind, (rel: string, name: string) => boolean> = {
  requirements: (_rel, name) => name.endsWith(".json") && !name.startsWith("_"),
  policies: (_rel, name) => name.endsWith(".json"),
  corrections: (rel, name) => name.endsWith(".json") && !rel.includes(sep),
};

const real = (dir: string): string => {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
};

const files = (n: number) => `${n} file${n === 1 ? "" : "s"}`;

/** A folder as a reader finds it: relative to `base` when inside it, else its whole path. */
function shown(dir: string, base: string): string {
  const rel = relative(base, dir);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel) ? `${rel}/` : `${dir}/`;
}

/** One line naming each layer of `source`, first (winning) first, with the files it holds. */
export function describeSource(kind: SourceKind, source: FolderSource, base: string = process.cwd()): string {
  const layers = layersOf(source);
  const curated = real(CURATED[kind]);
  const words = layers.map((dir, i) => {
    if (!existsSync(dir)) return `${shown(dir, base)} (not found)`;
    const n = layeredFiles(dir, () => true).filter((f) =>
      COUNTED[kind](f.rel, f.rel.split(sep).at(-1) ?? ""),
    ).length;
    if (real(dir) === curated) return `tau-rescore ${TOOL_VERSION}'s curated set (${files(n)})`;
    return `${i === 0 && layers.length > 1 ? "project " : ""}${shown(dir, base)} (${files(n)})`;
  });
  return `${kind}: ${words.join(" over ")}`;
}

const refAt = (v: unknown, ...path: string[]): ContentRef | null => {
  let at = v;
  for (const key of path)
    at = at !== null && typeof at === "object" ? (at as Record<string, unknown>)[key] : undefined;
  const parsed = contentRefSchema.safeParse(at);
  return parsed.success ? parsed.data : null;
};

/** The sources a run's grading spec (as stored) read: requirements and policies, corrections when it ran them. */
export function runSources(spec: unknown, base: string = process.cwd()): string[] {
  const out: string[] = [];
  const add = (kind: SourceKind, ref: ContentRef | null) => {
    if (ref !== null) out.push(describeSource(kind, refLayers(ref), base));
  };
  add("requirements", refAt(spec, "graders", "structured", "requirements"));
  add("policies", refAt(spec, "graders", "structured", "policies"));
  add("corrections", refAt(spec, "graders", "tau3_corrected", "overlays"));
  return out;
}
