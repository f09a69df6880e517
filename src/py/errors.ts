import { EXIT_INTERNAL, RescoreError } from "../util/errors.ts";

/** A Python exception raised by emulated Python code; tools turn it into `Error: <message>`. */
export class PyException extends RescoreError {
  override readonly code = "python_exception";
  override readonly exitStatus = EXIT_INTERNAL;

  constructor(message: string) {
    // Tools raise these by the thousand per corpus and only the message is ever used: skip the
    // stack trace, which cost about 5x the rest of the throw.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
    this.name = "ToolError";
  }
  /** The Python exception class, where a caller's `except` depends on it. */
  readonly pyType: string = "Exception";
}

/** A Python `TypeError` (callers that catch only TypeError, like banking's dispatchers, tell it apart). */
export class PyTypeError extends PyException {
  override readonly pyType = "TypeError";
}
