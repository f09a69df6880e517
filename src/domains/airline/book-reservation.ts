/** tau2's `book_reservation` (WRITE), step by step in the order of tau2's checks and writes. */
import { checkedAdd, checkedMul, checkedSub, lessThan } from "../../py/arith.ts";
import { attributeError, keyError, operandTypeError, pyIter } from "../../py/builtins.ts";
import { pyNumStr } from "../../py/number.ts";
import { construct } from "../../py/pydantic-models.ts";
import { deepClone, type PyDict, type PyFloat, type PyValue, pyEquals } from "../../py/value.ts";
import { model, type ToolDef, ToolError } from "../toolkit.ts";
import { FlightInfo, modelsIfAllDicts, Passenger, Payment, Reservation } from "./models.ts";
import {
  AIRLINE_NOW,
  getFlight,
  getFlightInstance,
  getUser,
  newReservationId,
  type PaymentMethodRec,
  type ReservationRec,
  type UserRec,
} from "./records.ts";

const rawOrModels = (m: ReturnType<typeof modelsIfAllDicts>): PyValue => (m.converted ? m.items : m.raw);

export const bookReservation: ToolDef = {
  name: "book_reservation",
  kind: "write",
  params: [
    { name: "user_id" },
    { name: "origin" },
    { name: "destination" },
    { name: "flight_type" },
    { name: "cabin" },
    { name: "flights" },
    { name: "passengers" },
    { name: "payment_methods" },
    { name: "total_baggages" },
    { name: "nonfree_baggages" },
    { name: "insurance" },
  ],
  run(db, args) {
    const flights = modelsIfAllDicts("FlightInfo", FlightInfo, args.flights as PyValue);
    const passengers = modelsIfAllDicts("Passenger", Passenger, args.passengers as PyValue);
    const payments = modelsIfAllDicts("Payment", Payment, args.payment_methods as PyValue);
    const { id: userId, user } = getUser(db, args.user_id as PyValue);
    const reservationId = newReservationId(db);

    // Validation coerces the stored copy (e.g. total_baggages 2.0 -> 2); later steps use the raw arguments.
    const reservation = construct("Reservation", Reservation, {
      reservation_id: reservationId,
      user_id: userId,
      origin: args.origin as PyValue,
      destination: args.destination as PyValue,
      flight_type: args.flight_type as PyValue,
      cabin: args.cabin as PyValue,
      flights: [],
      passengers: deepClone(rawOrModels(passengers)),
      payment_history: deepClone(rawOrModels(payments)),
      created_at: AIRLINE_NOW,
      total_baggages: args.total_baggages as PyValue,
      nonfree_baggages: args.nonfree_baggages as PyValue,
      insurance: args.insurance as PyValue,
    }) as ReservationRec;
    const cabin = reservation.cabin as string;
    // Validation succeeded, so passengers and payments were lists of dicts, now models.
    const travellers = (passengers.converted ? passengers.items : []).length;
    const paymentList = payments.converted ? payments.items : [];

    let total: number | PyFloat = 0;
    const booked: { flightNumber: string; date: string }[] = [];
    for (const info of flights.converted ? flights.items : pyIter(flights.raw)) {
      if (!flights.converted) throw attributeError(info, "flight_number");
      const { flight_number: number, date } = info as { flight_number: string; date: string };
      const flight = getFlight(db, number);
      const instance = getFlightInstance(db, number, date);
      if (instance.status !== "available")
        throw new ToolError(`Flight ${number} not available on date ${date}`);
      const seats = instance.available_seats as PyDict;
      if (!Object.hasOwn(seats, cabin)) throw keyError(cabin);
      if (lessThan(seats[cabin] as number, travellers))
        throw new ToolError(`Not enough seats on flight ${number}`);
      const prices = instance.prices as PyDict;
      if (!Object.hasOwn(prices, cabin)) throw keyError(cabin);
      const price = prices[cabin] as number;
      reservation.flights.push({
        flight_number: number,
        origin: flight.origin,
        destination: flight.destination,
        date,
        price,
      });
      booked.push({ flightNumber: number, date });
      total = checkedAdd(total, checkedMul(price, travellers));
    }

    if (reservation.insurance === "yes") total = checkedAdd(total, 30 * travellers);
    // The baggage fee uses the raw argument: a float makes the total a float; a numeric string
    // (accepted by validation) makes `50 * s` a string and `+=` raise (tau2 behaviour).
    const nonfree = args.nonfree_baggages as PyValue;
    if (typeof nonfree === "string") throw operandTypeError("+=", total, nonfree);
    total = checkedAdd(total, checkedMul(50, nonfree), "+=");

    for (const p of paymentList) {
      const paymentId = p.payment_id as string;
      if (!Object.hasOwn(user.payment_methods, paymentId)) {
        throw new ToolError(`Payment method ${paymentId} not found`);
      }
      const method = user.payment_methods[paymentId] as PaymentMethodRec;
      if (method.source === "gift_card" || method.source === "certificate") {
        if (lessThan(method.amount as PyFloat, p.amount as number)) {
          throw new ToolError(`Not enough balance in payment method ${paymentId}`);
        }
      }
    }
    const paid = paymentList.reduce((s, p) => s + (p.amount as number), 0);
    if (!pyEquals(paid, total)) {
      throw new ToolError(
        `Payment amount does not add up, total price is ${pyNumStr(total)}, but paid ${paid}`,
      );
    }

    const writableUser = db.mut<UserRec>("users", userId);
    for (const p of paymentList) {
      const paymentId = p.payment_id as string;
      const method = writableUser.payment_methods[paymentId];
      if (method === undefined) throw keyError(paymentId); // the same certificate used twice: already removed
      if (method.source === "gift_card")
        method.amount = checkedSub(method.amount as PyValue, p.amount as number);
      // A certificate is consumed whole, no change given (tau2 behaviour).
      else if (method.source === "certificate") delete writableUser.payment_methods[paymentId];
    }
    for (const { flightNumber, date } of booked) {
      // Only this date's seats are copied: a flight record holds every date it flies.
      const seats = db.mutPath("flights", flightNumber, ["dates", date, "available_seats"]);
      seats[cabin] = checkedSub(seats[cabin] as PyValue, travellers);
    }
    db.put("reservations", reservationId, reservation);
    writableUser.reservations.push(reservationId);
    return model(reservation);
  },
};
