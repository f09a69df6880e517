/** The corrections overlays shipped in the repo's `corrections/` folder, one file per domain. */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { BUILTIN_CORRECTIONS_DIR, CorrectionsError } from "./folder.ts";
import { type CorrectionsFile, loadCorrections } from "./schema.ts";

export function loadCorrectionsDir(dir: string = BUILTIN_CORRECTIONS_DIR): Map<string, CorrectionsFile> {
  if (!existsSync(dir)) throw new CorrectionsError(`${dir}: corrections folder not found`);
  const out = new Map<string, CorrectionsFile>();
  for (const name of readdirSync(dir).sort()) {
    if (!name.endsWith(".json")) continue;
    const file = loadCorrections(join(dir, name));
    if (out.has(file.domain)) throw new CorrectionsError(`${dir}: two overlays for domain ${file.domain}`);
    out.set(file.domain, file);
  }
  return out;
}
