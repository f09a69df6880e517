/**
 * AirlineTools behaviour, one tool at a time, with expectations worked out by hand from the shipped
 * db.json and tau2's tools.py: success paths, every error text, int/float typing of
 * stored values, partial mutations and the refund/seat semantics.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { airlineDomain } from "../../../src/domains/airline/index.ts";
import { DbState } from "../../../src/domains/db-state.ts";
import { TAU2_QUIRKS } from "../../../src/domains/quirks.ts";
import { type CallOutcome, invoke, mutatesState } from "../../../src/domains/toolkit.ts";
import { type PyDict, PyFloat, type PyValue } from "../../../src/py/value.ts";
import { airlineBase } from "./data.ts";

const USER = "mei_hernandez_8984";
const GIFT = "gift_card_5309492"; // 98.0
const CARD = "credit_card_6082923";
const CERT = "certificate_7502997"; // 250.0
const MEI = { first_name: "Mei", last_name: "Hernandez", dob: "1981-01-11" };
const ANYA = { first_name: "Anya", last_name: "Anderson", dob: "1959-05-28" };
// HAT014 on 2024-05-20 (JFK→MIA): economy 9 seats at 143, basic_economy 3 at 57, business 9 at 441.
const HAT014 = { flight_number: "HAT014", date: "2024-05-20" };

let state: DbState;
beforeEach(() => {
  state = DbState.of(airlineBase()).fork();
});

function call(name: string, args: Record<string, PyValue>): CallOutcome {
  const tool = airlineDomain.agentTools.tools.get(name);
  if (tool === undefined) throw new Error(`no tool ${name}`);
  return invoke("AirlineTools", tool, state, args, { shared: new Map(), quirks: TAU2_QUIRKS });
}
const ok = (name: string, args: Record<string, PyValue>): PyDict => {
  const out = call(name, args);
  expect(out.error, out.content).toBe(false);
  return JSON.parse(out.content) as PyDict;
};
const errorOf = (name: string, args: Record<string, PyValue>): string => {
  const out = call(name, args);
  expect(out.error).toBe(true);
  expect(out.internal).toBeUndefined();
  return out.content;
};

const user = () => state.get("users", USER) as PyDict;
const methods = () => user().payment_methods as Record<string, PyDict>;
const reservation = (id: string) => state.get("reservations", id) as PyDict;
const seats = (flight: string, date: string) =>
  ((state.get("flights", flight) as PyDict).dates as Record<string, PyDict>)[date]?.available_seats as PyDict;

function booking(over: Record<string, PyValue> = {}): Record<string, PyValue> {
  return {
    user_id: USER,
    origin: "JFK",
    destination: "MIA",
    flight_type: "one_way",
    cabin: "economy",
    flights: [HAT014],
    passengers: [MEI],
    payment_methods: [{ payment_id: CARD, amount: 143 }],
    total_baggages: 0,
    nonfree_baggages: 0,
    insurance: "no",
    ...over,
  };
}

describe("toolkit", () => {
  it("declares tau2's 14 tools with their types and no think tool", () => {
    const kinds = Object.fromEntries([...airlineDomain.agentTools.tools].map(([n, t]) => [n, t.kind]));
    expect(kinds).toEqual({
      book_reservation: "write",
      calculate: "generic",
      cancel_reservation: "write",
      get_reservation_details: "read",
      get_user_details: "read",
      list_all_airports: "read",
      search_direct_flight: "read",
      search_onestop_flight: "read",
      send_certificate: "write",
      transfer_to_human_agents: "generic",
      update_reservation_baggages: "write",
      update_reservation_flights: "write",
      update_reservation_passengers: "write",
      get_flight_status: "read",
    });
    const replayed = [...airlineDomain.agentTools.tools.values()].filter(mutatesState).map((t) => t.name);
    expect(replayed.sort()).toEqual([
      "book_reservation",
      "cancel_reservation",
      "send_certificate",
      "update_reservation_baggages",
      "update_reservation_flights",
      "update_reservation_passengers",
    ]);
    expect(airlineDomain.supportsSolo).toBe(false);
  });

  it("reports Python's TypeError for missing or unexpected arguments before any change", () => {
    const before = state.hash();
    expect(errorOf("cancel_reservation", {})).toBe(
      "Error: AirlineTools.cancel_reservation() missing 1 required positional argument: 'reservation_id'",
    );
    expect(errorOf("send_certificate", { user_id: USER, amount: 1, extra: 2 })).toBe(
      "Error: AirlineTools.send_certificate() got an unexpected keyword argument 'extra'",
    );
    expect(state.hash()).toBe(before);
  });
});

describe("book_reservation", () => {
  it("books, takes seats, links the reservation to the user", () => {
    const r = ok(
      "book_reservation",
      booking({ passengers: [MEI, ANYA], payment_methods: [{ payment_id: CARD, amount: 286 }] }),
    );
    expect(r).toEqual({
      reservation_id: "HATHAT",
      user_id: USER,
      origin: "JFK",
      destination: "MIA",
      flight_type: "one_way",
      cabin: "economy",
      flights: [
        { flight_number: "HAT014", origin: "JFK", destination: "MIA", date: "2024-05-20", price: 143 },
      ],
      passengers: [MEI, ANYA],
      payment_history: [{ payment_id: CARD, amount: 286 }],
      created_at: "2024-05-15T15:00:00",
      total_baggages: 0,
      nonfree_baggages: 0,
      insurance: "no",
      status: null,
    });
    expect(seats("HAT014", "2024-05-20").economy).toBe(7);
    expect((user().reservations as string[]).at(-1)).toBe("HATHAT");
    expect(ok("book_reservation", booking()).reservation_id).toBe("HATHAU");
    expect(ok("book_reservation", booking()).reservation_id).toBe("HATHAV");
    expect(errorOf("book_reservation", booking())).toBe("Error: Too many reservations");
  });

  it("adds insurance (30 per passenger) and 50 per non-free bag", () => {
    expect(errorOf("book_reservation", booking({ insurance: "yes", nonfree_baggages: 2 }))).toBe(
      "Error: Payment amount does not add up, total price is 273, but paid 143",
    );
    ok(
      "book_reservation",
      booking({
        insurance: "yes",
        nonfree_baggages: 2,
        payment_methods: [{ payment_id: CARD, amount: 273 }],
      }),
    );
  });

  it("debits a gift card as a float and consumes a certificate whole", () => {
    ok(
      "book_reservation",
      booking({ cabin: "basic_economy", payment_methods: [{ payment_id: GIFT, amount: 57 }] }),
    );
    expect(methods()[GIFT]?.amount).toEqual(new PyFloat(41));
    ok("book_reservation", booking({ payment_methods: [{ payment_id: CERT, amount: 143.0 }] }));
    expect(Object.hasOwn(methods(), CERT)).toBe(false);
    expect(reservation("HATHAU").payment_history).toEqual([{ payment_id: CERT, amount: 143 }]);
  });

  it("using one certificate twice removes it, then fails with a KeyError and stores nothing", () => {
    const out = errorOf(
      "book_reservation",
      booking({
        flights: [HAT014, HAT014],
        payment_methods: [
          { payment_id: CERT, amount: 143 },
          { payment_id: CERT, amount: 143 },
        ],
      }),
    );
    expect(out).toBe(`Error: '${CERT}'`);
    expect(Object.hasOwn(methods(), CERT)).toBe(false);
    expect(state.has("reservations", "HATHAT")).toBe(false);
    expect(seats("HAT014", "2024-05-20").economy).toBe(9);
  });

  it("a flight listed twice takes its seats twice", () => {
    ok(
      "book_reservation",
      booking({ flights: [HAT014, HAT014], payment_methods: [{ payment_id: CARD, amount: 286 }] }),
    );
    expect(seats("HAT014", "2024-05-20").economy).toBe(7);
  });

  it("a float nonfree_baggages makes the total a float; the stored count is coerced to int", () => {
    expect(errorOf("book_reservation", booking({ nonfree_baggages: new PyFloat(1) }))).toBe(
      "Error: Payment amount does not add up, total price is 193.0, but paid 143",
    );
    ok(
      "book_reservation",
      booking({
        nonfree_baggages: new PyFloat(1),
        total_baggages: new PyFloat(2),
        payment_methods: [{ payment_id: CARD, amount: 193 }],
      }),
    );
    expect(reservation("HATHAT").nonfree_baggages).toBe(1);
    expect(reservation("HATHAT").total_baggages).toBe(2);
  });

  it("a numeric string nonfree_baggages passes validation and fails in the fee sum", () => {
    expect(errorOf("book_reservation", booking({ nonfree_baggages: "1" }))).toBe(
      "Error: unsupported operand type(s) for +=: 'int' and 'str'",
    );
  });

  it.each([
    [{ user_id: "nobody" }, "Error: User nobody not found"],
    [{ flights: [{ flight_number: "HAT999", date: "2024-05-20" }] }, "Error: Flight HAT999 not found"],
    [
      { flights: [{ flight_number: "HAT014", date: "2024-06-20" }] },
      "Error: Flight HAT014 not found on date 2024-06-20",
    ],
    [
      { flights: [{ flight_number: "HAT001", date: "2024-05-15" }] },
      "Error: Flight HAT001 not available on date 2024-05-15",
    ],
    [
      { cabin: "basic_economy", flights: [{ flight_number: "HAT079", date: "2024-05-20" }] },
      "Error: Not enough seats on flight HAT079",
    ],
    [
      { payment_methods: [{ payment_id: "credit_card_0", amount: 143 }] },
      "Error: Payment method credit_card_0 not found",
    ],
    [
      { payment_methods: [{ payment_id: GIFT, amount: 143 }] },
      `Error: Not enough balance in payment method ${GIFT}`,
    ],
    [
      { payment_methods: [{ payment_id: CARD, amount: 100 }] },
      "Error: Payment amount does not add up, total price is 143, but paid 100",
    ],
    [{ flights: ["HAT014"] }, "Error: 'str' object has no attribute 'flight_number'"],
    [{ flights: null }, "Error: 'NoneType' object is not iterable"],
  ])("fails without changes: %j", (over, text) => {
    const before = state.hash();
    expect(errorOf("book_reservation", booking(over as Record<string, PyValue>))).toBe(text);
    expect(state.hash()).toBe(before);
  });

  it("validates what it constructs like pydantic", () => {
    expect(
      errorOf(
        "book_reservation",
        booking({ payment_methods: [{ payment_id: CARD, amount: new PyFloat(143.5) }] }),
      ),
    ).toMatch(
      /^Error: 1 validation error for Payment\namount\n {2}Input should be a valid integer, got a number with a fractional part \[type=int_from_float, input_value=143.5, input_type=float\]/,
    );
    expect(errorOf("book_reservation", booking({ cabin: "first" }))).toMatch(
      /^Error: 1 validation error for Reservation\ncabin\n {2}Input should be 'business', 'economy' or 'basic_economy' \[type=literal_error, input_value='first', input_type=str\]/,
    );
    expect(errorOf("book_reservation", booking({ flights: [{ flight_number: "HAT014" }] }))).toMatch(
      /^Error: 1 validation error for FlightInfo\ndate\n {2}Field required \[type=missing, input_value=\{'flight_number': 'HAT014'\}, input_type=dict\]/,
    );
  });
});

describe("cancel_reservation", () => {
  it("refunds every history entry, sets the status and releases nothing", () => {
    const giftBefore = methods()[GIFT]?.amount;
    const r = ok("cancel_reservation", { reservation_id: "79G8A9" });
    expect(r.status).toBe("cancelled");
    expect(r.payment_history).toEqual([
      { payment_id: GIFT, amount: 1400 },
      { payment_id: GIFT, amount: -1400 },
    ]);
    expect(methods()[GIFT]?.amount).toEqual(giftBefore);
    expect(seats("HAT292", "2024-05-16").economy).toBe(0);
  });

  it("cancelling again refunds the refunds too", () => {
    ok("cancel_reservation", { reservation_id: "79G8A9" });
    const r = ok("cancel_reservation", { reservation_id: "79G8A9" });
    expect((r.payment_history as PyDict[]).map((p) => p.amount)).toEqual([1400, -1400, -1400, 1400]);
  });

  it("fails for an unknown reservation", () => {
    expect(errorOf("cancel_reservation", { reservation_id: "ZZZZZZ" })).toBe(
      "Error: Reservation ZZZZZZ not found",
    );
  });
});

describe("update_reservation_baggages", () => {
  // 07S7FC: business, 2 passengers, 3 bags of which 0 non-free.
  it("charges 50 per extra non-free bag and stores the counts", () => {
    const r = ok("update_reservation_baggages", {
      reservation_id: "07S7FC",
      total_baggages: 4,
      nonfree_baggages: 1,
      payment_id: CARD,
    });
    expect(r.payment_history).toEqual([
      { payment_id: CARD, amount: 4118 },
      { payment_id: CARD, amount: 50 },
    ]);
    expect([r.total_baggages, r.nonfree_baggages]).toEqual([4, 1]);
  });

  it("stores raw float arguments as floats, which changes the DB hash", () => {
    const ints = state.fork();
    ok("update_reservation_baggages", {
      reservation_id: "07S7FC",
      total_baggages: 4,
      nonfree_baggages: 2,
      payment_id: CARD,
    });
    const intHash = state.hash();
    state = ints;
    ok("update_reservation_baggages", {
      reservation_id: "07S7FC",
      total_baggages: new PyFloat(4),
      nonfree_baggages: new PyFloat(2),
      payment_id: CARD,
    });
    expect(reservation("07S7FC").nonfree_baggages).toEqual(new PyFloat(2));
    expect(reservation("07S7FC").total_baggages).toEqual(new PyFloat(4));
    // The Payment is validated, so its amount is the int 100 either way.
    expect((reservation("07S7FC").payment_history as PyDict[])[1]).toEqual({ payment_id: CARD, amount: 100 });
    expect(state.hash()).not.toBe(intHash);
  });

  it("a zero price still needs a known, non-certificate method and adds no payment", () => {
    expect(
      errorOf("update_reservation_baggages", {
        reservation_id: "07S7FC",
        total_baggages: 3,
        nonfree_baggages: 0,
        payment_id: "nope",
      }),
    ).toBe("Error: Payment method not found");
    expect(
      errorOf("update_reservation_baggages", {
        reservation_id: "07S7FC",
        total_baggages: 3,
        nonfree_baggages: 0,
        payment_id: CERT,
      }),
    ).toBe("Error: Certificate cannot be used to update reservation");
    const r = ok("update_reservation_baggages", {
      reservation_id: "07S7FC",
      total_baggages: 1,
      nonfree_baggages: 0,
      payment_id: CARD,
    });
    expect((r.payment_history as PyDict[]).length).toBe(1);
    expect(r.total_baggages).toBe(1);
  });

  it("debits a gift card, and refuses one that is short", () => {
    ok("update_reservation_baggages", {
      reservation_id: "07S7FC",
      total_baggages: 4,
      nonfree_baggages: 1,
      payment_id: GIFT,
    });
    expect(methods()[GIFT]?.amount).toEqual(new PyFloat(48));
    expect(
      errorOf("update_reservation_baggages", {
        reservation_id: "07S7FC",
        total_baggages: 5,
        nonfree_baggages: 3,
        payment_id: GIFT,
      }),
    ).toBe("Error: Gift card balance is not enough");
  });

  it("a non-integral price fails after the gift card was debited (no rollback)", () => {
    const out = errorOf("update_reservation_baggages", {
      reservation_id: "07S7FC",
      total_baggages: 5,
      nonfree_baggages: new PyFloat(1.01),
      payment_id: GIFT,
    });
    expect(out).toMatch(/^Error: 1 validation error for Payment\namount\n/);
    const gift = methods()[GIFT] as PyDict;
    expect((gift.amount as PyFloat).v).toBeCloseTo(47.5, 10);
    expect(reservation("07S7FC").nonfree_baggages).toBe(0);
  });

  it("raises Python's TypeError for a string non-free count", () => {
    expect(
      errorOf("update_reservation_baggages", {
        reservation_id: "07S7FC",
        total_baggages: 5,
        nonfree_baggages: "1",
        payment_id: CARD,
      }),
    ).toBe("Error: unsupported operand type(s) for -: 'str' and 'int'");
  });

  it("stores a string total unvalidated", () => {
    ok("update_reservation_baggages", {
      reservation_id: "07S7FC",
      total_baggages: "5",
      nonfree_baggages: 0,
      payment_id: CARD,
    });
    expect(reservation("07S7FC").total_baggages).toBe("5");
  });

  it("fails for an unknown reservation", () => {
    expect(
      errorOf("update_reservation_baggages", {
        reservation_id: "nope",
        total_baggages: 1,
        nonfree_baggages: 0,
        payment_id: CARD,
      }),
    ).toBe("Error: Reservation nope not found");
  });
});

describe("update_reservation_flights", () => {
  // 79G8A9: economy, 2 passengers, HAT292/HAT088 on 05-16 (197, 153), HAT169/HAT126 on 05-17 (168, 152).
  const KEEP = [
    { flight_number: "HAT292", date: "2024-05-16" },
    { flight_number: "HAT088", date: "2024-05-16" },
    { flight_number: "HAT169", date: "2024-05-17" },
    { flight_number: "HAT126", date: "2024-05-17" },
  ];

  it("keeps unchanged segments at their old price and charges the difference", () => {
    const swapped = [...KEEP.slice(0, 3), { flight_number: "HAT209", date: "2024-05-17" }]; // economy 179
    const r = ok("update_reservation_flights", {
      reservation_id: "79G8A9",
      cabin: "economy",
      flights: swapped,
      payment_id: GIFT,
    });
    expect((r.flights as PyDict[]).map((f) => [f.flight_number, f.price])).toEqual([
      ["HAT292", 197],
      ["HAT088", 153],
      ["HAT169", 168],
      ["HAT209", 179],
    ]);
    expect((r.flights as PyDict[])[3]).toEqual({
      flight_number: "HAT209",
      origin: "JFK",
      destination: "MIA",
      date: "2024-05-17",
      price: 179,
    });
    expect((r.payment_history as PyDict[]).at(-1)).toEqual({ payment_id: GIFT, amount: 54 });
    expect(methods()[GIFT]?.amount).toEqual(new PyFloat(44));
    expect(seats("HAT209", "2024-05-17").economy).toBe(17); // seats are never updated here
  });

  it("the same flights in the same cabin cost nothing", () => {
    const r = ok("update_reservation_flights", {
      reservation_id: "79G8A9",
      cabin: "economy",
      flights: KEEP,
      payment_id: CARD,
    });
    expect((r.payment_history as PyDict[]).length).toBe(1);
  });

  it.each([
    [{ cabin: "business", flights: KEEP }, "Error: Not enough seats on flight HAT088"],
    [{ cabin: "first", flights: KEEP }, "Error: 'first'"],
    [
      { flights: [{ flight_number: "HAT001", date: "2024-05-15" }] },
      "Error: Flight HAT001 not available on date 2024-05-15",
    ],
    [
      { flights: [{ flight_number: "HAT001", date: "2025-05-15" }] },
      "Error: Flight HAT001 not found on date 2025-05-15",
    ],
    [{ flights: [{ flight_number: "HAT999", date: "2024-05-15" }] }, "Error: Flight HAT999 not found"],
    [{ payment_id: CERT }, "Error: Certificate cannot be used to update reservation"],
    [{ reservation_id: "nope" }, "Error: Reservation nope not found"],
  ])("fails without changes: %j", (over, text) => {
    const before = state.hash();
    const args = {
      reservation_id: "79G8A9",
      cabin: "economy",
      flights: KEEP,
      payment_id: CARD,
      ...over,
    } as Record<string, PyValue>;
    expect(errorOf("update_reservation_flights", args)).toBe(text);
    expect(state.hash()).toBe(before);
  });

  it("with no flights stores any cabin value unvalidated and refunds the old fare", () => {
    const r = ok("update_reservation_flights", {
      reservation_id: "79G8A9",
      cabin: "first",
      flights: [],
      payment_id: CARD,
    });
    expect(r.cabin).toBe("first");
    expect(r.flights).toEqual([]);
    expect((r.payment_history as PyDict[]).at(-1)).toEqual({ payment_id: CARD, amount: -1340 });
  });
});

describe("update_reservation_passengers", () => {
  it("replaces the passengers, dropping unknown keys", () => {
    const r = ok("update_reservation_passengers", {
      reservation_id: "79G8A9",
      passengers: [ANYA, { ...MEI, first_name: "May", extra: 1 }],
    });
    expect(r.passengers).toEqual([ANYA, { ...MEI, first_name: "May" }]);
  });

  it("requires the same number of passengers", () => {
    expect(errorOf("update_reservation_passengers", { reservation_id: "79G8A9", passengers: [ANYA] })).toBe(
      "Error: Number of passengers does not match",
    );
    expect(errorOf("update_reservation_passengers", { reservation_id: "nope", passengers: [ANYA] })).toBe(
      "Error: Reservation nope not found",
    );
  });

  it("stores non-dict passengers as given (tau2 does not validate them)", () => {
    ok("update_reservation_passengers", { reservation_id: "79G8A9", passengers: ["a", "b"] });
    expect(reservation("79G8A9").passengers).toEqual(["a", "b"]);
  });
});

describe("send_certificate", () => {
  it("adds a float certificate and echoes the raw amount", () => {
    const out = call("send_certificate", { user_id: USER, amount: 100 });
    expect(out.content).toBe(`Certificate certificate_3221322 added to user ${USER} with amount 100.`);
    expect(methods().certificate_3221322).toEqual({
      source: "certificate",
      id: "certificate_3221322",
      amount: new PyFloat(100),
    });
    expect(call("send_certificate", { user_id: USER, amount: new PyFloat(150) }).content).toBe(
      `Certificate certificate_3221323 added to user ${USER} with amount 150.0.`,
    );
    expect(call("send_certificate", { user_id: USER, amount: "50" }).content).toBe(
      `Certificate certificate_3221324 added to user ${USER} with amount 50.`,
    );
    expect(methods().certificate_3221324?.amount).toEqual(new PyFloat(50));
    expect(errorOf("send_certificate", { user_id: USER, amount: 1 })).toBe("Error: Too many certificates");
  });

  it("fails for an unknown user or an amount that is not a number", () => {
    expect(errorOf("send_certificate", { user_id: "nobody", amount: 1 })).toBe(
      "Error: User nobody not found",
    );
    expect(errorOf("send_certificate", { user_id: USER, amount: "abc" })).toMatch(
      /^Error: 1 validation error for Certificate\namount\n {2}Input should be a valid number, unable to parse string as a number/,
    );
  });
});

describe("read tools", () => {
  it("get_user_details / get_reservation_details dump the records in field order", () => {
    const text = call("get_user_details", { user_id: USER }).content;
    expect(
      text.startsWith(
        `{"user_id": "${USER}", "name": {"first_name": "Mei", "last_name": "Hernandez"}, "address": {`,
      ),
    ).toBe(true);
    expect(text).toContain(`"${GIFT}": {"source": "gift_card", "id": "${GIFT}", "amount": 98.0}`);
    expect(call("get_reservation_details", { reservation_id: "1AKIA8" }).content).toContain(
      '"total_baggages": 1, "nonfree_baggages": 0, "insurance": "no", "status": null}',
    );
    expect(errorOf("get_user_details", { user_id: "x" })).toBe("Error: User x not found");
    expect(errorOf("get_user_details", { user_id: ["a"] })).toBe("Error: unhashable type: 'list'");
    expect(errorOf("get_reservation_details", { reservation_id: "x" })).toBe(
      "Error: Reservation x not found",
    );
  });

  it("get_flight_status returns the bare status", () => {
    expect(call("get_flight_status", { flight_number: "HAT001", date: "2024-05-15" }).content).toBe("landed");
    expect(call("get_flight_status", { flight_number: "HAT001", date: "2024-05-14" }).content).toBe(
      "cancelled",
    );
    expect(errorOf("get_flight_status", { flight_number: "HATX", date: "2024-05-16" })).toBe(
      "Error: Flight HATX not found",
    );
  });

  it("list_all_airports lists 20 airports", () => {
    const list = JSON.parse(call("list_all_airports", {}).content) as PyDict[];
    expect(list.length).toBe(20);
    expect(list[0]).toEqual({ iata: "SFO", city: "San Francisco" });
    expect(list[19]).toEqual({ iata: "LGA", city: "LaGuardia" });
  });

  it("search_direct_flight returns available flights as DirectFlight with date null", () => {
    const found = JSON.parse(
      call("search_direct_flight", { origin: "JFK", destination: "MIA", date: "2024-05-20" }).content,
    ) as PyDict[];
    expect(found.map((f) => f.flight_number)).toEqual(["HAT014", "HAT060", "HAT126", "HAT209"]);
    expect(Object.keys(found[0] as PyDict)).toEqual([
      "flight_number",
      "origin",
      "destination",
      "status",
      "scheduled_departure_time_est",
      "scheduled_arrival_time_est",
      "date",
      "available_seats",
      "prices",
    ]);
    expect(found[0]?.date).toBeNull();
    expect(
      call("search_direct_flight", { origin: "JFK", destination: "MIA", date: "2024-07-20" }).content,
    ).toBe("[]");
  });

  it("search_onestop_flight pairs legs, moving the date after an overnight first leg", () => {
    const pairs = JSON.parse(
      call("search_onestop_flight", { origin: "JFK", destination: "DEN", date: "2024-05-20" }).content,
    ) as [PyDict, PyDict][];
    expect(pairs.length).toBeGreaterThan(0);
    for (const [a, b] of pairs) {
      expect(a.destination).toBe(b.origin);
      expect(a.date).toBe("2024-05-20");
      const overnight = (a.scheduled_arrival_time_est as string).includes("+1");
      expect(b.date).toBe(overnight ? "2024-05-21" : "2024-05-20");
      if (!overnight)
        expect((b.scheduled_departure_time_est as string) >= (a.scheduled_arrival_time_est as string)).toBe(
          true,
        );
    }
    // HAT261 JFK→ORD arrives 01:30:00+1, so its ORD→DEN connections leave on 2024-05-21.
    expect(pairs.some(([a, b]) => a.flight_number === "HAT261" && b.date === "2024-05-21")).toBe(true);
  });

  it("read tools never change the DB", () => {
    const before = state.hash();
    call("search_onestop_flight", { origin: "JFK", destination: "SEA", date: "2024-05-20" });
    call("get_user_details", { user_id: USER });
    expect(state.hash()).toBe(before);
  });
});
