/** The user toolkit `TelecomUserTools` (tau2 `domains/telecom/user_tools.py`): the phone's tools. */
import { attributeError, lowerMethod, pyRepr, pyStr, pyTruthy, requireHashable } from "../../py/builtins.ts";
import { constructWithSchema } from "../../py/pydantic-zod.ts";
import { isPyDict, type PyDict, type PyValue } from "../../py/value.ts";
import type { DbState } from "../db-state.ts";
import type { ToolDef, ToolEnv } from "../toolkit.ts";
import { toggleAirplaneMode, toggleSetting, toggleWifi } from "./device-actions.ts";
import {
  apnAttr,
  canSendMms,
  disconnectVpn,
  enumValue,
  networkSearch,
  simStatus,
  speedTest,
  statusBar,
  withStatusBar,
} from "./phone.ts";
import {
  apnSettingsSchema,
  defaultApnSettings,
  NETWORK_MODE_PREFERENCE,
  PERMISSION_NAMES,
} from "./user-schema.ts";
import { vpnDetailsForConnect } from "./vpn.ts";

/** Read-only views and the writable device of the user DB. */
export const deviceOf = (db: DbState): PyDict => db.read("device") as PyDict;
export const surroundingsOf = (db: DbState): PyDict => db.read("surroundings") as PyDict;
export const writableDevice = (db: DbState): PyDict => db.mutAtom("device");

const onOff = (b: boolean): string => (b ? "ON" : "OFF");
const yesNo = (v: PyValue | undefined): string => (pyTruthy(v) ? "Yes" : "No");

type Args = Readonly<Record<string, PyValue>>;

/** A READ tool: a text computed from the state. */
const read = (
  name: string,
  run: (db: DbState, a: Args) => string,
  params: ToolDef["params"] = [],
): ToolDef => ({
  name,
  kind: "read",
  params,
  run: (db, a) => run(db, a),
});

/** A WRITE tool on the device; `run` gets the writable device and the surroundings. */
const deviceWrite = (
  name: string,
  run: (device: PyDict, surroundings: PyDict, a: Args, env: ToolEnv) => string,
  params: ToolDef["params"] = [],
): ToolDef => ({
  name,
  kind: "write",
  params,
  run: (db, a, env) => run(writableDevice(db), surroundingsOf(db), a, env),
});

/** `app_statuses.get(app_name)`: a list/dict name raises TypeError; other non-strings are absent. */
export function appStatus(device: PyDict, appName: PyValue | undefined): PyDict | undefined {
  requireHashable(appName);
  const apps = device.app_statuses as PyDict;
  return typeof appName === "string" && Object.hasOwn(apps, appName) ? (apps[appName] as PyDict) : undefined;
}

const grantedPermissions = (app: PyDict): string[] =>
  PERMISSION_NAMES.filter((p) => pyTruthy((app.permissions as PyDict)[p])).map((p) =>
    p.replaceAll("_", " ").toLowerCase(),
  );

const SPEED_ADVICE: Readonly<Record<string, string>> = {
  "Very Poor": "Connection is very slow. Basic web browsing might be difficult.",
  Poor: "Connection is slow. Web browsing may be sluggish, streaming difficult.",
  Fair: "Connection is okay for web browsing and some standard definition streaming.",
  Good: "Connection is good for most activities, including HD streaming.",
  Excellent: "Connection is very fast.",
};

const SIM_TEXT: Readonly<Record<string, string>> = {
  active: "Your SIM card is active and working.",
  missing: "No SIM card detected in the phone.",
  locked_pin: "The SIM card is locked with a PIN code.",
  locked_puk: "The SIM card is locked with a PUK code.",
};

/** Python repr of a str-Enum member, as `model_dump()` leaves `server_performance`. */
const performanceRepr = (v: PyValue | undefined): string =>
  typeof v === "string" ? `<PerformanceLevel.${v.toUpperCase()}: ${pyRepr(v)}>` : pyRepr(v);

const vpnDetailsRepr = (d: PyDict): string =>
  `{${Object.keys(d)
    .map((k) => `${pyRepr(k)}: ${k === "server_performance" ? performanceRepr(d[k]) : pyRepr(d[k])}`)
    .join(", ")}}`;

