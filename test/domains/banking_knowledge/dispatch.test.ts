/**
 * The discoverable-tool dispatchers beyond tau2's own tests: exact texts and Python error paths
 * (hand-derived from tools.py and CPython), the logging rule and its allow-list, per-simulation
 * sessions across forks, and direct calls of discoverable tools by name (live and in replay).
 */
import { describe, expect, it } from "vitest";
import { bankingDomain } from "../../../src/domains/banking_knowledge/index.ts";
import { BankingSession } from "../../../src/domains/banking_knowledge/session.ts";
import { FIXED_QUIRKS, TAU2_QUIRKS } from "../../../src/domains/quirks.ts";
import type { Message } from "../../../src/formats/model.ts";
import { replayMessages } from "../../../src/replay/replay.ts";
import { baseKnowledgeBase } from "./fixtures.ts";
import { call, createEnvironment, jsonArgs, record, tableSize } from "./helpers.ts";

const env = (session = new BankingSession()) => createEnvironment(baseKnowledgeBase(), session);
const UPDATE = "update_transaction_rewards_3847";
const READ_TOOL = "get_all_user_accounts_by_user_id_3847";
const unlock = (e: ReturnType<typeof env>, name: string) =>
  call(e, "unlock_discoverable_agent_tool", { agent_tool_name: name });
const callAgent = (e: ReturnType<typeof env>, name: string, args: string) =>
  call(e, "call_discoverable_agent_tool", { agent_tool_name: name, arguments: args });

describe("unlock_discoverable_agent_tool", () => {
  it("answers with the tool's description and parameters parsed from its docstring", () => {
    const out = unlock(env(), UPDATE);
    expect(out).toEqual({
      error: false,
      value: expect.any(String),
      content:
        "Tool unlocked: update_transaction_rewards_3847\n" +
        "Description: Update the rewards_earned field on a credit card transaction.\n\n" +
        "Tool: update_transaction_rewards_3847\n" +
        "Description: Update the rewards_earned field on a credit card transaction.\n" +
        "Parameters:\n" +
        "  - transaction_id: string (required) - The unique identifier for the transaction to update\n" +
        "  - new_rewards_earned: string (required) - The corrected rewards value (e.g., '6300 points')\n\n" +
        "You can now use this tool by calling `call_discoverable_agent_tool` with " +
        "agent_tool_name='update_transaction_rewards_3847' and the required arguments.",
    });
  });

  it("lists a parameterless tool as such", () => {
    const out = unlock(env(), "initial_transfer_to_human_agent_0218");
    expect(out.content).toContain("Parameters:\n  (no parameters)\n\n");
  });

  it("refuses names that are not agent discoverable tools, regular tools and user tools included", () => {
    for (const name of ["nonexistent_tool_9999", "log_verification", "submit_cash_back_dispute_0589"]) {
      expect(unlock(env(), name).content).toBe(
        `Error: Unknown agent tool '${name}'. This tool is not available.`,
      );
    }
    // A non-string name is str()-ed; an unhashable one fails the dict lookup with a TypeError.
    expect(call(env(), "unlock_discoverable_agent_tool", { agent_tool_name: 5 }).content).toBe(
      "Error: Unknown agent tool '5'. This tool is not available.",
    );
    expect(call(env(), "unlock_discoverable_agent_tool", { agent_tool_name: ["x"] })).toMatchObject({
      error: true,
      content: "Error: unhashable type: 'list'",
    });
  });
});

