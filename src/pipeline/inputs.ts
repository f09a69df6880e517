/**
 * Expands CLI path arguments into the JSON and JSON Lines files below them, in a stable order.
 *
 * A corpus is untrusted, so walking it never throws below the given roots: an entry that cannot be
 * inspected (a symlink loop, a dangling link, an unreadable folder) and a folder named `*.json` are
 * listed like files, and reading them later fails with a reason that ends in the store's `files` and
 * `errors` tables. A folder reached twice (a symlink back up the tree) is walked once.
 */
import { readdirSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { FormatError } from "../formats/errors.ts";

/** What a corpus folder's walk reads: JSON results files and JSON Lines of simulations. */
export const isTrajectoryFileName = (name: string): boolean => /\.jsonl?$/i.test(name);

/** The real path of `p` when it lies outside `realRoot` (a symlink out of the root), else null. */
export function targetOutside(realRoot: string, p: string): string | null {
  let real: string;
  try {
    real = realpathSync(p);
  } catch {
    return null; // broken or looping: reported when read
  }
  const rel = relative(realRoot, real);
  return rel === "" || (!isAbsolute(rel) && rel !== ".." && !rel.startsWith(`..${sep}`)) ? null : real;
}

/**
 * With `root` (a config's corpus root), an entry whose real path is outside it is listed, never walked
 * into or read: the caller records it as refused (`targetOutside`).
 */
export function listInputFiles(paths: readonly string[], root?: string): string[] {
  const out: string[] = [];
  const seenDirs = new Set<string>();
  const realRoot = root === undefined ? undefined : realpathSync(root);
  const walkDir = (dir: string): void => {
    let real: string;
    let names: string[];
    try {
      real = realpathSync(dir);
      names = readdirSync(dir).sort();
    } catch {
      out.push(dir); // unreadable folder: reading it as a file records why
      return;
    }
    if (seenDirs.has(real)) return;
    seenDirs.add(real);
    for (const name of names) {
      const p = join(dir, name);
      if (realRoot !== undefined && targetOutside(realRoot, p) !== null) {
        out.push(p);
        continue;
      }
      let isDir: boolean;
      try {
        isDir = statSync(p).isDirectory();
      } catch {
        if (isTrajectoryFileName(name)) out.push(p); // a broken or looping link: reported when read
        continue;
      }
      if (isDir && !isTrajectoryFileName(name)) walkDir(p);
      else if (isTrajectoryFileName(name)) out.push(p);
    }
  };
  for (const p of paths) {
    let isDir: boolean;
    try {
      isDir = statSync(p).isDirectory();
    } catch {
      throw new FormatError(p, "$", "no such file or directory");
    }
    if (isDir) walkDir(p);
    else out.push(p); // named on purpose: never ignored for its extension (RESULTS.JSON, x.jsonl)
  }
  // The same path given twice (or reached from two arguments) is one input.
  const seen = new Set<string>();
  return out.filter((p) => !seen.has(resolve(p)) && seen.add(resolve(p)) !== undefined);
}