const checkNetworkStatus = (db: DbState): string => {
  const d = deviceOf(db);
  const lines = [
    `Airplane Mode: ${onOff(pyTruthy(d.airplane_mode))}`,
    `SIM Card Status: ${enumValue(simStatus(d))}`,
    `Cellular Connection: ${enumValue(d.network_connection_status)}`,
    `Cellular Signal: ${enumValue(d.network_signal_strength)}`,
    `Cellular Network Type: ${enumValue(d.network_technology_connected)}`,
    `Mobile Data Enabled: ${yesNo(d.data_enabled)}`,
    `Data Roaming Enabled: ${yesNo(d.roaming_enabled)}`,
    `Wi-Fi Radio: ${onOff(pyTruthy(d.wifi_enabled))}`,
    `Wi-Fi Connected: ${yesNo(d.wifi_connected)}`,
  ];
  if (pyTruthy(d.wifi_connected)) lines.push(`Connected Wi-Fi Network: ${pyStr(d.wifi_ssid)}`);
  return lines.join("\n");
};

const runSpeedTest = (db: DbState): string => {
  const { speed, description } = speedTest(deviceOf(db), surroundingsOf(db));
  if (speed === null) return `Speed test failed: ${description}.`;
  return `Speed Test Result: ${speed.toFixed(2)} Mbps (${description}). ${SPEED_ADVICE[description] ?? ""}`;
};

const setNetworkModePreference = deviceWrite(
  "set_network_mode_preference",
  (device, surroundings, a) => {
    const mode = a.mode as PyValue;
    const failed = () =>
      withStatusBar(
        `Failed to set network mode: '${pyStr(mode)}' is not a valid option. Please use one of: ${NETWORK_MODE_PREFERENCE.join(", ")}`,
        device,
      );
    if (typeof mode === "string" && !(NETWORK_MODE_PREFERENCE as readonly string[]).includes(mode))
      return failed();
    // tau2 converts only strings; any other value is stored as-is before `.value` is read from it.
    device.network_mode_preference = mode;
    networkSearch(device, surroundings);
    if (mode === null) return failed();
    if (typeof mode !== "string") throw attributeError(mode, "value");
    return withStatusBar(`Preferred Network Mode set to: ${mode}`, device);
  },
  [{ name: "mode" }],
);

/** A WRITE tool that flips one device setting and reports `<label> is now ON/OFF.`. */
const toggleTool = (name: string, field: string, label: string, search: boolean): ToolDef =>
  deviceWrite(name, (device, surroundings) =>
    withStatusBar(`${label} is now ${onOff(toggleSetting(device, surroundings, field, search))}.`, device),
  );

const checkApnSettings = (db: DbState): string => {
  const d = deviceOf(db);
  if (!isPyDict(d.active_apn_settings as PyValue)) throw attributeError(d.active_apn_settings, "model_copy");
  const name = apnAttr(d, "apn_name");
  const url = apnAttr(d, "mmsc_url");
  return `Current APN Name: ${enumValue(name) || "Not Set"}\nMMSC URL (for picture messages): ${
    pyTruthy(url) ? pyStr(url) : "Not Set"
  }\n(These are technical settings, usually best left unchanged.)`;
};

const setApnSettings = deviceWrite(
  "set_apn_settings",
  (device, surroundings, a) => {
    let settings = a.apn_settings as PyValue;
    if (isPyDict(settings)) {
      settings = constructWithSchema(apnSettingsSchema, "APNSettings", settings);
    }
    // tau2 stores a non-dict value as-is, then fails reading `.apn_name` from it.
    device.active_apn_settings = settings;
    if (!isPyDict(settings)) throw attributeError(settings, "apn_name");
    const message = `APN settings set to: ${enumValue(settings.apn_name)}`;
    networkSearch(device, surroundings);
    return withStatusBar(message, device);
  },
  [{ name: "apn_settings" }],
);

const resetApnSettings = deviceWrite("reset_apn_settings", (device, surroundings) => {
  const apn = device.active_apn_settings as PyValue;
  if (!isPyDict(apn)) throw attributeError(apn, "reset_at_reboot");
  apn.reset_at_reboot = true; // applied at the next reboot
  networkSearch(device, surroundings);
  return withStatusBar("APN settings will reset at reboot.", device);
});

