/**
 * The one base class of this tool's errors. Each kind names a stable `code` and the exit status a
 * command ends with when it ends the command, so the CLI maps every error in one place
 * (`cli/errors.ts`) instead of each command translating the errors of the layers below.
 */

/** All inputs fine. */
export const EXIT_OK = 0;
/** Some input failed (a file, a store, a report target): the rest was done. */
export const EXIT_INPUT_FAILED = 1;
/** A usage mistake: bad flags, arguments or configuration; nothing was done. */
export const EXIT_USAGE = 2;
/** A bug, or a failure the tool does not expect: printed as unexpected. */
export const EXIT_INTERNAL = 3;

export type ExitStatus = typeof EXIT_INPUT_FAILED | typeof EXIT_USAGE | typeof EXIT_INTERNAL;

export abstract class RescoreError extends Error {
  /** A stable name for the kind of failure, e.g. `usage`, `format`, `store`. */
  abstract readonly code: string;
  abstract readonly exitStatus: ExitStatus;
}
