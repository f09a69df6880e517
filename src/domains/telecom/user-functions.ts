/**
 * Non-tool methods of `TelecomUserTools` that tasks call: scenario setup (initialization actions)
 * and the user-side env assertions.
 */
import { attributeError, compareError, lowerMethod, pyRepr, pyStr, pyTruthy } from "../../py/builtins.ts";
import { isNum, numOf } from "../../py/number.ts";
import { isPyDict, type PyDict, PyFloat, type PyValue, pyEquals } from "../../py/value.ts";
import type { DbState } from "../db-state.ts";
import { type Args, type FunctionDef, type ToolEnv, ToolError, type ToolOutput } from "../toolkit.ts";
import { setViaToggle, toggleAirplaneMode, toggleSetting } from "./device-actions.ts";
import { canSendMms, mobileDataWorking, networkSearch, speedTest } from "./phone.ts";
import { NETWORK_STATUS, PERMISSION_NAMES } from "./user-schema.ts";
import { appStatus, connectVpn, deviceOf, surroundingsOf, writableDevice } from "./user-tools.ts";
import { degradeSharedVpn, isSharedVpn } from "./vpn.ts";

type DeviceRun = (device: PyDict, surroundings: PyDict, a: Args, env: ToolEnv) => ToolOutput;

/** A scenario function that edits the device. */
const onDevice = (name: string, run: DeviceRun, params: FunctionDef["params"] = []): FunctionDef => ({
  name,
  params,
  run: (db, a, env) => run(writableDevice(db), surroundingsOf(db), a, env),
});

/** A scenario function that edits the surroundings. */
const onSurroundings = (
  name: string,
  params: FunctionDef["params"],
  run: (s: PyDict, a: Args) => ToolOutput,
): FunctionDef => ({
  name,
  params,
  run: (db, a) => run(db.mutAtom("surroundings"), a),
});

/** `turn_<x>_on/off` built on a toggle; returns tau2's fixed message. */
const turn = (
  name: string,
  target: boolean,
  message: string,
  toggle: (d: PyDict, s: PyDict) => boolean,
): FunctionDef =>
  onDevice(name, (device, surroundings) => {
    setViaToggle(target, () => toggle(device, surroundings));
    return message;
  });

const setting = (field: string, search: boolean) => (d: PyDict, s: PyDict) =>
  toggleSetting(d, s, field, search);

const SCENARIO_FUNCTIONS: FunctionDef[] = [
  onSurroundings("set_user_info", [{ name: "name" }, { name: "phone_number" }], (s, a) => {
    s.name = a.name as PyValue;
    s.phone_number = a.phone_number as PyValue;
    return null;
  }),
  onSurroundings("set_user_location", [{ name: "abroad" }], (s, a) => {
    s.is_abroad = a.abroad as PyValue; // stored raw, unvalidated
    return null;
  }),
  turn("turn_airplane_mode_on", true, "Airplane Mode is now ON.", toggleAirplaneMode),
  turn("turn_airplane_mode_off", false, "Airplane Mode is now OFF.", toggleAirplaneMode),
  onDevice("unseat_sim_card", (device, surroundings) => {
    device.sim_card_missing = true;
    networkSearch(device, surroundings);
    return "SIM card un-seated successfully.";
  }),
  onDevice(
    "lock_sim_card",
    (device, surroundings, a) => {
      if (a.mode === "pin") device.sim_card_status = "locked_pin";
      else if (a.mode === "puk") device.sim_card_status = "locked_puk";
      networkSearch(device, surroundings);
      return `SIM card locked successfully in ${pyStr(a.mode)} mode.`;
    },
    [{ name: "mode" }],
  ),
  onDevice("turn_data_on", (device) => {
    device.data_enabled = true; // no network search, unlike toggle_data
    return "Data connection restored.";
  }),
  turn("turn_data_off", false, "Data connection broken.", setting("data_enabled", true)),
  turn("turn_roaming_on", true, "Data Roaming is now ON.", setting("roaming_enabled", true)),
  turn("turn_roaming_off", false, "Data Roaming is now OFF.", setting("roaming_enabled", true)),
  turn("turn_data_saver_mode_on", true, "Data Saver Mode is now ON.", setting("data_saver_mode", false)),
  turn("turn_data_saver_mode_off", false, "Data Saver Mode is now OFF.", setting("data_saver_mode", false)),
  onDevice("break_apn_settings", (device, surroundings) => {
    const apn = device.active_apn_settings as PyValue;
    if (!isPyDict(apn)) throw attributeError(apn, "apn_name");
    apn.apn_name = "broken";
    networkSearch(device, surroundings);
    return "APN settings broken. Please call reset_apn_settings() to fix.";
  }),
  onDevice("break_apn_mms_setting", (device) => {
    const apn = device.active_apn_settings as PyValue;
    if (!isPyDict(apn)) throw attributeError(apn, "mmsc_url");
    apn.mmsc_url = null;
    return "APN MMS setting broken. Please call reset_apn_settings() to fix.";
  }),
  onDevice(
    "set_wifi_calling",
    (device, surroundings, a) => {
      if (!pyEquals(device.wifi_calling_enabled as PyValue, a.enabled as PyValue)) {
        toggleSetting(device, surroundings, "wifi_calling_enabled", false);
      }
      let msg = `Wi-Fi Calling is now ${pyTruthy(a.enabled) ? "ON" : "OFF"}.`;
      if (a.mms_over_wifi !== null) {
        device.wifi_calling_mms_over_wifi = a.mms_over_wifi as PyValue; // stored raw
        msg += `\nMMS over Wi-Fi is now ${pyTruthy(a.mms_over_wifi) ? "ON" : "OFF"}.`;
      }
      return msg;
    },
    [{ name: "enabled" }, { name: "mms_over_wifi", default: null }],
  ),
  onDevice("break_vpn", (device, _s, _a, env) => {
    const attached = connectVpn(device, env);
    const details = device.vpn_details as PyValue;
    if (!isPyDict(details)) throw attributeError(details, "server_performance");
    // tau2 writes through the shared default object, degrading every later connect_vpn (vpn.ts).
    const shared = attached || isSharedVpn(env, details);
    details.server_performance = "poor";
    if (shared) degradeSharedVpn(env);
    return "VPN connection broken.";
  }),
  onDevice(
    "remove_app_permission",
    (device, _s, a) => {
      const app = appStatus(device, a.app_name as PyValue);
      const permission = lowerMethod(a.permission);
      if (app === undefined)
        return [false, `App '${pyStr(a.app_name)}' not found. Cannot remove permission.`];
      if (!(PERMISSION_NAMES as readonly string[]).includes(permission)) {
        return [false, `Permission '${permission}' not tracked for app '${pyStr(a.app_name)}'.`];
      }
      (app.permissions as PyDict)[permission] = false;
      return [true, `Permission '${permission}' removed from app '${pyStr(a.app_name)}'.`];
    },
    [{ name: "app_name" }, { name: "permission" }],
  ),
  onDevice("simulate_network_search", (device, surroundings) => {
    networkSearch(device, surroundings);
    return null;
  }),
];