describe("call_discoverable_agent_tool", () => {
  const unlocked = () => {
    const e = env();
    unlock(e, UPDATE);
    return e;
  };

  it("logs a mutating tool once per name, even when the tool answers with an error", () => {
    const e = unlocked();
    const out = callAgent(e, UPDATE, jsonArgs({ transaction_id: "nope", new_rewards_earned: "1 points" }));
    expect(out).toMatchObject({ error: false, content: "Error: Transaction 'nope' not found." });
    expect(record(e, "agent_discoverable_tools", "17b1b611a1447cfb")).toEqual({
      tool_name: UPDATE,
      status: "CALLED",
    });
    callAgent(e, UPDATE, jsonArgs({ transaction_id: "txn_001", new_rewards_earned: "1 points" }));
    expect(tableSize(e, "agent_discoverable_tools")).toBe(1);
  });

  it("logs a read tool only when the task's gold calls it (the read-log allow-list)", () => {
    const plain = env();
    unlock(plain, READ_TOOL);
    expect(callAgent(plain, READ_TOOL, jsonArgs({ user_id: "user_001" })).content).toContain("chk_001");
    expect(tableSize(plain, "agent_discoverable_tools")).toBe(0);
    const listed = env(new BankingSession(new Set([READ_TOOL])));
    unlock(listed, READ_TOOL);
    callAgent(listed, READ_TOOL, jsonArgs({ user_id: "user_001" }));
    expect(record(listed, "agent_discoverable_tools", "70b98bfc273f9524")).toEqual({
      tool_name: READ_TOOL,
      status: "CALLED",
    });
  });

  it("answers binding TypeErrors with `Invalid arguments` and logs nothing", () => {
    const e = unlocked();
    const q = "KnowledgeTools.update_transaction_rewards_3847()";
    const cases: [string, string][] = [
      [
        '{"transaction_id": "txn_001", "new_rewards_earned": "1", "bogus": 1}',
        `${q} got an unexpected keyword argument 'bogus'`,
      ],
      ['{"transaction_id": "txn_001"}', `${q} missing 1 required positional argument: 'new_rewards_earned'`],
      ['{"self": 1, "bogus": 2}', `${q} got multiple values for argument 'self'`],
      ["[]", `${q} argument after ** must be a mapping, not list`],
    ];
    for (const [args, message] of cases) {
      expect(callAgent(e, UPDATE, args)).toMatchObject({
        error: false,
        content: `Error: Invalid arguments: ${message}`,
      });
    }
    expect(tableSize(e, "agent_discoverable_tools")).toBe(0);
  });

  it("returns JSON decode errors with Python's text, but raises for a non-string `arguments`", () => {
    const e = unlocked();
    expect(callAgent(e, UPDATE, "{").content).toBe(
      "Error: Invalid JSON in arguments: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)",
    );
    expect(call(e, "call_discoverable_agent_tool", { agent_tool_name: UPDATE, arguments: {} })).toMatchObject(
      {
        error: true,
        content: "Error: the JSON object must be str, bytes or bytearray, not dict",
      },
    );
  });

  it("checks existence before the unlock", () => {
    expect(callAgent(env(), "fake_tool_1234", "{}").content).toBe(
      "Error: Unknown agent tool 'fake_tool_1234'. This tool is not available.",
    );
    expect(callAgent(env(), UPDATE, "{}").content).toBe(
      "Error: Tool 'update_transaction_rewards_3847' has not been unlocked. " +
        "You must first use `unlock_discoverable_agent_tool` to unlock this tool before calling it.",
    );
  });
});

describe("give_discoverable_user_tool", () => {
  const give = (args?: unknown, name: unknown = "submit_cash_back_dispute_0589") =>
    call(env(), "give_discoverable_user_tool", {
      discoverable_tool_name: name as string,
      ...(args === undefined ? {} : { arguments: args as string }),
    });
  const tail =
    "\n\nThe user can now execute this action by calling `call_discoverable_user_tool` " +
    "with discoverable_tool_name='submit_cash_back_dispute_0589' and the same arguments.";
  const head =
    "Tool given to user: submit_cash_back_dispute_0589\n" +
    "Description: Submit a cash back dispute for a specific transaction.\nArguments: ";

  it("records the gift and echoes the arguments as json.dumps(indent=2)", () => {
    const e = env();
    const out = call(e, "give_discoverable_user_tool", {
      discoverable_tool_name: "submit_cash_back_dispute_0589",
    });
    expect(out.content).toBe(`${head}(no arguments)${tail}`);
    expect(record(e, "user_discoverable_tools", "0fb58bf3b3e90841")).toEqual({
      tool_name: "submit_cash_back_dispute_0589",
      status: "GIVEN",
    });
    expect(give('{"user_id": "u\\u00e9", "transaction_id": 7}').content).toBe(
      `${head}{\n  "user_id": "u\\u00e9",\n  "transaction_id": 7\n}${tail}`,
    );
    // Any iterable passes the parameter check: a list of parameter names is echoed as a list.
    expect(give('["user_id", "self"]').content).toBe(`${head}[\n  "user_id",\n  "self"\n]${tail}`);
    expect(give("[]").content).toBe(`${head}(no arguments)${tail}`);
  });

  it("reproduces Python's failures of hasattr, iteration and hashing", () => {
    expect(give(undefined, 5)).toMatchObject({
      error: true,
      content: "Error: attribute name must be string, not 'int'",
    });
    expect(give(undefined, "query_database").content).toBe(
      "Error: Unknown discoverable tool 'query_database'.",
    );
    expect(give(undefined, UPDATE).content).toBe(`Error: Unknown discoverable tool '${UPDATE}'.`);
    expect(give("[1.5]").content).toBe("Error: Unexpected parameter: 1.5");
    expect(give('"user_id"').content).toBe("Error: Unexpected parameter: u");
    expect(give("5")).toMatchObject({ error: true, content: "Error: 'int' object is not iterable" });
    expect(give("[[1]]")).toMatchObject({ error: true, content: "Error: unhashable type: 'list'" });
    expect(give("{")).toMatchObject({
      error: false,
      content:
        "Error: Invalid JSON in arguments: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)",
    });
  });
});

