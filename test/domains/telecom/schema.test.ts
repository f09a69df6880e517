/** TelecomDB / TelecomUserDB validation: pydantic coercions, defaults, date texts, forbidden keys. */
import { describe, expect, it } from "vitest";
import { DbState } from "../../../src/domains/db-state.ts";
import { telecomDomain } from "../../../src/domains/telecom/index.ts";
import { type PyDict, PyFloat, toPlain } from "../../../src/py/value.ts";
import { agentBase, userBase } from "./data.ts";

const minimalDb = (extra: PyDict = {}) => ({
  customers: [
    {
      customer_id: "C1",
      full_name: "A",
      date_of_birth: "1990-01-01",
      email: "a@b",
      phone_number: "1",
      address: { street: "s", city: "c", state: "CA", zip_code: "1" },
      ...extra,
    },
  ],
  lines: [{ line_id: "L1", phone_number: "1", plan_id: "P1" }],
  devices: [
    {
      device_id: "D1",
      device_type: "phone",
      model: "m",
      is_esim_capable: true,
      activation_date: "2025-01-20T14:30:00.5",
    },
  ],
  plans: [
    { plan_id: "P1", name: "p", data_limit_gb: 60, price_per_month: "10", data_refueling_price_per_gb: true },
  ],
});

describe("TelecomDB", () => {
  it("adds pydantic defaults (customer created_at defaults to a DATE) and coerces floats", () => {
    const root = telecomDomain.agentDbFromPlain(minimalDb()).root;
    expect(root.bills).toEqual([]);
    expect((root.customers as PyDict[])[0]).toMatchObject({
      account_status: "Pending Verification",
      payment_methods: [],
      line_ids: [],
      bill_ids: [],
      created_at: "2025-01-01",
      last_extension_date: null,
      goodwill_credit_used_this_year: new PyFloat(0),
    });
    expect((root.lines as PyDict[])[0]).toEqual({
      line_id: "L1",
      phone_number: "1",
      status: "Pending Activation",
      plan_id: "P1",
      device_id: null,
      data_used_gb: new PyFloat(0),
      data_refueling_gb: new PyFloat(0),
      roaming_enabled: false,
      contract_end_date: null,
      last_plan_change_date: null,
      last_sim_replacement_date: null,
      suspension_start_date: null,
    });
    expect((root.plans as PyDict[])[0]).toMatchObject({
      data_limit_gb: new PyFloat(60),
      price_per_month: new PyFloat(10),
      data_refueling_price_per_gb: new PyFloat(1),
    });
  });

  it("renders datetimes like Python str(): space separator, microseconds only when non-zero", () => {
    const root = telecomDomain.agentDbFromPlain(minimalDb({ created_at: "2025-01-15T10:30:00" })).root;
    expect((root.customers as PyDict[])[0]?.created_at).toBe("2025-01-15 10:30:00");
    expect((root.devices as PyDict[])[0]?.activation_date).toBe("2025-01-20 14:30:00.500000");
  });

  it("forbids unknown keys at every level", () => {
    expect(() => telecomDomain.agentDbFromPlain({ ...minimalDb(), extra: [] })).toThrow(
      "Extra inputs are not permitted",
    );
    expect(() => telecomDomain.agentDbFromPlain(minimalDb({ nickname: "x" }))).toThrow(
      "customers.0.nickname",
    );
  });

  it("re-validating a dump gives the same hash (agent and user)", () => {
    const agent = telecomDomain.agentDbFromPlain(toPlain(DbState.of(agentBase).dump()));
    expect(DbState.of(agent).hash()).toBe(DbState.of(agentBase).hash());
    const user = telecomDomain.userDbFromPlain!(toPlain(DbState.of(userBase).dump()));
    expect(DbState.of(user).hash()).toBe(DbState.of(userBase).hash());
  });
});

describe("TelecomUserDB", () => {
  it("defaults the whole device and surroundings", () => {
    const root = telecomDomain.userDbFromPlain!({}).root;
    expect(root.surroundings).toEqual({
      name: null,
      phone_number: null,
      is_abroad: false,
      roaming_allowed: false,
      signal_strength: { "2G": "poor", "3G": "fair", "4G": "good", "5G": "excellent" },
      mobile_data_usage_exceeded: false,
      line_active: true,
      payment_request: null,
    });
    expect(root.device).toMatchObject({
      sim_card_status: "active",
      network_signal_strength: "good",
      network_technology_connected: "5G",
      battery_level: 80,
      network_mode_preference: "4g_5g_preferred",
      vpn_details: null,
      active_apn_settings: {
        apn_name: "internet",
        reset_at_reboot: false,
        mms_apn: "mms",
        mmsc_url: "http://mms.carrier.com/mms/wapenc",
        mms_proxy: null,
        mms_port: null,
      },
      app_statuses: {
        messaging: {
          app_name: "messaging",
          permissions: { sms: true, storage: true, phone: true, network: false },
        },
        browser: {
          app_name: "browser",
          permissions: { sms: false, storage: true, phone: false, network: true },
        },
      },
    });
  });

  it("keeps ints in int fields and floats in float fields", () => {
    const root = telecomDomain.userDbFromPlain!({
      device: { battery_level: 55.0, vpn_details: { server_address: "x" } },
      surroundings: { payment_request: { bill_id: "B1", amount_due: 10 } },
    }).root;
    expect((root.device as PyDict).battery_level).toBe(55);
    expect((root.device as PyDict).vpn_details).toEqual({
      server_address: "x",
      protocol: null,
      server_performance: "unknown",
    });
    expect((root.surroundings as PyDict).payment_request).toEqual({
      bill_id: "B1",
      amount_due: new PyFloat(10),
      paid: false,
    });
    expect(() => telecomDomain.userDbFromPlain!({ device: { battery_level: 5.5 } })).toThrow(
      "fractional part",
    );
  });
});
