/** TelecomUserTools: the simulated phone's tools, texts from tau2's `user_tools.py`. */
import { beforeEach, describe, expect, it } from "vitest";
import type { DbState } from "../../../src/domains/db-state.ts";
import { telecomUserTools } from "../../../src/domains/telecom/index.ts";
import type { PyDict, PyValue } from "../../../src/py/value.ts";
import { call, freshStates, newEnv } from "./data.ts";

let states: { agent: DbState; user: DbState };
let env = newEnv();
const run = (name: string, args: PyValue = {}) => call("user", states, name, args, env);
const ok = (name: string, args: PyValue = {}) => {
  const out = run(name, args);
  expect(out.error, out.content).toBe(false);
  return out.content;
};
const device = () => states.user.read("device") as PyDict;
const bar = () => ok("check_status_bar");

const DEFAULT_BAR = "Status Bar: 📶³ Good | 5G | 📱 Data Enabled | 🔋 80%";
const CONNECTED_BAR = "Status Bar: 📶⁴ Excellent | 5G | 📱 Data Enabled | 🔋 80%";

beforeEach(() => {
  states = freshStates();
  env = newEnv();
});

describe("tool declarations", () => {
  it("declares tau2's tool types", () => {
    const writes = [...telecomUserTools.tools.values()].filter((t) => t.kind === "write").map((t) => t.name);
    expect(writes.sort()).toEqual(
      [
        "set_network_mode_preference",
        "toggle_airplane_mode",
        "reseat_sim_card",
        "toggle_data",
        "toggle_roaming",
        "toggle_data_saver_mode",
        "set_apn_settings",
        "reset_apn_settings",
        "toggle_wifi",
        "toggle_wifi_calling",
        "connect_vpn",
        "disconnect_vpn",
        "grant_app_permission",
        "reboot_device",
        "make_payment",
      ].sort(),
    );
    expect(telecomUserTools.tools.size).toBe(30);
    expect([...telecomUserTools.tools.values()].every((t) => t.kind === "write" || t.kind === "read")).toBe(
      true,
    );
  });
});

describe("status bar and network", () => {
  it("renders the status bar indicators with tau2's emoji", () => {
    expect(bar()).toBe(DEFAULT_BAR);
    ok("toggle_data_saver_mode");
    expect(bar()).toBe("Status Bar: 📶³ Good | 5G | 📱 Data Enabled | 🔽 Data Saver | 🔋 80%");
    ok("toggle_data");
    expect(bar()).toBe("Status Bar: 📶⁴ Excellent | 5G | 📵 Data Disabled | 🔋 80%");
    expect(ok("toggle_airplane_mode")).toBe("Airplane Mode is now ON.\nStatus Bar: ✈️ Airplane Mode | 🔋 80%");
    expect(ok("toggle_airplane_mode")).toBe(
      "Airplane Mode is now OFF.\nStatus Bar: 📶⁴ Excellent | 5G | 📵 Data Disabled | 🔋 80%",
    );
  });

  it("shows Wi-Fi and VPN indicators", () => {
    expect(ok("toggle_wifi")).toBe(`Wi-Fi is now ON.\n${DEFAULT_BAR}`);
    expect(ok("check_wifi_status")).toBe("Wi-Fi is ON but not connected to any network.");
    expect(ok("connect_vpn")).toBe(
      "VPN connected successfully.\nStatus Bar: 📶³ Good | 5G | 📱 Data Enabled | 🔒 VPN Connected | 🔋 80%",
    );
    expect(ok("connect_vpn")).toBe("VPN already connected.");
    expect(ok("toggle_wifi")).toBe(
      "Wi-Fi is now OFF.\nStatus Bar: 📶³ Good | 5G | 📱 Data Enabled | 🔒 VPN Connected | 🔋 80%",
    );
    expect(ok("check_wifi_status")).toBe("Wi-Fi is turned OFF.");
  });

  it("check_network_status reports every line", () => {
    expect(ok("check_network_status")).toBe(
      [
        "Airplane Mode: OFF",
        "SIM Card Status: active",
        "Cellular Connection: connected",
        "Cellular Signal: good",
        "Cellular Network Type: 5G",
        "Mobile Data Enabled: Yes",
        "Data Roaming Enabled: No",
        "Wi-Fi Radio: OFF",
        "Wi-Fi Connected: No",
      ].join("\n"),
    );
  });

  it("set_network_mode_preference searches again; an invalid mode is a result text, not an error", () => {
    expect(ok("check_network_mode_preference")).toBe("Network Mode Preference: 4g_5g_preferred");
    expect(ok("set_network_mode_preference", { mode: "3g_only" })).toBe(
      "Preferred Network Mode set to: 3g_only\nStatus Bar: 📶² Fair | 3G | 📱 Data Enabled | 🔋 80%",
    );
    expect(ok("set_network_mode_preference", { mode: "5g" })).toBe(
      "Failed to set network mode: '5g' is not a valid option. Please use one of: 4g_5g_preferred, 4g_only, 3g_only, 2g_only\n" +
        "Status Bar: 📶² Fair | 3G | 📱 Data Enabled | 🔋 80%",
    );
    expect(device().network_mode_preference).toBe("3g_only");
  });

  it("set_network_mode_preference stores a non-string before failing on `.value`", () => {
    expect(run("set_network_mode_preference", { mode: 3 }).content).toBe(
      "Error: 'int' object has no attribute 'value'",
    );
    expect(device().network_mode_preference).toBe(3);
    expect(device().network_technology_connected).toBe("4G");
  });
});

