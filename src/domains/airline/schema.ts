/**
 * FlightDB (tau2 `domains/airline/data_model.py`) as a zod schema producing the Python-typed value
 * pydantic would hold after loading: float fields become `PyFloat` even when the file says `60`,
 * int fields accept integral floats / numeric strings, defaults are materialised, unknown keys of
 * nested models are dropped and the root forbids them. Object keys come out in pydantic's field
 * declaration order (the order tool results are dumped in); dict keys keep the file's order.
 */
import { z } from "zod";
import { type PyDict, PyFloat, type PyValue } from "../../formats/py/value.ts";
import { DbBase, type Layout } from "../db-state.ts";
import { type Coerced, coerceFloat, coerceInt, coerceStr } from "./pydantic.ts";

export const FLIGHT_DB_CLASS = "FlightDB";
export const FLIGHT_DB_LAYOUT: Layout = { flights: "dict", users: "dict", reservations: "dict" };

export const CABINS = ["business", "economy", "basic_economy"] as const;
export const FLIGHT_TYPES = ["round_trip", "one_way"] as const;
export const INSURANCE = ["yes", "no"] as const;
const MEMBERSHIPS = ["gold", "silver", "regular"] as const;

/** Plain JSON numbers carry no int/float tag; a non-integral one can only be a float. */
const asPy = (v: unknown): PyValue =>
  typeof v === "number" && !Number.isInteger(v) ? new PyFloat(v) : (v as PyValue);

const lax = (coerce: (v: PyValue) => Coerced) =>
  z.unknown().transform((v, ctx): PyValue => {
    const r = coerce(asPy(v));
    if (r.ok) return r.value;
    ctx.addIssue({ code: "custom", message: `${r.msg} [type=${r.type}]` });
    return z.NEVER;
  });

const pyStr = lax(coerceStr);
const pyInt = lax(coerceInt);
const pyFloat = lax(coerceFloat);
const optionalStr = pyStr.nullable().default(null);

const cabinKey = z
  .string()
  .refine((k) => (CABINS as readonly string[]).includes(k), "Input should be a cabin");
/** `dict[CabinClass, int]`: keys must be cabins, but not every cabin has to be present. */
const perCabin = z.record(cabinKey, pyInt);

const name = z.object({ first_name: pyStr, last_name: pyStr });

const address = z.object({
  address1: pyStr,
  address2: optionalStr,
  city: pyStr,
  country: pyStr,
  state: pyStr,
  zip: pyStr,
});

const payment = z.object({ payment_id: pyStr, amount: pyInt });

// Subclasses that re-declare a base field keep the base position (pydantic field order).
const paymentMethod = z.discriminatedUnion("source", [
  z.object({ source: z.literal("credit_card"), id: pyStr, brand: pyStr, last_four: pyStr }),
  z.object({ source: z.literal("gift_card"), id: pyStr, amount: pyFloat }),
  z.object({ source: z.literal("certificate"), id: pyStr, amount: pyFloat }),
]);

const passenger = z.object({ first_name: pyStr, last_name: pyStr, dob: pyStr });

const flightDateStatus = z.discriminatedUnion("status", [
  z.object({ status: z.literal("available"), available_seats: perCabin, prices: perCabin }),
  z.object({ status: z.literal("landed"), actual_departure_time_est: pyStr, actual_arrival_time_est: pyStr }),
  z.object({ status: z.literal("cancelled") }),
  z.object({
    status: z.literal("delayed"),
    estimated_departure_time_est: pyStr,
    estimated_arrival_time_est: pyStr,
  }),
  z.object({
    status: z.literal("flying"),
    actual_departure_time_est: pyStr,
    estimated_arrival_time_est: pyStr,
  }),
  z.object({
    status: z.literal("on time"),
    estimated_departure_time_est: pyStr,
    estimated_arrival_time_est: pyStr,
  }),
]);

const flight = z.object({
  flight_number: pyStr,
  origin: pyStr,
  destination: pyStr,
  scheduled_departure_time_est: pyStr,
  scheduled_arrival_time_est: pyStr,
  dates: z.record(z.string(), flightDateStatus),
});

const reservationFlight = z.object({
  flight_number: pyStr,
  origin: pyStr,
  destination: pyStr,
  date: pyStr,
  price: pyInt,
});

const user = z.object({
  user_id: pyStr,
  name,
  address,
  email: pyStr,
  dob: pyStr,
  payment_methods: z.record(z.string(), paymentMethod),
  saved_passengers: z.array(passenger),
  membership: z.enum(MEMBERSHIPS),
  reservations: z.array(pyStr),
});

const reservation = z.object({
  reservation_id: pyStr,
  user_id: pyStr,
  origin: pyStr,
  destination: pyStr,
  flight_type: z.enum(FLIGHT_TYPES),
  cabin: z.enum(CABINS),
  flights: z.array(reservationFlight),
  passengers: z.array(passenger),
  payment_history: z.array(payment),
  created_at: pyStr,
  total_baggages: pyInt,
  nonfree_baggages: pyInt,
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
