/** TelecomUserTools' non-tool methods: scenario setup, the shared-VPN quirk, user-side assertions. */
import { beforeEach, describe, expect, it } from "vitest";
import type { DbState } from "../../../src/domains/db-state.ts";
import { FIXED_QUIRKS, TAU2_QUIRKS } from "../../../src/domains/quirks.ts";
import type { ToolEnv } from "../../../src/domains/toolkit.ts";
import { type PyDict, PyFloat, type PyValue } from "../../../src/py/value.ts";
import { call, freshStates, newEnv } from "./data.ts";

let states: { agent: DbState; user: DbState };
let env: ToolEnv;
const run = (name: string, args: PyValue = {}, e = env) => call("user", states, name, args, e);
const value = (name: string, args: PyValue = {}) => {
  const out = run(name, args);
  expect(out.error, out.content).toBe(false);
  return out.value;
};
const device = () => states.user.read("device") as PyDict;
const surroundings = () => states.user.read("surroundings") as PyDict;

beforeEach(() => {
  states = freshStates();
  env = newEnv();
});

describe("scenario setup", () => {
  it("set_user_info and set_user_location write the surroundings (raw values)", () => {
    expect(run("set_user_info", { name: "John Smith", phone_number: "555-123-2002" }).content).toBe("null");
    run("set_user_location", { abroad: 1 });
    expect(surroundings()).toMatchObject({ name: "John Smith", phone_number: "555-123-2002", is_abroad: 1 });
  });

  it("turn_* functions reach the target state whatever the start", () => {
    expect(value("turn_airplane_mode_on")).toBe("Airplane Mode is now ON.");
    expect(value("turn_airplane_mode_on")).toBe("Airplane Mode is now ON.");
    expect(device().airplane_mode).toBe(true);
    expect(value("turn_airplane_mode_off")).toBe("Airplane Mode is now OFF.");
    expect(device().airplane_mode).toBe(false);
    expect(value("turn_data_off")).toBe("Data connection broken.");
    expect(device().data_enabled).toBe(false);
    expect(value("turn_data_on")).toBe("Data connection restored.");
    expect(device().data_enabled).toBe(true);
    expect(value("turn_roaming_on")).toBe("Data Roaming is now ON.");
    expect(value("turn_roaming_off")).toBe("Data Roaming is now OFF.");
    expect(device().roaming_enabled).toBe(false);
    expect(value("turn_data_saver_mode_on")).toBe("Data Saver Mode is now ON.");
    expect(device().data_saver_mode).toBe(true);
    expect(value("turn_data_saver_mode_off")).toBe("Data Saver Mode is now OFF.");
  });

  it("SIM failures cut the service", () => {
    expect(value("unseat_sim_card")).toBe("SIM card un-seated successfully.");
    expect(device()).toMatchObject({ sim_card_missing: true, network_connection_status: "no_service" });
    run("reseat_sim_card");
    expect(value("lock_sim_card", { mode: "pin" })).toBe("SIM card locked successfully in pin mode.");
    expect(device()).toMatchObject({ sim_card_status: "locked_pin", network_technology_connected: "none" });
  });

  it("APN breakers and simulate_network_search", () => {
    expect(value("break_apn_mms_setting")).toBe(
      "APN MMS setting broken. Please call reset_apn_settings() to fix.",
    );
    expect((device().active_apn_settings as PyDict).mmsc_url).toBeNull();
    expect(value("break_apn_settings")).toBe("APN settings broken. Please call reset_apn_settings() to fix.");
    expect(device().network_connection_status).toBe("no_service");
    expect(run("simulate_network_search").content).toBe("null");
  });

  it("set_wifi_calling sets MMS over Wi-Fi only when given", () => {
    expect(value("set_wifi_calling", { enabled: true, mms_over_wifi: true })).toBe(
      "Wi-Fi Calling is now ON.\nMMS over Wi-Fi is now ON.",
    );
    expect(value("set_wifi_calling", { enabled: false })).toBe("Wi-Fi Calling is now OFF.");
    expect(device()).toMatchObject({ wifi_calling_enabled: false, wifi_calling_mms_over_wifi: true });
  });

  it("remove_app_permission returns (ok, message)", () => {
    expect(run("remove_app_permission", { app_name: "messaging", permission: "Storage" }).content).toBe(
      "[\"True\", \"Permission 'storage' removed from app 'messaging'.\"]",
    );
    expect(run("remove_app_permission", { app_name: "camera", permission: "sms" }).content).toBe(
      '["False", "App \'camera\' not found. Cannot remove permission."]',
    );
  });
});