const checkWifiStatus = (db: DbState): string => {
  const d = deviceOf(db);
  if (!pyTruthy(d.wifi_enabled)) return "Wi-Fi is turned OFF.";
  if (pyTruthy(d.wifi_connected)) {
    return `Wi-Fi is ON and connected to '${pyStr(d.wifi_ssid)}'. Signal strength: ${enumValue(d.wifi_signal_strength)}.`;
  }
  return "Wi-Fi is ON but not connected to any network.";
};

const toggleWifiTool = deviceWrite("toggle_wifi", (device) => {
  const next = toggleWifi(device);
  if (next === null) return withStatusBar("Cannot change Wi-Fi settings while Airplane Mode is ON.", device);
  return withStatusBar(`Wi-Fi is now ${onOff(next)}.`, device);
});

const checkVpnStatus = (db: DbState): string => {
  const d = deviceOf(db);
  if (pyTruthy(d.vpn_connected)) {
    const details = d.vpn_details as PyValue;
    if (isPyDict(details)) return `VPN is ON and connected. Details: ${vpnDetailsRepr(details)}`;
    return "VPN is ON and connected (no specific details available).";
  }
  if (pyTruthy(d.vpn_enabled_setting)) return "VPN is turned ON in settings, but currently not connected.";
  return "VPN is turned OFF.";
};

/** `_connect_vpn`: false when already connected (nothing changes). */
export function connectVpn(device: PyDict, env: ToolEnv): boolean {
  if (pyTruthy(device.vpn_connected)) return false;
  device.vpn_connected = true;
  device.vpn_details = vpnDetailsForConnect(env);
  return true;
}

const connectVpnTool = deviceWrite("connect_vpn", (device, _s, _a, env) => {
  if (!connectVpn(device, env)) return "VPN already connected.";
  return withStatusBar("VPN connected successfully.", device);
});

const disconnectVpnTool = deviceWrite("disconnect_vpn", (device) =>
  withStatusBar(
    disconnectVpn(device) ? "VPN disconnected successfully." : "No active VPN connection to disconnect.",
    device,
  ),
);

const checkAppStatus = (db: DbState, a: Args): string => {
  const name = a.app_name as PyValue;
  const app = appStatus(deviceOf(db), name);
  if (app === undefined) return `App '${pyStr(name)}' not found on this phone.`;
  const lines = [`Status for App: ${pyStr(name)}`];
  const granted = grantedPermissions(app);
  if (granted.length === 0) lines.push(" - Permissions: None granted.");
  else lines.push(" - Permissions Granted:", ...granted.map((p) => `   - ${p}`));
  return lines.join("\n");
};

const checkAppPermissions = (db: DbState, a: Args): string => {
  const name = a.app_name as PyValue;
  const app = appStatus(deviceOf(db), name);
  if (app === undefined) return `App '${pyStr(name)}' not found on this phone.`;
  const granted = grantedPermissions(app);
  if (granted.length === 0) return `App '${pyStr(name)}' currently has no permissions granted.`;
  return `App '${pyStr(name)}' has permission for: ${granted.join(", ")}.`;
};

const grantAppPermission = deviceWrite(
  "grant_app_permission",
  (device, _s, a) => {
    const name = a.app_name as PyValue;
    const app = appStatus(device, name);
    const permission = lowerMethod(a.permission);
    let message: string;
    if (app === undefined) {
      message = `Error. App '${pyStr(name)}' not found. Cannot grant permission.`;
    } else if (!(PERMISSION_NAMES as readonly string[]).includes(permission)) {
      // tau2 reports this as a result text, not an exception.
      message = `Error. Permission '${permission}' not tracked for app '${pyStr(name)}', available permissions: ${pyRepr([...PERMISSION_NAMES])}`;
    } else {
      (app.permissions as PyDict)[permission] = true;
      message = `Success. Permission '${permission}' granted to app '${pyStr(name)}'.`;
    }
    return withStatusBar(message, device);
  },
  [{ name: "app_name" }, { name: "permission" }],
);

