/**
 * FlightDB (tau2 `domains/airline/data_model.py`) as a zod schema producing the Python-typed value
 * pydantic would hold after loading: float fields become `PyFloat` even when the file says `60`,
 * int fields accept integral floats / numeric strings, defaults are materialised, unknown keys of
 * nested models are dropped and the root forbids them. Object keys come out in pydantic's field
 * declaration order (the order tool results are dumped in); dict keys keep the file's order.
 */
import { pyFloatField, pyIntField, pyStrField } from "../../py/pydantic-zod.ts";
import type { PyDict } from "../../py/value.ts";
import { z } from "../../util/zod.ts";
import { DbBase, type Layout } from "../db-state.ts";

export const FLIGHT_DB_CLASS = "FlightDB";
export const FLIGHT_DB_LAYOUT: Layout = { flights: "dict", users: "dict", reservations: "dict" };

export const CABINS = ["business", "economy", "basic_economy"] as const;
export const FLIGHT_TYPES = ["round_trip", "one_way"] as const;
export const INSURANCE = ["yes", "no"] as const;
const MEMBERSHIPS = ["gold", "silver", "regular"] as const;

const optionalStr = pyStrField.nullable().default(null);

const cabinKey = z
  .string()
  .refine((k) => (CABINS as readonly string[]).includes(k), "Input should be a cabin");
/** `dict[CabinClass, int]`: keys must be cabins, but not every cabin has to be present. */
const perCabin = z.record(cabinKey, pyIntField);

const name = z.object({ first_name: pyStrField, last_name: pyStrField });

const address = z.object({
  address1: pyStrField,
  address2: optionalStr,
  city: pyStrField,
  country: pyStrField,
  state: pyStrField,
  zip: pyStrField,
});

const payment = z.object({ payment_id: pyStrField, amount: pyIntField });

// Subclasses that re-declare a base field keep the base position (pydantic field order).
const paymentMethod = z.discriminatedUnion("source", [
  z.object({ source: z.literal("credit_card"), id: pyStrField, brand: pyStrField, last_four: pyStrField }),
  z.object({ source: z.literal("gift_card"), id: pyStrField, amount: pyFloatField }),
  z.object({ source: z.literal("certificate"), id: pyStrField, amount: pyFloatField }),
]);

const passenger = z.object({ first_name: pyStrField, last_name: pyStrField, dob: pyStrField });

const flightDateStatus = z.discriminatedUnion("status", [
  z.object({ status: z.literal("available"), available_seats: perCabin, prices: perCabin }),
  z.object({
    status: z.literal("landed"),
    actual_departure_time_est: pyStrField,
    actual_arrival_time_est: pyStrField,
  }),
  z.object({ status: z.literal("cancelled") }),
  z.object({
    status: z.literal("delayed"),
    estimated_departure_time_est: pyStrField,
    estimated_arrival_time_est: pyStrField,
  }),
  z.object({
    status: z.literal("flying"),
    actual_departure_time_est: pyStrField,
    estimated_arrival_time_est: pyStrField,
  }),
  z.object({
    status: z.literal("on time"),
    estimated_departure_time_est: pyStrField,
    estimated_arrival_time_est: pyStrField,
  }),
]);

const flight = z.object({
  flight_number: pyStrField,
  origin: pyStrField,
  destination: pyStrField,
  scheduled_departure_time_est: pyStrField,
  scheduled_arrival_time_est: pyStrField,
  dates: z.record(z.string(), flightDateStatus),
});

const reservationFlight = z.object({
  flight_number: pyStrField,
  origin: pyStrField,
  destination: pyStrField,
  date: pyStrField,
  price: pyIntField,
});

const user = z.object({
  user_id: pyStrField,
  name,
  address,
  email: pyStrField,
  dob: pyStrField,
  payment_methods: z.record(z.string(), paymentMethod),
  saved_passengers: z.array(passenger),
  membership: z.enum(MEMBERSHIPS),
  reservations: z.array(pyStrField),
});

const reservation = z.object({
  reservation_id: pyStrField,
  user_id: pyStrField,
  origin: pyStrField,
  destination: pyStrField,
  flight_type: z.enum(FLIGHT_TYPES),
  cabin: z.enum(CABINS),
  flights: z.array(reservationFlight),
  passengers: z.array(passenger),
  payment_history: z.array(payment),
  created_at: pyStrField,
  total_baggages: pyIntField,
  nonfree_baggages: pyIntField,
  insurance: z.enum(INSURANCE),
  status: z.literal("cancelled").nullable().default(null),
});

export const flightDbSchema = z.strictObject({
  flights: z.record(z.string(), flight),
  users: z.record(z.string(), user),
  reservations: z.record(z.string(), reservation),
});

/** Validates plain DB data (a parsed `db.json` or a dump) into a frozen FlightDB. */
export function flightDbFromPlain(plain: unknown): DbBase {
  const root: PyDict = flightDbSchema.parse(plain);
  return new DbBase(FLIGHT_DB_CLASS, FLIGHT_DB_LAYOUT, root);
}
