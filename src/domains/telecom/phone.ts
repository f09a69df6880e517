/**
 * The simulated phone of tau2's `TelecomUserTools`: network search, status bar, mobile-data and MMS
 * checks, speed test. Functions over the `device` and `surroundings` records of the user DB; the ones
 * that change the device take its writable copy.
 */
import { attributeError, pyStr, pyTruthy } from "../../py/builtins.ts";
import { pyRoundFloat } from "../../py/number.ts";
import { isPyDict, type PyDict, type PyValue } from "../../py/value.ts";

/** `member.value` of a str-Enum stored as its value; any other stored value has no `.value`. */
export function enumValue(v: PyValue | undefined): string {
  if (typeof v !== "string") throw attributeError(v, "value");
  return v;
}

/** An attribute of the device's APN settings (AttributeError if a tool stored a non-object there). */
export function apnAttr(device: PyDict, attr: string): PyValue {
  const apn = device.active_apn_settings as PyValue;
  if (!isPyDict(apn)) throw attributeError(apn, attr);
  return apn[attr] as PyValue;
}

/** `_check_sim_status`: a missing SIM overrides the stored status. */
export const simStatus = (device: PyDict): PyValue =>
  pyTruthy(device.sim_card_missing) ? "missing" : (device.sim_card_status as PyValue);

const signalFor = (surroundings: PyDict, tech: string): PyValue =>
  (surroundings.signal_strength as PyDict)[tech] ?? "none";

const PREFERRED_TECH: Readonly<Record<string, string>> = {
  "4g_only": "4G",
  "3g_only": "3G",
  "2g_only": "2G",
};

function noService(device: PyDict): void {
  device.network_connection_status = "no_service";
  device.network_technology_connected = "none";
  device.network_signal_strength = "none";
}

/** `simulate_network_search`: connect per the mode preference, then the overriding failures. */
export function networkSearch(device: PyDict, surroundings: PyDict): void {
  if (simStatus(device) === "active") {
    device.network_connection_status = "connected";
    const pref = device.network_mode_preference as PyValue;
    let tech: string;
    if (pref === "4g_5g_preferred") tech = signalFor(surroundings, "5G") === "none" ? "4G" : "5G";
    else tech = (typeof pref === "string" ? PREFERRED_TECH[pref] : undefined) ?? "4G"; // tau2's fallback is 4G
    device.network_technology_connected = tech;
    device.network_signal_strength = signalFor(surroundings, tech);
  } else {
    noService(device);
  }
  if (pyTruthy(device.airplane_mode)) noService(device);
  if (apnAttr(device, "apn_name") === "broken") noService(device);
  if (!pyTruthy(surroundings.line_active)) noService(device);
}

const SIGNAL_ICONS: Readonly<Record<string, string>> = {
  none: "📵 No Signal",
  poor: "📶¹ Poor",
  fair: "📶² Fair",
  good: "📶³ Good",
  excellent: "📶⁴ Excellent",
};

/** `_check_status_bar`: the indicators joined by " | ". */
export function statusBar(device: PyDict): string {
  const parts: string[] = [];
  if (pyTruthy(device.airplane_mode)) {
    parts.push("✈️ Airplane Mode");
  } else {
    const signal = device.network_signal_strength;
    parts.push((typeof signal === "string" ? SIGNAL_ICONS[signal] : undefined) ?? "📵 No Signal");
    const tech = device.network_technology_connected as PyValue;
    if (tech !== "none") parts.push(enumValue(tech));
    if (pyTruthy(device.data_enabled) && tech !== "none") {
      parts.push("📱 Data Enabled");
      if (pyTruthy(device.data_saver_mode)) parts.push("🔽 Data Saver");
    } else {
      parts.push("📵 Data Disabled");
    }
  }
  if (pyTruthy(device.wifi_enabled) && pyTruthy(device.wifi_connected)) {
    parts.push(pyTruthy(device.wifi_ssid) ? `📡 Connected to ${pyStr(device.wifi_ssid)}` : "📡 Enabled");
  }
  if (pyTruthy(device.vpn_connected)) parts.push("🔒 VPN Connected");
  parts.push(`🔋 ${pyStr(device.battery_level)}%`);
  return parts.join(" | ");
}

