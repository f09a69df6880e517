/**
 * The WRITE tools that modify an existing reservation or user: cancel_reservation,
 * update_reservation_{baggages,flights,passengers} and send_certificate.
 * Checks run in tau2's order; a failure keeps the mutations made before it (no rollback).
 */
import { checkedAdd, checkedMul, checkedSub, isNonZero, lessThan, maxWithZero } from "../../py/arith.ts";
import { attributeError, keyError, pyIter, pyKeyIn, pyLen, pyStr } from "../../py/builtins.ts";
import { pyNeg } from "../../py/number.ts";
import { construct } from "../../py/pydantic-models.ts";
import { deepClone, type PyDict, type PyFloat, type PyValue, pyEquals } from "../../py/value.ts";
import type { DbState } from "../db-state.ts";
import { model, type ToolDef, ToolError } from "../toolkit.ts";
import { Certificate, FlightInfo, modelsIfAllDicts, Passenger, Payment } from "./models.ts";
import {
  getFlight,
  getFlightInstance,
  getReservation,
  getUser,
  newCertificateId,
  type PaymentRec,
  type ReservationFlightRec,
  type ReservationRec,
  type UserRec,
} from "./records.ts";

/**
 * tau2's `_payment_for_update`: the method must exist (even for a zero price), certificates are
 * refused, a gift card must cover the price and is debited by it (a negative price credits it);
 * a Payment is created only for a non-zero price, validated after the debit (no rollback).
 */
function paymentForUpdate(
  db: DbState,
  userId: string,
  paymentId: PyValue,
  price: number | PyFloat,
): PyDict | null {
  const user = db.get("users", userId) as UserRec;
  if (!pyKeyIn(paymentId, (k) => Object.hasOwn(user.payment_methods, k))) {
    throw new ToolError("Payment method not found");
  }
  const method = user.payment_methods[paymentId] as PyDict;
  if (method.source === "certificate")
    throw new ToolError("Certificate cannot be used to update reservation");
  if (method.source === "gift_card" && lessThan(method.amount as PyFloat, price)) {
    throw new ToolError("Gift card balance is not enough");
  }
  if (method.source === "gift_card") {
    const writable = db.mut<UserRec>("users", userId).payment_methods[paymentId] as PyDict;
    writable.amount = checkedSub(writable.amount as PyValue, price);
  }
  return isNonZero(price) ? construct("Payment", Payment, { payment_id: paymentId, amount: price }) : null;
}

export const cancelReservation: ToolDef = {
  name: "cancel_reservation",
  kind: "write",
  params: [{ name: "reservation_id" }],
  run(db, args) {
    const { id } = getReservation(db, args.reservation_id as PyValue);
    const reservation = db.mut<ReservationRec>("reservations", id);
    // Every entry is refunded, earlier refunds included; seats and balances are not restored (tau2 behaviour).
    const refunds = reservation.payment_history.map((p) =>
      construct("Payment", Payment, { payment_id: p.payment_id, amount: pyNeg(p.amount) }),
    );
    reservation.payment_history.push(...(refunds as PaymentRec[]));
    reservation.status = "cancelled";
    return model(reservation);
  },
};

export const updateReservationBaggages: ToolDef = {
  name: "update_reservation_baggages",
  kind: "write",
  params: [
    { name: "reservation_id" },
    { name: "total_baggages" },
    { name: "nonfree_baggages" },
    { name: "payment_id" },
  ],
  run(db, args) {
    const { id, reservation } = getReservation(db, args.reservation_id as PyValue);
    const { id: userId } = getUser(db, reservation.user_id);
    const nonfree = args.nonfree_baggages as PyValue;
    const price = checkedMul(50, maxWithZero(checkedSub(nonfree, reservation.nonfree_baggages)));
    const payment = paymentForUpdate(db, userId, args.payment_id as PyValue, price);
    const writable = db.mut<ReservationRec>("reservations", id);
    if (payment !== null) writable.payment_history.push(payment as PaymentRec);
    // The raw arguments are assigned unvalidated: 2.0 stays a float, "2" a string (tau2 behaviour).
    writable.total_baggages = deepClone(args.total_baggages as PyValue);
    writable.nonfree_baggages = deepClone(nonfree);
    return model(writable);
  },
};

