/**
 * The agent DB (`TelecomDB`, tau2 `data_model.py`). Every telecom model forbids unknown keys; field
 * order is the pydantic declaration order (tool results dump models in that order).
 */
import {
  optional,
  pyBoolField,
  pyDateField,
  pyDatetimeField,
  pyEnumField,
  pyFloatField,
  zodValidationErrorText,
} from "../../py/pydantic-zod.ts";
import { type PyDict, PyFloat } from "../../py/value.ts";
import { z } from "../../util/zod.ts";
import { DbBase, type Layout } from "../db-state.ts";

export const LINE_STATUS = ["Active", "Suspended", "Pending Activation", "Closed"] as const;
export const BILL_STATUS = ["Draft", "Issued", "Awaiting Payment", "Paid", "Overdue", "Disputed"] as const;
const ACCOUNT_STATUS = ["Active", "Suspended", "Pending Verification", "Closed"] as const;
const DEVICE_TYPE = ["phone", "router", "tablet", "watch", "other"] as const;
const PAYMENT_METHOD_TYPE = ["Credit Card", "Debit Card", "PayPal"] as const;

/** tau2's `DEFAULT_START_DATE` is a date given as a datetime default (never validated): renders as a date. */
const DEFAULT_CREATED_AT = "2025-01-01";

const float0 = () => pyFloatField.default(() => new PyFloat(0));

const address = z.strictObject({
  street: z.string(),
  city: z.string(),
  state: z.string(),
  zip_code: z.string(),
});

const plan = z.strictObject({
  plan_id: z.string(),
  name: z.string(),
  data_limit_gb: pyFloatField,
  price_per_month: pyFloatField,
  data_refueling_price_per_gb: pyFloatField,
});

const device = z.strictObject({
  device_id: z.string(),
  device_type: pyEnumField(DEVICE_TYPE),
  model: z.string(),
  imei: optional(z.string()),
  is_esim_capable: pyBoolField,
  activated: pyBoolField.default(false),
  activation_date: optional(pyDatetimeField),
  last_esim_transfer_date: optional(pyDatetimeField),
});

const line = z.strictObject({
  line_id: z.string(),
  phone_number: z.string(),
  status: pyEnumField(LINE_STATUS).default("Pending Activation"),
  plan_id: z.string(),
  device_id: optional(z.string()),
  data_used_gb: float0(),
  data_refueling_gb: float0(),
  roaming_enabled: pyBoolField.default(false),
  contract_end_date: optional(pyDateField),
  last_plan_change_date: optional(pyDateField),
  last_sim_replacement_date: optional(pyDateField),
  suspension_start_date: optional(pyDateField),
});

export const lineItemSchema = z.strictObject({
  description: z.string(),
  amount: pyFloatField,
  date: pyDateField,
  item_type: z.string(),
});

export const billSchema = z.strictObject({
  bill_id: z.string(),
  customer_id: z.string(),
  period_start: pyDateField,
  period_end: pyDateField,
  issue_date: pyDateField,
  total_due: pyFloatField,
  due_date: pyDateField,
  line_items: z.array(lineItemSchema).default(() => []),
  status: pyEnumField(BILL_STATUS).default("Draft"),
});

const paymentMethod = z.strictObject({
  method_type: pyEnumField(PAYMENT_METHOD_TYPE),
  account_number_last_4: z.string(),
  expiration_date: z.string(),
});

const customer = z.strictObject({
  customer_id: z.string(),
  full_name: z.string(),
  date_of_birth: z.string(),
  email: z.string(),
  phone_number: z.string(),
  address,
  account_status: pyEnumField(ACCOUNT_STATUS).default("Pending Verification"),
  payment_methods: z.array(paymentMethod).default(() => []),
  line_ids: z.array(z.string()).default(() => []),
  bill_ids: z.array(z.string()).default(() => []),
  created_at: pyDatetimeField.default(DEFAULT_CREATED_AT),
  last_extension_date: optional(pyDateField),
  goodwill_credit_used_this_year: float0(),
});

const telecomDb = z.strictObject({
  plans: z.array(plan).default(() => []),
  customers: z.array(customer).default(() => []),
  lines: z.array(line).default(() => []),
  bills: z.array(billSchema).default(() => []),
  devices: z.array(device).default(() => []),
});

export const AGENT_DB_CLASS = "TelecomDB";
export const AGENT_LAYOUT: Layout = {
  plans: "list",
  customers: "list",
  lines: "list",
  bills: "list",
  devices: "list",
};

/** Validates plain data as a `TelecomDB` (what `TelecomDB.model_validate` does). */
export function telecomDbFromPlain(plain: unknown): DbBase {
  const r = telecomDb.safeParse(plain, { reportInput: true });
  if (!r.success) throw new Error(zodValidationErrorText(AGENT_DB_CLASS, r.error, plain));
  return new DbBase(AGENT_DB_CLASS, AGENT_LAYOUT, r.data as unknown as PyDict);
}
