/**
 * Typed views of FlightDB records and tau2's lookup helpers (`_get_user`, `_get_reservation`,
 * `_get_flight`, `_get_flight_instance`, id allocation) with their exact error texts.
 * Views returned by `db.get` are read-only; tools take a writable record with `db.mut`.
 */
import { pyKeyIn, pyStr } from "../../py/builtins.ts";
import type { PyValue } from "../../py/value.ts";
import type { DbState } from "../db-state.ts";
import { ToolError } from "../toolkit.ts";

/** A payment method: `{source, id, brand, last_four}` or `{source, id, amount: float}`. */
export interface PaymentMethodRec {
  [k: string]: PyValue;
  source: string;
  id: string;
}

export interface UserRec {
  [k: string]: PyValue;
  user_id: string;
  payment_methods: { [id: string]: PaymentMethodRec };
  reservations: PyValue[];
}

/** `{flight_number, origin, destination, date, price}`. */
export interface ReservationFlightRec {
  [k: string]: PyValue;
  flight_number: string;
  date: string;
  price: number;
}

/** `{payment_id, amount}`. */
export interface PaymentRec {
  [k: string]: PyValue;
  payment_id: string;
  amount: number;
}

/**
 * A reservation. Tools assign some fields without pydantic validation, so `cabin`,
 * `passengers`, `total_baggages` and `nonfree_baggages` may hold any value an agent passed.
 */
export interface ReservationRec {
  [k: string]: PyValue;
  user_id: string;
  flights: ReservationFlightRec[];
  passengers: PyValue;
  payment_history: PaymentRec[];
  cabin: PyValue;
  nonfree_baggages: PyValue;
}

/** A flight date entry; `available` ones also carry `available_seats` and `prices` per cabin. */
export interface FlightDateRec {
  [k: string]: PyValue;
  status: string;
}

export interface FlightRec {
  [k: string]: PyValue;
  flight_number: string;
  origin: string;
  destination: string;
  scheduled_departure_time_est: string;
  scheduled_arrival_time_est: string;
  dates: { [date: string]: FlightDateRec };
}

/** "Now" in tau2's airline world. */
export const AIRLINE_NOW = "2024-05-15T15:00:00";
const NEW_RESERVATION_IDS = ["HATHAT", "HATHAU", "HATHAV"];
const NEW_CERTIFICATE_IDS = ["certificate_3221322", "certificate_3221323", "certificate_3221324"];

export function getUser(db: DbState, userId: PyValue): { id: string; user: UserRec } {
  if (!pyKeyIn(userId, (k) => db.has("users", k))) throw new ToolError(`User ${pyStr(userId)} not found`);
  return { id: userId, user: db.get("users", userId) as UserRec };
}

export function getReservation(
  db: DbState,
  reservationId: PyValue,
): { id: string; reservation: ReservationRec } {
  if (!pyKeyIn(reservationId, (k) => db.has("reservations", k))) {
    throw new ToolError(`Reservation ${pyStr(reservationId)} not found`);
  }
  return { id: reservationId, reservation: db.get("reservations", reservationId) as ReservationRec };
}

export function getFlight(db: DbState, flightNumber: PyValue): FlightRec {
  if (!pyKeyIn(flightNumber, (k) => db.has("flights", k))) {
    throw new ToolError(`Flight ${pyStr(flightNumber)} not found`);
  }
  return db.get("flights", flightNumber) as FlightRec;
}

export function getFlightInstance(db: DbState, flightNumber: PyValue, date: PyValue): FlightDateRec {
  const flight = getFlight(db, flightNumber);
  if (!pyKeyIn(date, (k) => Object.hasOwn(flight.dates, k))) {
    throw new ToolError(`Flight ${pyStr(flightNumber)} not found on date ${pyStr(date)}`);
  }
  return flight.dates[date] as FlightDateRec;
}

export function newReservationId(db: DbState): string {
  const id = NEW_RESERVATION_IDS.find((x) => !db.has("reservations", x));
  if (id === undefined) throw new ToolError("Too many reservations");
  return id;
}

/** The first certificate id the user does not hold yet, or undefined. */
export const newCertificateId = (user: UserRec): string | undefined =>
  NEW_CERTIFICATE_IDS.find((x) => !Object.hasOwn(user.payment_methods, x));
