/**
 * A tau2 bug reproduced for parity: `TelecomUserTools.default_vpn_details` is ONE class-level object.
 * `connect_vpn` attaches that very object to the device and `break_vpn` sets its performance to
 * "poor", so after any `break_vpn` in a process every later `connect_vpn` (any environment) gets a
 * poor VPN. With `quirks.telecomSharedVpn` the object lives in `env.shared` (one per grading run);
 * without it every connection gets a fresh default.
 *
 * Limitation: the device stores a copy, so a device connected BEFORE a later `break_vpn` elsewhere keeps
 * its excellent VPN (in Python it would degrade too, through the shared reference).
 */
import { type PyDict, pyEquals } from "../../py/value.ts";
import type { ToolEnv } from "../toolkit.ts";

const SHARED_VPN_KEY = "telecom.vpn";

const defaultVpnDetails = (): PyDict => ({
  server_address: "192.168.1.1",
  protocol: "OpenVPN",
  server_performance: "excellent",
});

/** The process-wide object (quirk on) or a fresh default (quirk off). */
function vpnObject(env: ToolEnv): PyDict {
  if (!env.quirks.telecomSharedVpn) return defaultVpnDetails();
  const existing = env.shared.get(SHARED_VPN_KEY);
  if (existing !== undefined) return existing as PyDict;
  const created = defaultVpnDetails();
  env.shared.set(SHARED_VPN_KEY, created);
  return created;
}

/** The details `connect_vpn` attaches now (a copy of the shared object's current state). */
export const vpnDetailsForConnect = (env: ToolEnv): PyDict => ({ ...vpnObject(env) });

/**
 * Whether details attached to a device are (in Python) the shared object: true when they were just
 * attached by `connect_vpn`, or look exactly like the shared object (connected by an earlier call).
 */
export const isSharedVpn = (env: ToolEnv, details: PyDict): boolean =>
  env.quirks.telecomSharedVpn && pyEquals(details, vpnObject(env));

/** `break_vpn`'s in-place write on the shared object. */
export function degradeSharedVpn(env: ToolEnv): void {
  if (env.quirks.telecomSharedVpn) vpnObject(env).server_performance = "poor";
}
