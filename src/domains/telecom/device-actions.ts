/**
 * The private `_toggle_*`-style actions of `TelecomUserTools`, shared by the user tools and by the
 * scenario functions (`turn_*_on/off`) built on them. Each takes the writable device.
 */
import { pyTruthy } from "../../py/builtins.ts";
import type { PyDict } from "../../py/value.ts";
import { disconnectVpn, networkSearch } from "./phone.ts";

/** `_toggle_airplane_mode`: returns the new state. */
export function toggleAirplaneMode(device: PyDict, surroundings: PyDict): boolean {
  const wasOn = pyTruthy(device.airplane_mode);
  device.airplane_mode = !wasOn;
  if (wasOn) {
    device.network_connection_status = "searching";
    if (pyTruthy(device.wifi_enabled)) dropWifiConnection(device);
  } else {
    dropWifiConnection(device);
    if (pyTruthy(device.vpn_connected)) disconnectVpn(device);
  }
  networkSearch(device, surroundings);
  return !wasOn;
}

export function dropWifiConnection(device: PyDict): void {
  device.wifi_connected = false;
  device.wifi_ssid = null;
  device.wifi_signal_strength = "none";
}

/** Flips a boolean device setting; optionally runs a network search afterwards. */
export function toggleSetting(device: PyDict, surroundings: PyDict, field: string, search: boolean): boolean {
  const next = !pyTruthy(device[field]);
  device[field] = next;
  if (search) networkSearch(device, surroundings);
  return next;
}

/** The `turn_x_on/off` pattern: toggle, and toggle again if that did not reach the target. */
export function setViaToggle(target: boolean, toggle: () => boolean): void {
  if (toggle() !== target) toggle();
}

/** `_toggle_wifi`: null while airplane mode is on; turning off drops the connection. */
export function toggleWifi(device: PyDict): boolean | null {
  if (pyTruthy(device.airplane_mode)) return null;
  const next = !pyTruthy(device.wifi_enabled);
  device.wifi_enabled = next;
  if (!next) dropWifiConnection(device);
  return next;
}