/** A user-side assertion over the (read-only) device and surroundings. */
const assertion = (
  name: string,
  params: FunctionDef["params"],
  test: (device: PyDict, surroundings: PyDict, a: Args) => boolean,
): FunctionDef => ({ name, params, run: (db: DbState, a) => test(deviceOf(db), surroundingsOf(db), a) });

const expected = [{ name: "expected_status" }];
const eq = (a: PyValue | undefined, b: PyValue | undefined): boolean => pyEquals(a as PyValue, b as PyValue);

/** `speed >= expected_speed` with Python's TypeError for non-numbers. */
function atLeast(speed: number, wanted: PyValue | undefined): boolean {
  if (!isNum(wanted)) throw compareError(">=", new PyFloat(speed), wanted);
  return speed >= numOf(wanted);
}

const ASSERTIONS: FunctionDef[] = [
  assertion("assert_airplane_mode_status", expected, (d, _s, a) => eq(d.airplane_mode, a.expected_status)),
  assertion("assert_service_status", expected, (d, _s, a) => {
    const want = a.expected_status as PyValue;
    // NetworkStatus(value) raises for anything that is not one of the enum's values.
    if (typeof want !== "string" || !(NETWORK_STATUS as readonly string[]).includes(want)) {
      throw new ToolError(`${pyRepr(want)} is not a valid NetworkStatus`);
    }
    return d.network_connection_status === want;
  }),
  assertion("assert_mobile_data_status", expected, (d, s, a) =>
    eq(mobileDataWorking(d, s), a.expected_status),
  ),
  assertion("assert_mobile_roaming_status", expected, (d, _s, a) => eq(d.roaming_enabled, a.expected_status)),
  assertion("assert_mobile_data_saver_mode_status", expected, (d, _s, a) =>
    eq(d.data_saver_mode, a.expected_status),
  ),
  assertion(
    "assert_internet_speed",
    [{ name: "expected_speed" }, { name: "expected_desc", default: null }],
    (d, s, a) => {
      const { speed, description } = speedTest(d, s);
      const ok = atLeast(speed ?? 0.0, a.expected_speed);
      if (a.expected_desc === null) return ok;
      return ok && description.toLowerCase() === lowerMethod(a.expected_desc);
    },
  ),
  assertion(
    "assert_internet_not_excellent",
    [],
    (d, s) => speedTest(d, s).description.toLowerCase() !== "excellent",
  ),
  assertion("assert_can_send_mms", expected, (d, s, a) => eq(canSendMms(d, s), a.expected_status)),
  assertion("assert_mobile_data_usage_exceeded", expected, (_d, s, a) =>
    eq(s.mobile_data_usage_exceeded, a.expected_status),
  ),
];

export const TELECOM_USER_FUNCTIONS: FunctionDef[] = [...SCENARIO_FUNCTIONS, ...ASSERTIONS];