describe("speed test", () => {
  it("computes mid-range speed × signal × factors, rounded to 2 decimals", () => {
    expect(ok("run_speed_test")).toBe("Speed Test Result: 220.00 Mbps (Excellent). Connection is very fast.");
    ok("set_network_mode_preference", { mode: "2g_only" });
    expect(ok("run_speed_test")).toBe(
      "Speed Test Result: 0.05 Mbps (Very Poor). Connection is very slow. Basic web browsing might be difficult.",
    );
    ok("set_network_mode_preference", { mode: "4g_only" });
    ok("toggle_data_saver_mode");
    expect(ok("run_speed_test")).toBe(
      "Speed Test Result: 8.80 Mbps (Fair). Connection is okay for web browsing and some standard definition streaming.",
    );
    ok("toggle_data");
    expect(ok("run_speed_test")).toBe("Speed test failed: No Connection.");
  });

  it("a poor VPN divides speed by ten", () => {
    run("break_vpn");
    ok("reboot_device");
    expect(ok("run_speed_test")).toBe(
      "Speed Test Result: 27.50 Mbps (Good). Connection is good for most activities, including HD streaming.",
    );
  });
});

describe("SIM, data, roaming", () => {
  it("SIM status sentences and re-seating", () => {
    expect(ok("check_sim_status")).toBe("Your SIM card is active and working.");
    run("unseat_sim_card");
    expect(ok("check_sim_status")).toBe("No SIM card detected in the phone.");
    expect(bar()).toBe("Status Bar: 📵 No Signal | 📵 Data Disabled | 🔋 80%");
    expect(ok("reseat_sim_card")).toBe(`SIM card re-seated successfully.\n${CONNECTED_BAR}`);
    run("lock_sim_card", { mode: "puk" });
    expect(ok("check_sim_status")).toBe("The SIM card is locked with a PUK code.");
  });

  it("toggles data, roaming and data saver", () => {
    expect(ok("toggle_data")).toBe(
      "Mobile Data is now OFF.\nStatus Bar: 📶⁴ Excellent | 5G | 📵 Data Disabled | 🔋 80%",
    );
    expect(ok("toggle_roaming")).toBe(
      "Data Roaming is now ON.\nStatus Bar: 📶⁴ Excellent | 5G | 📵 Data Disabled | 🔋 80%",
    );
    expect(device().roaming_enabled).toBe(true);
    expect(ok("check_data_restriction_status")).toBe("Data Saver mode is OFF.");
    expect(ok("toggle_data_saver_mode")).toBe(
      "Data Saver Mode is now ON.\nStatus Bar: 📶⁴ Excellent | 5G | 📵 Data Disabled | 🔋 80%",
    );
    expect(ok("check_data_restriction_status")).toBe("Data Saver mode is ON (limits data usage).");
  });

  it("Wi-Fi cannot change in airplane mode; Wi-Fi calling toggles", () => {
    ok("toggle_airplane_mode");
    expect(ok("toggle_wifi")).toBe(
      "Cannot change Wi-Fi settings while Airplane Mode is ON.\nStatus Bar: ✈️ Airplane Mode | 🔋 80%",
    );
    expect(ok("check_wifi_calling_status")).toBe("Wi-Fi Calling is currently turned OFF.");
    expect(ok("toggle_wifi_calling")).toBe("Wi-Fi Calling is now ON.\nStatus Bar: ✈️ Airplane Mode | 🔋 80%");
  });
});

