import { EXIT_INTERNAL, RescoreError } from "../util/errors.ts";

/**
 * A failure that aborts grading of one simulation in tau2 (an exception outside a tool call):
 * malformed call/message pairing, a raising init action or env assertion, solo-mode violations.
 */
export class ReplayAbort extends RescoreError {
  override readonly code = "replay_abort";
  override readonly exitStatus = EXIT_INTERNAL;

  constructor(
    message: string,
    /** Where it happened, e.g. `messages[12]` or `initialization_actions[0]`. */
    readonly at: string | null = null,
  ) {
    super(message);
    this.name = "ReplayAbort";
  }
}
