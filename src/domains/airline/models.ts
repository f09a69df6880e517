/**
 * The airline pydantic models tau2's tools construct at call time, with their lax coercions
 * (pydantic's lax mode): e.g. `Payment.amount` becomes an int, `Certificate.amount` a float.
 */
import { pyIter } from "../../py/builtins.ts";
import { coerceFloat, coerceInt, coerceLiteral, coerceStr } from "../../py/lax.ts";
import { construct, type FieldSpec, listOf, modelOf, scalar } from "../../py/pydantic-models.ts";
import { isPyDict, type PyDict, type PyValue } from "../../py/value.ts";
import { CABINS, FLIGHT_TYPES, INSURANCE } from "./schema.ts";

const str = scalar(coerceStr);
const int = scalar(coerceInt);
const strFields = (...names: string[]): FieldSpec[] => names.map((name) => ({ name, check: str }));

export const FlightInfo = modelOf("FlightInfo", strFields("flight_number", "date"));
export const Passenger = modelOf("Passenger", strFields("first_name", "last_name", "dob"));
export const Payment = modelOf("Payment", [
  { name: "payment_id", check: str },
  { name: "amount", check: int },
]);
export const Certificate = modelOf("Certificate", [
  { name: "source", check: scalar(coerceLiteral(["certificate"])) },
  { name: "id", check: str },
  { name: "amount", check: scalar(coerceFloat) },
]);
const ReservationFlight = modelOf("ReservationFlight", [
  ...strFields("flight_number", "origin", "destination", "date"),
  { name: "price", check: int },
]);
export const Reservation = modelOf("Reservation", [
  ...strFields("reservation_id", "user_id", "origin", "destination"),
  { name: "flight_type", check: scalar(coerceLiteral(FLIGHT_TYPES)) },
  { name: "cabin", check: scalar(coerceLiteral(CABINS)) },
  { name: "flights", check: listOf(ReservationFlight) },
  { name: "passengers", check: listOf(Passenger) },
  { name: "payment_history", check: listOf(Payment) },
  { name: "created_at", check: str },
  { name: "total_baggages", check: int },
  { name: "nonfree_baggages", check: int },
  { name: "insurance", check: scalar(coerceLiteral(INSURANCE)) },
  { name: "status", check: scalar(coerceLiteral(["cancelled"])), default: null },
]);

/**
 * tau2's `if all(isinstance(x, dict) for x in xs): xs = [Model(**x) for x in xs]`. When some item is
 * not a dict, nothing is converted and the raw value goes on (later steps then fail or store it).
 */
export function modelsIfAllDicts(
  title: string,
  model: typeof FlightInfo,
  value: PyValue,
): { converted: true; items: PyDict[] } | { converted: false; raw: PyValue } {
  const items = pyIter(value);
  if (!items.every(isPyDict)) return { converted: false, raw: value };
  return { converted: true, items: items.map((x) => construct(title, model, x as PyDict)) };
}