describe("APN settings", () => {
  it("check, break, reset at reboot", () => {
    expect(ok("check_apn_settings")).toBe(
      "Current APN Name: internet\nMMSC URL (for picture messages): http://mms.carrier.com/mms/wapenc\n(These are technical settings, usually best left unchanged.)",
    );
    run("break_apn_settings");
    expect(bar()).toBe("Status Bar: 📵 No Signal | 📵 Data Disabled | 🔋 80%");
    expect(ok("reset_apn_settings")).toBe(
      "APN settings will reset at reboot.\nStatus Bar: 📵 No Signal | 📵 Data Disabled | 🔋 80%",
    );
    expect(ok("reboot_device")).toBe(
      `Resetting APN settings...\nRestarting network services...\n${CONNECTED_BAR}`,
    );
    expect(ok("reboot_device")).toBe(`Restarting network services...\n${CONNECTED_BAR}`);
  });

  it("set_apn_settings validates the object (unknown keys rejected) and replaces the settings", () => {
    expect(ok("set_apn_settings", { apn_settings: { apn_name: "internet", mmsc_url: null } })).toBe(
      `APN settings set to: internet\n${CONNECTED_BAR}`,
    );
    expect(device().active_apn_settings).toEqual({
      apn_name: "internet",
      reset_at_reboot: false,
      mms_apn: "mms",
      mmsc_url: null,
      mms_proxy: null,
      mms_port: null,
    });
    expect(run("set_apn_settings", { apn_settings: { foo: 1 } }).content).toBe(
      "Error: 1 validation error for APNSettings\nfoo\n  Extra inputs are not permitted [type=extra_forbidden, input_value=1, input_type=int]\n" +
        "    For further information visit https://errors.pydantic.dev/2.11/v/extra_forbidden",
    );
    expect(run("set_apn_settings", { apn_settings: { apn_name: "bad" } }).content).toBe(
      "Error: 1 validation error for APNSettings\napn_name\n  Input should be 'internet' or 'broken' [type=enum, input_value='bad', input_type=str]\n" +
        "    For further information visit https://errors.pydantic.dev/2.11/v/enum",
    );
  });
});

describe("VPN", () => {
  it("connect, check, disconnect", () => {
    expect(ok("check_vpn_status")).toBe("VPN is turned OFF.");
    ok("connect_vpn");
    expect(ok("check_vpn_status")).toBe(
      "VPN is ON and connected. Details: {'server_address': '192.168.1.1', 'protocol': 'OpenVPN', 'server_performance': <PerformanceLevel.EXCELLENT: 'excellent'>}",
    );
    expect(ok("disconnect_vpn")).toBe(`VPN disconnected successfully.\n${DEFAULT_BAR}`);
    expect(ok("disconnect_vpn")).toBe(`No active VPN connection to disconnect.\n${DEFAULT_BAR}`);
    expect(device().vpn_details).toBeNull();
  });

  it("turning airplane mode on disconnects the VPN", () => {
    ok("connect_vpn");
    ok("toggle_airplane_mode");
    expect(device().vpn_connected).toBe(false);
  });
});

describe("apps and MMS", () => {
  it("lists apps and their permissions", () => {
    expect(ok("check_installed_apps")).toBe(
      "The following apps are installed on the phone: messaging, browser",
    );
    expect(ok("check_app_status", { app_name: "browser" })).toBe(
      "Status for App: browser\n - Permissions Granted:\n   - storage\n   - network",
    );
    expect(ok("check_app_permissions", { app_name: "messaging" })).toBe(
      "App 'messaging' has permission for: sms, storage, phone.",
    );
    expect(ok("check_app_permissions", { app_name: "camera" })).toBe("App 'camera' not found on this phone.");
    run("remove_app_permission", { app_name: "browser", permission: "storage" });
    run("remove_app_permission", { app_name: "browser", permission: "network" });
    expect(ok("check_app_status", { app_name: "browser" })).toBe(
      "Status for App: browser\n - Permissions: None granted.",
    );
    expect(ok("check_app_permissions", { app_name: "browser" })).toBe(
      "App 'browser' currently has no permissions granted.",
    );
  });

  it("grant_app_permission lower-cases and reports unknown permissions as text", () => {
    run("remove_app_permission", { app_name: "messaging", permission: "sms" });
    expect(ok("can_send_mms")).toBe("Your messaging app cannot send MMS messages.");
    expect(ok("grant_app_permission", { app_name: "messaging", permission: "SMS" })).toBe(
      `Success. Permission 'sms' granted to app 'messaging'.\n${DEFAULT_BAR}`,
    );
    expect(ok("can_send_mms")).toBe("Your messaging app can send MMS messages.");
    expect(ok("grant_app_permission", { app_name: "messaging", permission: "camera" })).toBe(
      `Error. Permission 'camera' not tracked for app 'messaging', available permissions: ['sms', 'storage', 'phone', 'network']\n${DEFAULT_BAR}`,
    );
    expect(ok("grant_app_permission", { app_name: "camera", permission: "sms" })).toBe(
      `Error. App 'camera' not found. Cannot grant permission.\n${DEFAULT_BAR}`,
    );
  });

  it("MMS needs 3G+, no MMS-over-Wi-Fi calling, an MMSC URL", () => {
    run("set_wifi_calling", { enabled: true, mms_over_wifi: true });
    expect(ok("can_send_mms")).toBe("Your messaging app cannot send MMS messages.");
    run("set_wifi_calling", { enabled: false });
    expect(ok("can_send_mms")).toBe("Your messaging app can send MMS messages.");
    run("break_apn_mms_setting");
    expect(ok("can_send_mms")).toBe("Your messaging app cannot send MMS messages.");
  });
});

describe("payments", () => {
  it("without a request", () => {
    expect(ok("check_payment_request")).toBe("No payment request has been made.");
    expect(ok("make_payment")).toBe("You do not have a payment request.");
  });
});