const rebootDevice = deviceWrite("reboot_device", (device, surroundings) => {
  const lines: string[] = [];
  if (pyTruthy(apnAttr(device, "reset_at_reboot"))) {
    lines.push("Resetting APN settings...");
    device.active_apn_settings = defaultApnSettings();
  }
  lines.push("Restarting network services...");
  device.network_connection_status = "searching";
  networkSearch(device, surroundings);
  return withStatusBar(lines.join("\n"), device);
});

const checkPaymentRequest = (db: DbState): string => {
  const request = surroundingsOf(db).payment_request as PyValue;
  if (!isPyDict(request)) return "No payment request has been made.";
  return `You have a payment request for bill ${pyStr(request.bill_id)} of ${pyStr(request.amount_due)} USD.`;
};

const makePayment: ToolDef = {
  name: "make_payment",
  kind: "write",
  params: [],
  run: (db) => {
    if (!isPyDict(surroundingsOf(db).payment_request as PyValue)) return "You do not have a payment request.";
    const request = db.mutAtom("surroundings").payment_request as PyDict;
    request.paid = true; // the bill becomes Paid at the next sync
    return `Payment of ${pyStr(request.amount_due)} USD has been made for bill ${pyStr(request.bill_id)}.`;
  },
};

export const TELECOM_USER_TOOLS: ToolDef[] = [
  read("check_status_bar", (db) => `Status Bar: ${statusBar(deviceOf(db))}`),
  read("check_network_status", checkNetworkStatus),
  read(
    "check_network_mode_preference",
    (db) => `Network Mode Preference: ${enumValue(deviceOf(db).network_mode_preference)}`,
  ),
  setNetworkModePreference,
  read("run_speed_test", runSpeedTest),
  deviceWrite("toggle_airplane_mode", (device, surroundings) =>
    withStatusBar(`Airplane Mode is now ${onOff(toggleAirplaneMode(device, surroundings))}.`, device),
  ),
  read("check_sim_status", (db) => {
    const status = simStatus(deviceOf(db));
    return (
      (typeof status === "string" ? SIM_TEXT[status] : undefined) ?? `Unknown SIM status: ${pyStr(status)}`
    );
  }),
  deviceWrite("reseat_sim_card", (device, surroundings) => {
    device.sim_card_missing = false;
    networkSearch(device, surroundings);
    return withStatusBar("SIM card re-seated successfully.", device);
  }),
  toggleTool("toggle_data", "data_enabled", "Mobile Data", true),
  toggleTool("toggle_roaming", "roaming_enabled", "Data Roaming", true),
  read("check_data_restriction_status", (db) =>
    pyTruthy(deviceOf(db).data_saver_mode)
      ? "Data Saver mode is ON (limits data usage)."
      : "Data Saver mode is OFF.",
  ),
  toggleTool("toggle_data_saver_mode", "data_saver_mode", "Data Saver Mode", false),
  read("check_apn_settings", checkApnSettings),
  setApnSettings,
  resetApnSettings,
  read("check_wifi_status", checkWifiStatus),
  toggleWifiTool,
  read(
    "check_wifi_calling_status",
    (db) => `Wi-Fi Calling is currently turned ${onOff(pyTruthy(deviceOf(db).wifi_calling_enabled))}.`,
  ),
  toggleTool("toggle_wifi_calling", "wifi_calling_enabled", "Wi-Fi Calling", false),
  read("check_vpn_status", checkVpnStatus),
  connectVpnTool,
  disconnectVpnTool,
  read(
    "check_installed_apps",
    (db) =>
      `The following apps are installed on the phone: ${Object.keys(deviceOf(db).app_statuses as PyDict).join(", ")}`,
  ),
  read("check_app_status", checkAppStatus, [{ name: "app_name" }]),
  read("check_app_permissions", checkAppPermissions, [{ name: "app_name" }]),
  grantAppPermission,
  read("can_send_mms", (db) =>
    canSendMms(deviceOf(db), surroundingsOf(db))
      ? "Your messaging app can send MMS messages."
      : "Your messaging app cannot send MMS messages.",
  ),
  rebootDevice,
  read("check_payment_request", checkPaymentRequest),
  makePayment,
];
