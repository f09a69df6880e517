/**
 * Expands CLI path arguments into the JSON files below them, in a stable order.
 *
 * A corpus is untrusted, so walking it never throws below the given roots: an entry that cannot be
 * inspected (a symlink loop, a dangling link, an unreadable folder) and a folder named `*.json` are
 * listed like files, and reading them later fails with a reason that ends in the store's `files` and
 * `errors` tables. A folder reached twice (a symlink back up the tree) is walked once.
 */
import { readdirSync, realpathSync, statSync } from "node:fs";
import { join } from "node:path";
import { FormatError } from "../formats/errors.ts";

export function listInputFiles(paths: readonly string[]): string[] {
  const out: string[] = [];
  const seenDirs = new Set<string>();
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
      let isDir: boolean;
      try {
        isDir = statSync(p).isDirectory();
      } catch {
        if (name.endsWith(".json")) out.push(p); // a broken or looping link: reported when read
        continue;
      }
      if (isDir && !name.endsWith(".json")) walkDir(p);
      else if (name.endsWith(".json")) out.push(p);
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
    else if (p.endsWith(".json")) out.push(p);
  }
  return out;
}
