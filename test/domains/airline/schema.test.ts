/** FlightDB loading: pydantic's lax typing, defaults, unknown keys and field order, as pydantic loads them. */
import { describe, expect, it } from "vitest";
import { airlineDomain } from "../../../src/domains/airline/index.ts";
import { DbState } from "../../../src/domains/db-state.ts";
import { type PyDict, PyFloat } from "../../../src/py/value.ts";
import { airlineBase } from "./data.ts";

function tinyDb(over: { user?: PyDict; reservation?: PyDict; root?: PyDict } = {}): PyDict {
  return {
    flights: {
      HAT001: {
        flight_number: "HAT001",
        origin: "PHL",
        destination: "LGA",
        scheduled_departure_time_est: "06:00:00",
        scheduled_arrival_time_est: "07:00:00",
        dates: {
          "2024-05-16": {
            status: "available",
            available_seats: { economy: 3.0 },
            prices: { economy: "120" },
          },
          "2024-05-01": { status: "cancelled", note: "dropped" },
        },
        unknown: 1,
      },
    },
    users: {
      u1: {
        user_id: "u1",
        name: { first_name: "A", last_name: "B" },
        address: { address1: "x", city: "c", country: "US", state: "NY", zip: "10001" },
        email: "e",
        dob: "1990-01-01",
        payment_methods: {
          g: { source: "gift_card", id: "g", amount: 60 },
          c: { source: "credit_card", id: "c", brand: "visa", last_four: "1234" },
        },
        saved_passengers: [],
        membership: "gold",
        reservations: ["R1"],
        ...over.user,
      },
    },
    reservations: {
      R1: {
        reservation_id: "R1",
        user_id: "u1",
        origin: "PHL",
        destination: "LGA",
        flight_type: "one_way",
        cabin: "economy",
        flights: [
          { origin: "PHL", destination: "LGA", flight_number: "HAT001", date: "2024-05-16", price: 120 },
        ],
        passengers: [{ first_name: "A", last_name: "B", dob: "1990-01-01" }],
        payment_history: [{ payment_id: "c", amount: 120 }],
        created_at: "2024-05-01T00:00:00",
        total_baggages: 1,
        nonfree_baggages: 0,
        insurance: "no",
        ...over.reservation,
      },
    },
    ...over.root,
  };
}

describe("FlightDB schema", () => {
  it("types, defaults and drops like pydantic", () => {
    const state = DbState.of(airlineDomain.agentDbFromPlain(tinyDb()));
    const user = state.get("users", "u1") as PyDict;
    expect((user.payment_methods as PyDict).g).toEqual({
      source: "gift_card",
      id: "g",
      amount: new PyFloat(60),
    });
    expect((user.address as PyDict).address2).toBeNull();
    expect((state.get("reservations", "R1") as PyDict).status).toBeNull();
    const flight = state.get("flights", "HAT001") as PyDict;
    expect(Object.hasOwn(flight, "unknown")).toBe(false);
    const dates = flight.dates as PyDict;
    expect(dates["2024-05-16"]).toEqual({
      status: "available",
      available_seats: { economy: 3 },
      prices: { economy: 120 },
    });
    expect(dates["2024-05-01"]).toEqual({ status: "cancelled" });
    // Field declaration order, not file order (tool results are dumped in this order).
    expect(
      Object.keys(((state.get("reservations", "R1") as PyDict).flights as PyDict[])[0] as PyDict),
    ).toEqual(["flight_number", "origin", "destination", "date", "price"]);
  });

  it("rejects unknown root keys and invalid values", () => {
    expect(() => airlineDomain.agentDbFromPlain(tinyDb({ root: { extra: {} } }))).toThrow();
    expect(() => airlineDomain.agentDbFromPlain(tinyDb({ reservation: { total_baggages: 1.5 } }))).toThrow();
    expect(() => airlineDomain.agentDbFromPlain(tinyDb({ reservation: { cabin: "first" } }))).toThrow();
    expect(() => airlineDomain.agentDbFromPlain(tinyDb({ user: { email: 5 } }))).toThrow();
    expect(() =>
      airlineDomain.agentDbFromPlain(
        tinyDb({ user: { payment_methods: { x: { source: "cash", id: "x" } } } }),
      ),
    ).toThrow();
  });

  it("re-validation normalises tool-assigned types (an int field given 2.0 stores 2)", () => {
    const plain = tinyDb({ reservation: { nonfree_baggages: new PyFloat(2) } });
    const r = DbState.of(airlineDomain.agentDbFromPlain(plain)).get("reservations", "R1") as PyDict;
    expect(r.nonfree_baggages).toBe(2);
  });

  it("loads the shipped DB with every float field as PyFloat", () => {
    const state = DbState.of(airlineBase());
    let floats = 0;
    for (const id of state.keys("users")) {
      for (const m of Object.values(
        (state.get("users", id) as PyDict).payment_methods as Record<string, PyDict>,
      )) {
        if (m.source === "credit_card") expect(Object.hasOwn(m, "amount")).toBe(false);
        else {
          expect(m.amount).toBeInstanceOf(PyFloat);
          floats++;
        }
      }
    }
    expect(floats).toBeGreaterThan(0);
  });
});
