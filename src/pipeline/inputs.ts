/** Expands CLI path arguments into the JSON files below them, in a stable order. */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { FormatError } from "../formats/errors.ts";

export function listInputFiles(paths: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (p: string): void => {
    const st = statSync(p);
    if (st.isDirectory()) {
      for (const name of readdirSync(p).sort()) walk(join(p, name));
    } else if (p.endsWith(".json")) out.push(p);
  };
  for (const p of paths) {
    try {
      statSync(p);
    } catch {
      throw new FormatError(p, "$", "no such file or directory");
    }
    walk(p);
  }
  return out;
}
