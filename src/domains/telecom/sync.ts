/**
 * tau2's telecom `sync_tools`: copies agent-DB facts about the user's line into the user DB (line
 * active, roaming allowed, data exceeded) and runs the payment-request lifecycle.
 */
import { compareError, pyTruthy } from "../../py/builtins.ts";
import { isNum, numOf } from "../../py/number.ts";
import { constructWithSchema } from "../../py/pydantic-zod.ts";
import { isPyDict, type PyDict, type PyValue } from "../../py/value.ts";
import type { DbState } from "../db-state.ts";
import type { DerivedField } from "../domain.ts";
import { ToolError } from "../toolkit.ts";
import {
  billIndex,
  customerBillsWithStatus,
  customerIndexByPhone,
  lineIndexByPhone,
  planOf,
  rec,
} from "./records.ts";
import { paymentRequestSchema } from "./user-schema.ts";

/**
 * What `syncTelecom` derives: the user's surroundings mirror their line, a paid payment request marks
 * its bill paid, and an awaiting bill becomes a payment request. A change to a derived field is the
 * change of its source (the delta gate attributes and folds it there).
 */
export const TELECOM_DERIVED: readonly DerivedField[] = [
  {
    field: { db: "user", table: "surroundings", path: ["line_active"] },
    from: [{ db: "agent", table: "lines", path: ["status"] }],
  },
  {
    field: { db: "user", table: "surroundings", path: ["roaming_allowed"] },
    from: [{ db: "agent", table: "lines", path: ["roaming_enabled"] }],
  },
  {
    field: { db: "user", table: "surroundings", path: ["mobile_data_usage_exceeded"] },
    from: [
      { db: "agent", table: "lines", path: ["data_used_gb"] },
      { db: "agent", table: "lines", path: ["data_refueling_gb"] },
      { db: "agent", table: "lines", path: ["plan_id"] },
    ],
  },
  {
    field: { db: "agent", table: "bills", path: ["status"] },
    from: [{ db: "user", table: "surroundings", path: ["payment_request"] }],
  },
  {
    field: { db: "user", table: "surroundings", path: ["payment_request"] },
    from: [{ db: "agent", table: "bills", path: ["status"] }],
  },
];

/** `line.data_used_gb >= plan.data_limit_gb + line.data_refueling_gb` (values may be raw). */
function usageExceeded(
  used: PyValue | undefined,
  limit: PyValue | undefined,
  refuel: PyValue | undefined,
): boolean {
  if (!isNum(limit) || !isNum(refuel)) throw new ToolError("unsupported operand type(s) for +");
  if (!isNum(used)) throw compareError(">=", used, limit);
  return numOf(used) >= numOf(limit) + numOf(refuel);
}

/** Writes one surroundings flag, copying the record only when the value changes. */
function setSurrounding(user: DbState, key: string, value: boolean): void {
  if ((user.read("surroundings") as PyDict)[key] !== value) user.mutAtom("surroundings")[key] = value;
}

export function syncTelecom(agent: DbState, user: DbState): void {
  const phone = (user.read("surroundings") as PyDict).phone_number as PyValue;
  if (phone === null) return;
  const line = rec(agent, "lines", lineIndexByPhone(agent, phone));
  setSurrounding(user, "line_active", line.status === "Active");
  setSurrounding(user, "roaming_allowed", pyTruthy(line.roaming_enabled));
  const plan = planOf(agent, line.plan_id as PyValue);
  setSurrounding(
    user,
    "mobile_data_usage_exceeded",
    usageExceeded(line.data_used_gb, plan.data_limit_gb, line.data_refueling_gb),
  );

  const request = (user.read("surroundings") as PyDict).payment_request as PyValue;
  if (isPyDict(request) && pyTruthy(request.paid)) {
    agent.mutAt("bills", billIndex(agent, request.bill_id as PyValue)).status = "Paid";
    user.mutAtom("surroundings").payment_request = null;
  }
  if ((user.read("surroundings") as PyDict).payment_request === null) {
    const customer = rec(agent, "customers", customerIndexByPhone(agent, phone));
    const awaiting = customerBillsWithStatus(agent, customer, "Awaiting Payment");
    if (awaiting.length > 0) {
      const bill = rec(agent, "bills", awaiting[0] as number);
      const request = { bill_id: bill.bill_id as PyValue, amount_due: bill.total_due as PyValue };
      user.mutAtom("surroundings").payment_request = constructWithSchema(
        paymentRequestSchema,
        "PaymentRequest",
        request,
      );
    }
  }
}
