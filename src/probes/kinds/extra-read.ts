/**
 * `extra-read`: gold plus one harmless read of the task's own user (or a catalogue read when the
 * task names no user). Reads change nothing, so both graders must still pass it.
 */
import { DOMAIN_FACTS, type ProbeRead } from "../../formats/domain-facts.ts";
import type { PyDict, PyValue } from "../../py/value.ts";
import { goldTrajectory } from "../gold.ts";
import type { Injection, ProbeBuilder } from "../kind.ts";
import { type TaskFootprint, taskFootprint, textField } from "../untouched.ts";

interface Read {
  readonly tool: string;
  readonly arguments: PyDict;
}

function readFor(read: ProbeRead, footprint: TaskFootprint): Read {
  switch (read.of) {
    case "mentioned key": {
      const id = footprint.initial
        .keys(read.table)
        .find((k) => k.length >= read.minIdLength && footprint.mentions(k));
      return id === undefined
        ? { tool: read.otherwise, arguments: {} }
        : { tool: read.tool, arguments: { [read.argument]: id } };
    }
    case "mentioned record": {
      const records = footprint.initial.items(read.table);
      const named =
        read.mentionedBy.reduce<PyValue | undefined>(
          (found, field) => found ?? records.find((r) => footprint.mentions(textField(r, field))),
          undefined,
        ) ?? records[0];
      return { tool: read.tool, arguments: { [read.argument]: textField(named, read.argument) } };
    }
    case "nothing":
      return { tool: read.tool, arguments: {} };
  }
}

export const extraReadProbe: ProbeBuilder = ({ ctx, domain }, task) => {
  const read = readFor(DOMAIN_FACTS[domain].probeRead, taskFootprint(ctx, task));
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
