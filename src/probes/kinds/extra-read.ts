/**
 * `extra-read`: gold plus one harmless read of the task's own user (or a catalogue read when the
 * task names no user). Reads change nothing, so both graders must still pass it.
 */
import type { DomainName } from "../../domains/domain.ts";
import type { PyDict } from "../../py/value.ts";
import { goldTrajectory } from "../gold.ts";
import type { Injection, ProbeBuilder } from "../kind.ts";
import { type TaskFootprint, taskFootprint, textField } from "../untouched.ts";

interface Read {
  readonly tool: string;
  readonly arguments: PyDict;
}

function firstNamedKey(footprint: TaskFootprint, field: string): string | undefined {
  return footprint.initial.keys(field).find((k) => footprint.mentions(k));
}

function readFor(domain: DomainName, footprint: TaskFootprint): Read {
  switch (domain) {
    case "airline": {
      const user = firstNamedKey(footprint, "users");
      return user === undefined
        ? { tool: "list_all_airports", arguments: {} }
        : { tool: "get_user_details", arguments: { user_id: user } };
    }
    case "retail": {
      const user = firstNamedKey(footprint, "users");
      return user === undefined
        ? { tool: "list_all_product_types", arguments: {} }
        : { tool: "get_user_details", arguments: { user_id: user } };
    }
    case "telecom": {
      // Customers are a list: prefer the one the task names (by id or phone), else the first.
      const customers = footprint.initial.items("customers");
      const named =
        customers.find((c) => footprint.mentions(textField(c, "customer_id"))) ??
        customers.find((c) => footprint.mentions(textField(c, "phone_number"))) ??
        customers[0];
      return { tool: "get_customer_by_id", arguments: { customer_id: textField(named, "customer_id") } };
    }
    case "mock":
      return { tool: "get_users", arguments: {} };
    case "banking_knowledge": {
      // Ids as short as "123" occur inside other numbers of a task's text: only longer ones name a user.
      const user = footprint.initial.keys("users").find((k) => k.length >= 6 && footprint.mentions(k));
      return user === undefined
        ? { tool: "get_current_time", arguments: {} }
        : { tool: "get_user_information_by_id", arguments: { user_id: user } };
    }
  }
}

export const extraReadProbe: ProbeBuilder = ({ ctx, domain }, task) => {
  const read = readFor(domain, taskFootprint(ctx, task));
  const injected: Injection = {
    ...read,
    record: null,
    record_path: null,
    policy: null,
    requirement: null,
  };
  const step = {
    action: { name: read.tool, arguments: read.arguments, requestor: "assistant" as const },
    confirm: false,
  };
  return {
    messages: goldTrajectory(ctx, task, [step]),
    note: { kind: "extra-read", injected },
  };
};
