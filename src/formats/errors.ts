import { EXIT_INPUT_FAILED, RescoreError } from "../util/errors.ts";

/**
 * The one error type for expected whole-file problems (unreadable file, invalid JSON, a shape that is
 * not a trajectory file, an invalid embedded task). It names the file and the JSON path, so the CLI can
 * print one line without a stack trace.
 */
export class FormatError extends RescoreError {
  override readonly code = "format";
  override readonly exitStatus = EXIT_INPUT_FAILED;

  override readonly name = "FormatError";

  constructor(
    readonly file: string,
    /** JSON path inside the file, e.g. `tasks[3].evaluation_criteria`; `$` for the whole document. */
    readonly path: string,
    /** The reason alone; `message` carries the full one-line text. */
    readonly reason: string,
  ) {
    super(path === "$" ? `${file}: ${reason}` : `${file}: at ${path}: ${reason}`);
  }
}
