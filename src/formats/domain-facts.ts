/**
 * What the tool knows about each tau2 domain besides its code (`src/domains/<name>/`), as plain data in
 * one record: every member is required, so a name added to `DOMAIN_NAMES` does not compile until each
 * fact is given.
 */
import type { DomainName } from "./domains.ts";

/** The harmless read the `extra-read` probe adds to gold: of the task's own user where it names one. */
export type ProbeRead =
  /**
   * `tool` with `argument` set to the first key of the `table` dict the task mentions (keys shorter than
   * `minIdLength` occur inside other numbers of a task's text), else `otherwise` with no arguments.
   */
  | {
      readonly of: "mentioned key";
      readonly table: string;
      readonly tool: string;
      readonly argument: string;
      readonly minIdLength: number;
      readonly otherwise: string;
    }
  /**
   * `tool` with `argument` set to that field of the first record of the `table` list whose field in
   * `mentionedBy` the task mentions (the fields tried in order), else of the list's first record.
   */
  | {
      readonly of: "mentioned record";
      readonly table: string;
      readonly tool: string;
      readonly argument: string;
      readonly mentionedBy: readonly string[];
    }
  /** `tool` with no arguments. */
  | { readonly of: "nothing"; readonly tool: string };

export interface DomainFacts {
  /** Tool names that occur in this domain only (enough to tell the corpus domains apart). */
  readonly identifyingTools: readonly string[];
  /**
   * The folder of `domains/<name>/` holding the head task set (`task_*.json`) when tau2 loads it from
   * a folder rather than the flat `tasks.json`; null: `tasks.json`.
   */
  readonly headTaskFolder: string | null;
  /**
   * The agent DB file kept across processes as its validated value (`load-data.ts`); null: each process
   * validates it. Measured cold on 2 cores, airline's and retail's took 345–465 ms to parse and validate
   * and 130–200 ms from the cache, most of it airline's 6.8 MB db.json; a v8 deserialize was ~100 ms
   * slower than JSON.parse here. Telecom's and mock's DBs load in under 25 ms; banking's records keep
   * their document key order beside the value, which the entry would drop.
   */
  readonly cachedAgentDbFile: string | null;
  /** The writes the policy wants an explicit "yes" for first, or every write. */
  readonly writesNeedingConfirmation: readonly string[] | "every write";
  /** The writes the policy allows once per order, each with the sentence that asks for a reminder first. */
  readonly onceOnlyWrites: Readonly<Record<string, string>>;
  readonly probeRead: ProbeRead;
}

export const DOMAIN_FACTS: Readonly<Record<DomainName, DomainFacts>> = {
  airline: {
    identifyingTools: [
      "get_reservation_details",
      "book_reservation",
      "search_direct_flight",
      "update_reservation_flights",
    ],
    headTaskFolder: null,
    cachedAgentDbFile: "db.json",
    // "Before taking any actions that update the booking database (booking, modifying flights, editing
    // baggage, changing cabin class, or updating passenger information), you must list the action details
    // and obtain explicit user confirmation (yes) to proceed." (cancellation is not in the list)
    writesNeedingConfirmation: [
      "book_reservation",
      "update_reservation_flights",
      "update_reservation_baggages",
      "update_reservation_passengers",
    ],
    onceOnlyWrites: {},
    probeRead: {
      of: "mentioned key",
      table: "users",
      tool: "get_user_details",
      argument: "user_id",
      minIdLength: 0,
      otherwise: "list_all_airports",
    },
  },
  retail: {
    identifyingTools: [
      "get_order_details",
      "find_user_id_by_email",
      "exchange_delivered_order_items",
      "get_product_details",
    ],
    headTaskFolder: null,
    cachedAgentDbFile: "db.json",
    // "Before taking any action that updates the database (cancel, modify, return, exchange), you must
    // list the action details and obtain explicit user confirmation (yes) to proceed."
    writesNeedingConfirmation: "every write",
    // "Modify items" and "Exchange delivered order".
    onceOnlyWrites: {
      modify_pending_order_items:
        "In particular, remember to remind the customer to confirm they have provided all the items they want to modify.",
      exchange_delivered_order_items:
        "In particular, remember to remind the customer to confirm they have provided all items to be exchanged.",
    },
    probeRead: {
      of: "mentioned key",
      table: "users",
      tool: "get_user_details",
      argument: "user_id",
      minIdLength: 0,
      otherwise: "list_all_product_types",
    },
  },
  telecom: {
    identifyingTools: ["get_customer_by_phone", "get_details_by_id", "toggle_airplane_mode", "refuel_data"],
    headTaskFolder: null,
    cachedAgentDbFile: null,
    // No general rule; only data refueling lists "Confirm the price".
    writesNeedingConfirmation: ["refuel_data"],
    onceOnlyWrites: {},
    probeRead: {
      of: "mentioned record",
      table: "customers",
      tool: "get_customer_by_id",
      argument: "customer_id",
      mentionedBy: ["customer_id", "phone_number"],
    },
  },
  mock: {
    identifyingTools: ["create_task", "update_task_status"],
    headTaskFolder: null,
    cachedAgentDbFile: null,
    writesNeedingConfirmation: "every write",
    onceOnlyWrites: {},
    probeRead: { of: "nothing", tool: "get_users" },
  },
  banking_knowledge: {
    identifyingTools: ["KB_search"],
    // Banking ships both; they differ in four tasks.
    headTaskFolder: "tasks",
    cachedAgentDbFile: null,
    writesNeedingConfirmation: "every write",
    onceOnlyWrites: {},
    probeRead: {
      of: "mentioned key",
      table: "users",
      tool: "get_user_information_by_id",
      argument: "user_id",
      // Ids as short as "123" occur inside other numbers of a task's text.
      minIdLength: 6,
      otherwise: "get_current_time",
    },
  },
};