/** The `\nStatus Bar: ...` suffix most write tools append. */
export const withStatusBar = (text: string, device: PyDict): string =>
  `${text}\nStatus Bar: ${statusBar(device)}`;

/** `_get_mobile_data_working`. */
export function mobileDataWorking(device: PyDict, surroundings: PyDict): boolean {
  if (pyTruthy(device.airplane_mode) || device.network_signal_strength === "none") return false;
  if (device.network_connection_status === "no_service") return false;
  if (pyTruthy(surroundings.is_abroad)) {
    if (!pyTruthy(device.roaming_enabled) || !pyTruthy(surroundings.roaming_allowed)) return false;
  }
  if (!pyTruthy(device.data_enabled)) return false;
  return !pyTruthy(surroundings.mobile_data_usage_exceeded);
}

const TECH_SPEED_RANGE: Readonly<Record<string, readonly [number, number]>> = {
  "2G": [0.1, 0.4],
  "3G": [1.0, 5.0],
  "4G": [10.0, 100.0],
  "5G": [50.0, 500.0],
  none: [0.0, 0.0],
};

const SIGNAL_FACTOR: Readonly<Record<string, number>> = {
  poor: 0.2,
  fair: 0.5,
  good: 0.8,
  excellent: 1.0,
  none: 0.0,
};

const lookup = <T>(table: Readonly<Record<string, T>>, key: PyValue | undefined, dflt: T): T =>
  (typeof key === "string" && Object.hasOwn(table, key) ? table[key] : undefined) ?? dflt;

export interface SpeedTest {
  readonly speed: number | null;
  readonly description: string;
}

/** `_run_speed_test` (the code, not its docstring, is authoritative). */
export function speedTest(device: PyDict, surroundings: PyDict): SpeedTest {
  if (!mobileDataWorking(device, surroundings)) return { speed: null, description: "No Connection" };
  const vpn = device.vpn_details as PyValue;
  const poorVpn = pyTruthy(device.vpn_connected) && isPyDict(vpn) && vpn.server_performance === "poor";
  let factor = poorVpn ? 0.1 : 1.0;
  if (pyTruthy(device.data_saver_mode)) factor *= 0.2;
  const [min, max] = lookup(TECH_SPEED_RANGE, device.network_technology_connected, [0.0, 0.0] as const);
  const signal = lookup(SIGNAL_FACTOR, device.network_signal_strength, 0.0);
  // Same evaluation order as Python: ((min + max) / 2 * signal) * factor.
  const speed = pyRoundFloat(((min + max) / 2.0) * signal * factor, 2);
  return { speed, description: speedLabel(speed) };
}

export function speedLabel(speed: number): string {
  if (speed < 1) return "Very Poor";
  if (speed < 5) return "Poor";
  if (speed < 25) return "Fair";
  if (speed < 100) return "Good";
  return "Excellent";
}

/** `_can_send_mms`. */
export function canSendMms(device: PyDict, surroundings: PyDict): boolean {
  if (!mobileDataWorking(device, surroundings)) return false;
  if (device.network_technology_connected === "2G") return false;
  // tau2: the device supports MMS over Wi-Fi calling but the carrier does not.
  if (pyTruthy(device.wifi_calling_enabled) && pyTruthy(device.wifi_calling_mms_over_wifi)) return false;
  if (apnAttr(device, "mmsc_url") === null) return false;
  const apps = device.app_statuses as PyDict;
  const messaging = Object.hasOwn(apps, "messaging") ? (apps.messaging as PyDict) : undefined;
  if (messaging === undefined) return false;
  const perms = messaging.permissions as PyDict;
  return pyTruthy(perms.storage) && pyTruthy(perms.sms);
}

/** `_disconnect_vpn`: true when a connection was dropped. */
export function disconnectVpn(device: PyDict): boolean {
  if (!pyTruthy(device.vpn_connected)) return false;
  device.vpn_connected = false;
  device.vpn_details = null;
  return true;
}
