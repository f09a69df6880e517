/**
 * The user DB (`TelecomUserDB`, tau2 `user_data_model.py`): the simulated phone (`device`) and the
 * user's surroundings. `surroundings` is absent from the shipped `user_db.toml` and fully defaulted.
 */
import {
  optional,
  pyBoolField,
  pyEnumField,
  pyFloatField,
  pyIntField,
  zodValidationErrorText,
} from "../../py/pydantic-zod.ts";
import type { PyDict } from "../../py/value.ts";
import { z } from "../../util/zod.ts";
import { DbBase, type Layout } from "../db-state.ts";

export const SIM_STATUS = ["active", "missing", "locked_pin", "locked_puk"] as const;
export const NETWORK_TECHNOLOGY = ["none", "2G", "3G", "4G", "5G"] as const;
export const NETWORK_MODE_PREFERENCE = ["4g_5g_preferred", "4g_only", "3g_only", "2g_only"] as const;
export const SIGNAL_STRENGTH = ["none", "poor", "fair", "good", "excellent"] as const;
export const PERFORMANCE_LEVEL = ["unknown", "poor", "fair", "good", "excellent"] as const;
export const NETWORK_STATUS = ["connected", "searching", "no_service", "emergency_only"] as const;
const APN_NAMES = ["internet", "broken"] as const;

export const DEFAULT_MMSC_URL = "http://mms.carrier.com/mms/wapenc";

/** `Optional[str]` with a non-null default. */
const pyStrOrNull = (dflt: string) => z.string().nullable().default(dflt);

export const apnSettingsSchema = z.strictObject({
  apn_name: pyEnumField(APN_NAMES).default("internet"),
  reset_at_reboot: pyBoolField.default(false),
  mms_apn: pyStrOrNull("mms"),
  mmsc_url: pyStrOrNull(DEFAULT_MMSC_URL),
  mms_proxy: optional(z.string()),
  mms_port: optional(pyIntField),
});

/** `APNSettings()`: a fresh default APN configuration. */
export const defaultApnSettings = (): PyDict => apnSettingsSchema.parse({}) as PyDict;

const vpnDetails = z.strictObject({
  server_address: optional(z.string()),
  protocol: optional(z.string()),
  server_performance: pyEnumField(PERFORMANCE_LEVEL).default("unknown"),
});

const appPermissions = z.strictObject({
  sms: pyBoolField.default(false),
  storage: pyBoolField.default(false),
  phone: pyBoolField.default(false),
  network: pyBoolField.default(false),
});

/** The permission names an app tracks, in declaration order (`AppPermissions.model_dump().keys()`). */
export const PERMISSION_NAMES = ["sms", "storage", "phone", "network"] as const;

const appStatus = z.strictObject({
  app_name: z.string(),
  permissions: appPermissions.default(() => ({ sms: false, storage: false, phone: false, network: false })),
});

const defaultAppStatuses = () => ({
  messaging: {
    app_name: "messaging",
    permissions: { sms: true, storage: true, phone: true, network: false },
  },
  browser: { app_name: "browser", permissions: { sms: false, storage: true, phone: false, network: true } },
});

const device = z.strictObject({
  sim_card_status: pyEnumField(SIM_STATUS).default("active"),
  sim_card_missing: pyBoolField.default(false),
  airplane_mode: pyBoolField.default(false),
  network_signal_strength: pyEnumField(SIGNAL_STRENGTH).default("good"),
  network_technology_connected: pyEnumField(NETWORK_TECHNOLOGY).default("5G"),
  network_connection_status: pyEnumField(NETWORK_STATUS).default("connected"),
  battery_level: pyIntField.default(80),
  data_enabled: pyBoolField.default(true),
  roaming_enabled: pyBoolField.default(false),
  network_mode_preference: pyEnumField(NETWORK_MODE_PREFERENCE).default("4g_5g_preferred"),
  active_apn_settings: apnSettingsSchema.default(() => apnSettingsSchema.parse({})),
  wifi_enabled: pyBoolField.default(false),
  wifi_connected: pyBoolField.default(false),
  wifi_ssid: optional(z.string()),
  wifi_signal_strength: pyEnumField(SIGNAL_STRENGTH).default("none"),
  wifi_calling_enabled: pyBoolField.default(false),
  wifi_calling_mms_over_wifi: pyBoolField.default(false),
  data_saver_mode: pyBoolField.default(false),
  vpn_enabled_setting: pyBoolField.default(false),
  vpn_connected: pyBoolField.default(false),
  vpn_details: optional(vpnDetails),
  app_statuses: z.record(z.string(), appStatus).default(defaultAppStatuses),
});

export const paymentRequestSchema = z.strictObject({
  bill_id: z.string(),
  amount_due: pyFloatField,
  paid: pyBoolField.default(false),
});

const defaultSignalStrength = () =>
  ({ "2G": "poor", "3G": "fair", "4G": "good", "5G": "excellent" }) as const;

const surroundings = z.strictObject({
  name: optional(z.string()),
  phone_number: optional(z.string()),
  is_abroad: pyBoolField.default(false),
  roaming_allowed: pyBoolField.default(false),
  signal_strength: z
    .partialRecord(pyEnumField(NETWORK_TECHNOLOGY), pyEnumField(SIGNAL_STRENGTH))
    .default(defaultSignalStrength),
  mobile_data_usage_exceeded: pyBoolField.default(false),
  line_active: pyBoolField.default(true),
  payment_request: optional(paymentRequestSchema),
});

const telecomUserDb = z.strictObject({
  device: device.default(() => device.parse({})),
  surroundings: surroundings.default(() => surroundings.parse({})),
});

export const USER_DB_CLASS = "TelecomUserDB";
export const USER_LAYOUT: Layout = { device: "atom", surroundings: "atom" };

/** Validates plain data as a `TelecomUserDB`. */
export function telecomUserDbFromPlain(plain: unknown): DbBase {
  const r = telecomUserDb.safeParse(plain, { reportInput: true });
  if (!r.success) throw new Error(zodValidationErrorText(USER_DB_CLASS, r.error, plain));
  return new DbBase(USER_DB_CLASS, USER_LAYOUT, r.data as unknown as PyDict);
}