describe("shared VPN object (tau2 quirk)", () => {
  it("break_vpn connects a poor VPN", () => {
    expect(value("break_vpn")).toBe("VPN connection broken.");
    expect(device().vpn_details).toEqual({
      server_address: "192.168.1.1",
      protocol: "OpenVPN",
      server_performance: "poor",
    });
  });

  it("with the quirk, a later connect_vpn on another environment sharing env.shared is poor too", () => {
    env = newEnv(TAU2_QUIRKS);
    run("break_vpn");
    states = freshStates();
    run("connect_vpn");
    expect((device().vpn_details as PyDict).server_performance).toBe("poor");
  });

  it("without the quirk, every connection gets a fresh excellent VPN", () => {
    env = newEnv(FIXED_QUIRKS);
    run("break_vpn");
    states = freshStates();
    run("connect_vpn");
    expect((device().vpn_details as PyDict).server_performance).toBe("excellent");
  });
});

describe("user assertions", () => {
  it("airplane, roaming and data saver flags", () => {
    expect(value("assert_airplane_mode_status", { expected_status: false })).toBe(true);
    expect(value("assert_mobile_roaming_status", { expected_status: true })).toBe(false);
    expect(value("assert_mobile_data_saver_mode_status", { expected_status: 0 })).toBe(true);
  });

  it("assert_service_status builds the enum (an invalid value raises)", () => {
    expect(value("assert_service_status", { expected_status: "connected" })).toBe(true);
    expect(value("assert_service_status", { expected_status: "no_service" })).toBe(false);
    expect(run("assert_service_status", { expected_status: "bad" }).content).toBe(
      "Error: 'bad' is not a valid NetworkStatus",
    );
  });

  it("mobile data working depends on roaming when abroad and on usage exceeded", () => {
    expect(value("assert_mobile_data_status", { expected_status: true })).toBe(true);
    run("set_user_location", { abroad: true });
    expect(value("assert_mobile_data_status", { expected_status: false })).toBe(true);
    run("turn_roaming_on");
    expect(value("assert_mobile_data_status", { expected_status: false })).toBe(true);
    const s = states.user.mutAtom("surroundings");
    s.roaming_allowed = true;
    expect(value("assert_mobile_data_status", { expected_status: true })).toBe(true);
    s.mobile_data_usage_exceeded = true;
    expect(value("assert_mobile_data_usage_exceeded", { expected_status: true })).toBe(true);
    expect(value("assert_mobile_data_status", { expected_status: false })).toBe(true);
  });

  it("assert_internet_speed and assert_internet_not_excellent", () => {
    expect(value("assert_internet_speed", { expected_speed: 200 })).toBe(true);
    expect(value("assert_internet_speed", { expected_speed: 200, expected_desc: "EXCELLENT" })).toBe(true);
    expect(value("assert_internet_speed", { expected_speed: new PyFloat(220.01) })).toBe(false);
    expect(value("assert_internet_not_excellent")).toBe(false);
    run("turn_airplane_mode_on");
    expect(value("assert_internet_speed", { expected_speed: 0, expected_desc: "no connection" })).toBe(true);
    expect(value("assert_internet_not_excellent")).toBe(true);
  });

  it("assert_can_send_mms", () => {
    expect(value("assert_can_send_mms", { expected_status: true })).toBe(true);
    run("set_network_mode_preference", { mode: "2g_only" });
    expect(value("assert_can_send_mms", { expected_status: false })).toBe(true);
  });
});