export const updateReservationFlights: ToolDef = {
  name: "update_reservation_flights",
  kind: "write",
  params: [{ name: "reservation_id" }, { name: "cabin" }, { name: "flights" }, { name: "payment_id" }],
  run(db, args) {
    const infos = modelsIfAllDicts("FlightInfo", FlightInfo, args.flights as PyValue);
    const { id, reservation } = getReservation(db, args.reservation_id as PyValue);
    const { id: userId } = getUser(db, reservation.user_id);
    const cabin = args.cabin as PyValue;
    const passengers = () => pyLen(reservation.passengers);

    let price: number | PyFloat = 0;
    const newFlights: ReservationFlightRec[] = [];
    for (const info of infos.converted ? infos.items : pyIter(infos.raw)) {
      if (!infos.converted) throw attributeError(info, "flight_number");
      const { flight_number: number, date } = info as { flight_number: string; date: string };
      // A segment already booked in the same cabin keeps its old price.
      const kept = reservation.flights.find(
        (f) => f.flight_number === number && f.date === date && pyEquals(cabin, reservation.cabin),
      );
      if (kept !== undefined) {
        price = checkedAdd(price, checkedMul(kept.price, passengers()));
        newFlights.push(deepClone(kept));
        continue;
      }
      const flight = getFlight(db, number);
      const instance = getFlightInstance(db, number, date);
      if (instance.status !== "available")
        throw new ToolError(`Flight ${number} not available on date ${date}`);
      const seats = instance.available_seats as PyDict;
      if (!pyKeyIn(cabin, (k) => Object.hasOwn(seats, k))) throw keyError(cabin);
      if (lessThan(seats[cabin] as number, passengers()))
        throw new ToolError(`Not enough seats on flight ${number}`);
      const prices = instance.prices as PyDict;
      if (!Object.hasOwn(prices, cabin)) throw keyError(cabin);
      const flightPrice = prices[cabin] as number;
      const segment = { flight_number: number, origin: flight.origin, destination: flight.destination, date };
      newFlights.push({ ...segment, price: flightPrice });
      price = checkedAdd(price, checkedMul(flightPrice, passengers()));
    }
    const paid = reservation.flights.reduce((s, f) => s + f.price, 0);
    price = checkedSub(price, checkedMul(paid, passengers()));

    const payment = paymentForUpdate(db, userId, args.payment_id as PyValue, price);
    const writable = db.mut<ReservationRec>("reservations", id);
    if (payment !== null) writable.payment_history.push(payment as PaymentRec);
    writable.flights = newFlights;
    // The raw cabin is stored; seats are never updated here (tau2 behaviour).
    writable.cabin = deepClone(cabin);
    return model(writable);
  },
};

export const updateReservationPassengers: ToolDef = {
  name: "update_reservation_passengers",
  kind: "write",
  params: [{ name: "reservation_id" }, { name: "passengers" }],
  run(db, args) {
    const given = modelsIfAllDicts("Passenger", Passenger, args.passengers as PyValue);
    const { id, reservation } = getReservation(db, args.reservation_id as PyValue);
    const passengers = given.converted ? given.items : given.raw;
    if (pyLen(passengers) !== pyLen(reservation.passengers)) {
      throw new ToolError("Number of passengers does not match");
    }
    const writable = db.mut<ReservationRec>("reservations", id);
    // Non-dict passengers are stored as given, unvalidated (tau2 behaviour).
    writable.passengers = deepClone(passengers);
    return model(writable);
  },
};

export const sendCertificate: ToolDef = {
  name: "send_certificate",
  kind: "write",
  params: [{ name: "user_id" }, { name: "amount" }],
  run(db, args) {
    const { id: userId, user } = getUser(db, args.user_id as PyValue);
    const certificateId = newCertificateId(user);
    if (certificateId === undefined) throw new ToolError("Too many certificates");
    const amount = args.amount as PyValue;
    const certificate = construct("Certificate", Certificate, {
      id: certificateId,
      amount,
      source: "certificate",
    });
    db.mut<UserRec>("users", userId).payment_methods[certificateId] =
      certificate as UserRec["payment_methods"][string];
    // The message shows the raw argument: `100` or `100.0` (tau2 behaviour).
    return `Certificate ${certificateId} added to user ${userId} with amount ${pyStr(amount)}.`;
  },
};
