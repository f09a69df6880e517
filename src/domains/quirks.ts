/**
 * tau2 behaviours that are bugs, reproduced by default for parity. Each one is named here
 * only, documented, pinned by a test, and can be switched off to report a "fixed" grading beside it.
 */
import { EXIT_USAGE, RescoreError } from "../util/errors.ts";
export interface Quirks {
  /** Retail `modify_pending_order_items` gives every modified item the last looked-up variant's price and options. */
  readonly retailMultiItemPricing: boolean;
  /** Since tau2 1.0, `initialization_data` points the user toolkit at the agent DB object (and back). */
  readonly userDbAliasing: boolean;
  /** Telecom `connect_vpn` attaches one process-wide VPN object that `break_vpn` degrades for everyone after. */
  readonly telecomSharedVpn: boolean;
  /** The gold replay runs no `sync_tools` after gold actions (telecom gold user DB stays un-synced). */
  readonly noGoldSync: boolean;
  /**
   * Banking discoverable tools can be called directly by name (no unlock, no log record); replay then
   * follows the decorator's mutates flag, so a direct user call of `get_card_last_4_digits` (READ, yet
   * it writes a call log record live) is skipped and that record is missing from the replayed DB.
   */
  readonly discoverableDirectReadSkip: boolean;
}

export const TAU2_QUIRKS: Quirks = Object.freeze({
  retailMultiItemPricing: true,
  userDbAliasing: true,
  telecomSharedVpn: true,
  noGoldSync: true,
  discoverableDirectReadSkip: true,
});

export const FIXED_QUIRKS: Quirks = Object.freeze({
  retailMultiItemPricing: false,
  userDbAliasing: false,
  telecomSharedVpn: false,
  noGoldSync: false,
  discoverableDirectReadSkip: false,
});

export const QUIRK_NAMES = Object.keys(TAU2_QUIRKS) as (keyof Quirks)[];

export class QuirkSpecError extends RescoreError {
  override readonly code = "quirk_spec";
  override readonly exitStatus = EXIT_USAGE;

  override readonly name = "QuirkSpecError";
}

/**
 * Quirks from a preset (`tau2` = reproduce every tau2 bug, `fixed` = none) and overrides such as
 * `noGoldSync=off`.
 */
export function resolveQuirks(preset: string, overrides: readonly string[] = []): Quirks {
  if (preset !== "tau2" && preset !== "fixed")
    throw new QuirkSpecError(`unknown quirk preset ${preset} (tau2, fixed)`);
  const out: Record<keyof Quirks, boolean> = { ...(preset === "tau2" ? TAU2_QUIRKS : FIXED_QUIRKS) };
  for (const o of overrides) {
    const m = /^([A-Za-z]+)=(on|off)$/.exec(o);
    const name = m?.[1] as keyof Quirks | undefined;
    if (m === null || name === undefined || !QUIRK_NAMES.includes(name)) {
      throw new QuirkSpecError(
        `bad quirk override ${JSON.stringify(o)}: use <name>=on|off with a name from ${QUIRK_NAMES.join(", ")}`,
      );
    }
    out[name] = m[2] === "on";
  }
  return Object.freeze(out);
}
