/** The airline READ tools: lookups and flight searches (never replayed: they change no state). */
import { pyKeyIn, pyReprString } from "../../py/builtins.ts";
import { deepClone, type PyDict, type PyValue, pyEquals } from "../../py/value.ts";
import type { DbState } from "../db-state.ts";
import { type Model, model, type ToolDef, ToolError } from "../toolkit.ts";
import { type FlightRec, getFlightInstance, getReservation, getUser } from "./records.ts";

export const getUserDetails: ToolDef = {
  name: "get_user_details",
  kind: "read",
  params: [{ name: "user_id" }],
  run: (db, args) => model(getUser(db, args.user_id as PyValue).user),
};

export const getReservationDetails: ToolDef = {
  name: "get_reservation_details",
  kind: "read",
  params: [{ name: "reservation_id" }],
  run: (db, args) => model(getReservation(db, args.reservation_id as PyValue).reservation),
};

export const getFlightStatus: ToolDef = {
  name: "get_flight_status",
  kind: "read",
  params: [{ name: "flight_number" }, { name: "date" }],
  run: (db, args) => getFlightInstance(db, args.flight_number as PyValue, args.date as PyValue).status,
};

const AIRPORTS: readonly [string, string][] = [
  ["SFO", "San Francisco"],
  ["JFK", "New York"],
  ["LAX", "Los Angeles"],
  ["ORD", "Chicago"],
  ["DFW", "Dallas"],
  ["DEN", "Denver"],
  ["SEA", "Seattle"],
  ["ATL", "Atlanta"],
  ["MIA", "Miami"],
  ["BOS", "Boston"],
  ["PHX", "Phoenix"],
  ["IAH", "Houston"],
  ["LAS", "Las Vegas"],
  ["MCO", "Orlando"],
  ["EWR", "Newark"],
  ["CLT", "Charlotte"],
  ["MSP", "Minneapolis"],
  ["DTW", "Detroit"],
  ["PHL", "Philadelphia"],
  ["LGA", "LaGuardia"],
];

export const listAllAirports: ToolDef = {
  name: "list_all_airports",
  kind: "read",
  params: [],
  run: () => AIRPORTS.map(([iata, city]) => model({ iata, city })),
};

interface SearchQuery {
  date: PyValue;
  /** null matches any airport (tau2's optional filters; an agent passing null gets the wildcard too). */
  origin: PyValue;
  destination: PyValue;
  leaveAfter?: string;
}

/** tau2's `_search_direct_flight`: DirectFlight dicts (field order of the model), `date` null. */
function searchDirect(db: DbState, q: SearchQuery): PyDict[] {
  const out: PyDict[] = [];
  for (const key of db.keys("flights")) {
    const f = db.get("flights", key) as FlightRec;
    // Same short-circuit order as tau2, so an unhashable date only raises once a route matches.
    const match =
      (q.origin === null || pyEquals(f.origin, q.origin)) &&
      (q.destination === null || pyEquals(f.destination, q.destination)) &&
      pyKeyIn(q.date, (k) => Object.hasOwn(f.dates, k)) &&
      f.dates[q.date]?.status === "available" &&
      (q.leaveAfter === undefined || f.scheduled_departure_time_est >= q.leaveAfter);
    if (!match) continue;
    const entry = f.dates[q.date as string] as PyDict;
    out.push({
      flight_number: f.flight_number,
      origin: f.origin,
      destination: f.destination,
      status: "available",
      scheduled_departure_time_est: f.scheduled_departure_time_est,
      scheduled_arrival_time_est: f.scheduled_arrival_time_est,
      date: null,
      available_seats: deepClone(entry.available_seats as PyValue),
      prices: deepClone(entry.prices as PyValue),
    });
  }
  return out;
}

export const searchDirectFlight: ToolDef = {
  name: "search_direct_flight",
  kind: "read",
  params: [{ name: "origin" }, { name: "destination" }, { name: "date" }],
  run: (db, args) =>
    searchDirect(db, {
      date: args.date as PyValue,
      origin: args.origin as PyValue,
      destination: args.destination as PyValue,
    }).map(model),
};

/** Python `int(s)` for a decimal string. */
function pyInt(s: string): number {
  if (!/^\s*[+-]?\d+\s*$/.test(s))
    throw new ToolError(`invalid literal for int() with base 10: ${pyReprString(s)}`);
  return Number.parseInt(s, 10);
}

export const searchOnestopFlight: ToolDef = {
  name: "search_onestop_flight",
  kind: "read",
  params: [{ name: "origin" }, { name: "destination" }, { name: "date" }],
  run(db, args) {
    const date = args.date as PyValue;
    const pairs: Model[][] = [];
    for (const first of searchDirect(db, { date, origin: args.origin as PyValue, destination: null })) {
      first.date = date;
      const arrival = first.scheduled_arrival_time_est as string;
      // An overnight first leg moves the second leg's date to `2024-05-<day+1>`, unpadded (tau2 behaviour).
      const date2 = arrival.includes("+1") ? `2024-05-${pyInt((date as string).slice(-2)) + 1}` : date;
      const seconds = searchDirect(db, {
        date: date2,
        origin: first.destination as string,
        destination: args.destination as PyValue,
        leaveAfter: arrival,
      });
      for (const second of seconds) {
        second.date = date2;
        pairs.push([model(first), model(second)]);
      }
    }
    return pairs;
  },
};
