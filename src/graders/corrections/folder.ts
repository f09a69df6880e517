/** The repository's corrections overlays (the corrected grader's default), and what a broken one raises. */
import { fileURLToPath } from "node:url";
import { EXIT_USAGE, RescoreError } from "../../util/errors.ts";

export const BUILTIN_CORRECTIONS_DIR = fileURLToPath(new URL("../../../corrections", import.meta.url));

/** A broken overlay file or an overlay that does not fit its task set. */
export class CorrectionsError extends RescoreError {
  override readonly code = "corrections";
  override readonly exitStatus = EXIT_USAGE;

  override readonly name = "CorrectionsError";
}
