/**
 * tau2 behaviours that are bugs, reproduced by default for parity (spec §9). Each one is named here
 * only, documented, pinned by a test, and can be switched off to report a "fixed" grading beside it.
 */
export interface Quirks {
  /** Retail `modify_pending_order_items` gives every modified item the last looked-up variant's price and options. */
  readonly retailMultiItemPricing: boolean;
  /** Since tau2 1.0, `initialization_data` points the user toolkit at the agent DB object (and back). */
  readonly userDbAliasing: boolean;
  /** Telecom `connect_vpn` attaches one process-wide VPN object that `break_vpn` degrades for everyone after. */
  readonly telecomSharedVpn: boolean;
  /** The gold replay runs no `sync_tools` after gold actions (telecom gold user DB stays un-synced). */
  readonly noGoldSync: boolean;
}

export const TAU2_QUIRKS: Quirks = Object.freeze({
  retailMultiItemPricing: true,
  userDbAliasing: true,
  telecomSharedVpn: true,
  noGoldSync: true,
});

export const FIXED_QUIRKS: Quirks = Object.freeze({
  retailMultiItemPricing: false,
  userDbAliasing: false,
  telecomSharedVpn: false,
  noGoldSync: false,
});

export const QUIRK_NAMES = Object.keys(TAU2_QUIRKS) as (keyof Quirks)[];
