/**
 * tau2's `AirlineTools`: every tool, in the class's declaration order. tau2 has no `think` tool in
 * airline (it is commented out in `tools.py`), and no non-tool functions (no init actions or
 * env assertions).
 */
import { calculate, transferToHumanAgents } from "../shared-tools.ts";
import { makeToolkit, type ToolDef, type Toolkit } from "../toolkit.ts";
import { bookReservation } from "./book-reservation.ts";
import {
  getFlightStatus,
  getReservationDetails,
  getUserDetails,
  listAllAirports,
  searchDirectFlight,
  searchOnestopFlight,
} from "./read-tools.ts";
import {
  cancelReservation,
  sendCertificate,
  updateReservationBaggages,
  updateReservationFlights,
  updateReservationPassengers,
} from "./update-tools.ts";

export const AIRLINE_TOOLS: readonly ToolDef[] = [
  bookReservation,
  calculate,
  cancelReservation,
  getReservationDetails,
  getUserDetails,
  listAllAirports,
  searchDirectFlight,
  searchOnestopFlight,
  sendCertificate,
  transferToHumanAgents,
  updateReservationBaggages,
  updateReservationFlights,
  updateReservationPassengers,
  getFlightStatus,
];

export const airlineToolkit = (): Toolkit => makeToolkit("AirlineTools", [...AIRLINE_TOOLS]);