describe("list_discoverable_agent_tools", () => {
  it("never says 'none yet': tau2 looks for 'No results found', the query says 'No records found'", () => {
    expect(call(env(), "list_discoverable_agent_tools", {}).content).toBe(
      "Your called agent tools:\nNo records found in 'agent_discoverable_tools'.",
    );
  });
});

describe("per-simulation session", () => {
  it("copies the unlocks into each fork and keeps forks apart", () => {
    const setup = env();
    unlock(setup, UPDATE);
    const a = setup.fork();
    const b = setup.fork();
    unlock(a, READ_TOOL);
    expect(callAgent(b, READ_TOOL, jsonArgs({ user_id: "user_001" })).content).toContain(
      "has not been unlocked",
    );
    expect(
      callAgent(b, UPDATE, jsonArgs({ transaction_id: "txn_001", new_rewards_earned: "9 points" })).content,
    ).toContain("Transaction rewards updated successfully.");
    expect(callAgent(a, READ_TOOL, jsonArgs({ user_id: "user_001" })).content).toContain("chk_001");
  });

  it("starts every task setup from the domain's session with that task's allow-list", () => {
    const session = bankingDomain.newSession?.([
      {
        action_id: "0",
        requestor: "assistant",
        name: "call_discoverable_agent_tool",
        arguments: { agent_tool_name: READ_TOOL },
        info: null,
        compare_args: null,
      },
    ]);
    expect(session).toBeInstanceOf(BankingSession);
    expect([...(session as BankingSession).readLogAllowlist]).toEqual([READ_TOOL]);
  });
});

/** One tool call and its recorded result, as a trajectory holds them. */
function turn(
  name: string,
  args: Record<string, unknown>,
  requestor: "assistant" | "user",
  id: string,
): Message[] {
  return [
    {
      role: requestor,
      content: null,
      tool_calls: [{ id, name, arguments: args, requestor }],
      turn_idx: null,
      timestamp: null,
    },
    { role: "tool", id, content: "recorded", requestor, error: false, turn_idx: null, timestamp: null },
  ] as unknown as Message[];
}

describe("discoverable tools called directly by name", () => {
  it("run without unlock and without a log record", () => {
    const e = env();
    const out = call(e, UPDATE, { transaction_id: "txn_001", new_rewards_earned: "9 points" });
    expect(out.content).toContain("Transaction rewards updated successfully.");
    expect(record(e, "credit_card_transaction_history", "txn_001").rewards_earned).toBe("9 points");
    expect(tableSize(e, "agent_discoverable_tools")).toBe(0);
    // A user tool name sent by the agent goes to the agent toolkit, which lacks it.
    expect(
      call(e, "submit_cash_back_dispute_0589", { user_id: "user_001", transaction_id: "txn_001" }),
    ).toMatchObject({
      error: true,
      content: "Error: Tool 'submit_cash_back_dispute_0589' not found.",
    });
  });

  const trajectory = [
    ...turn(
      "give_discoverable_user_tool",
      { discoverable_tool_name: "get_card_last_4_digits" },
      "assistant",
      "c1",
    ),
    ...turn("get_card_last_4_digits", { credit_card_account_id: "cc_001" }, "user", "c2"),
  ];

  it("quirk discoverableDirectReadSkip: replay skips the direct READ call that logged a record live", () => {
    const live = env();
    call(live, "give_discoverable_user_tool", { discoverable_tool_name: "get_card_last_4_digits" });
    call(live, "get_card_last_4_digits", { credit_card_account_id: "cc_001" }, "user");
    expect(tableSize(live, "user_discoverable_tool_calls")).toBe(1);

    const replayed = env();
    replayMessages(replayed, trajectory, { strict: false });
    expect(tableSize(replayed, "user_discoverable_tool_calls")).toBe(0);
    expect(replayed.agentHash()).not.toBe(live.agentHash());

    const fixed = createEnvironment(baseKnowledgeBase(), new BankingSession(), {
      ...TAU2_QUIRKS,
      discoverableDirectReadSkip: FIXED_QUIRKS.discoverableDirectReadSkip,
    });
    replayMessages(fixed, trajectory, { strict: false });
    expect(fixed.agentHash()).toBe(live.agentHash());
  });
});
