/**
 * The corrections overlays, one file per domain: the repo's `corrections/` folder, or a project's over it
 * (a project's `airline.json` in place of the curated one).
 */
import { existsSync } from "node:fs";
import { sep } from "node:path";
import { type FolderSource, layeredFiles, layersOf } from "../../util/layers.ts";
import { BUILTIN_CORRECTIONS_DIR, CorrectionsError } from "./folder.ts";
import { type CorrectionsFile, loadCorrections } from "./schema.ts";

export function loadCorrectionsDir(
  source: FolderSource = BUILTIN_CORRECTIONS_DIR,
): Map<string, CorrectionsFile> {
  for (const dir of layersOf(source))
    if (!existsSync(dir)) throw new CorrectionsError(`${dir}: corrections folder not found`);
  const out = new Map<string, CorrectionsFile>();
  // Overlays sit right in the folder.
  for (const { rel, path } of layeredFiles(source, (name) => name.endsWith(".json"))) {
    if (rel.includes(sep)) continue;
    const file = loadCorrections(path);
    if (out.has(file.domain))
      throw new CorrectionsError(
        `${layersOf(source).join(" over ")}: two overlays for domain ${file.domain}`,
      );
    out.set(file.domain, file);
  }
  return out;
}
