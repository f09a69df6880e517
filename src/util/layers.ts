/**
 * Folders seen as one, in layers: a project's own `requirements/` over the tool's curated set, say. A file
 * of a higher layer hides the file of the same relative path below it; every other file shows through.
 */
import { readdirSync, realpathSync, statSync } from "node:fs";
import { join, sep } from "node:path";

/** Folders, the one whose files win first. */
export type Layers = readonly [string, ...string[]];

/** A folder, or folders in layers. */
export type FolderSource = string | Layers;

export const layersOf = (source: FolderSource): Layers => (typeof source === "string" ? [source] : source);

const realOrSelf = (dir: string): string => {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
};

/** `own` over `curated`; one folder when both name the same (a checkout's own folders are the curated sets). */
export function layerOver(own: string, curated: string): Layers {
  return realOrSelf(own) === realOrSelf(curated) ? [own] : [own, curated];
}

export interface LayeredFile {
  /** The path below its folder, the same in every layer. */
  readonly rel: string;
  readonly path: string;
  /** Which layer it came from (0: the first). */
  readonly layer: number;
}

/** Name by name, as a walk of one folder with its names sorted would meet them. */
function walkOrder(a: LayeredFile, b: LayeredFile): number {
  const x = a.rel.split(sep);
  const y = b.rel.split(sep);
  for (let i = 0; i < Math.min(x.length, y.length); i++)
    if (x[i] !== y[i]) return (x[i] as string) < (y[i] as string) ? -1 : 1;
  return x.length - y.length;
}

/** The files `include` accepts (by name) below every layer, each relative path from the first layer that has it. */
export function layeredFiles(source: FolderSource, include: (name: string) => boolean): LayeredFile[] {
  const found = new Map<string, LayeredFile>();
  layersOf(source).forEach((dir, layer) => {
    const walk = (folder: string, rel: string) => {
      for (const name of readdirSync(folder)) {
        const path = join(folder, name);
        const r = rel === "" ? name : join(rel, name);
        if (statSync(path).isDirectory()) walk(path, r);
        else if (include(name) && !found.has(r)) found.set(r, { rel: r, path, layer });
      }
    };
    walk(dir, "");
  });
  return [...found.values()].sort(walkOrder);
}
