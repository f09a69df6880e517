import { describe, expect, it } from "vitest";
import {
  addToDb,
  getDatabase,
  listDatabases,
  QUERYABLE_TABLES,
  queryDatabaseTool,
  queryDb,
  removeFromDb,
  updateRecordInDb,
} from "../../../src/domains/banking_knowledge/db-query.ts";
import { BANKING_TABLES, bankingDbFromPlain } from "../../../src/domains/banking_knowledge/schema.ts";
import { DbState } from "../../../src/domains/db-state.ts";
import { parsePyJson } from "../../../src/py/parse.ts";
import { type PyDict, PyFloat } from "../../../src/py/value.ts";
import { baseKnowledgeDb } from "./fixtures.ts";

describe("TestDbQuery", () => {
  it("test_list_databases", () => {
    const dbs = listDatabases(baseKnowledgeDb());
    for (const t of ["users", "accounts", "credit_card_accounts", "referrals"]) expect(dbs).toContain(t);
  });

  it("test_query_db_exact_match", () => {
    const results = queryDb("users", { name: "Amara Okonkwo" }, baseKnowledgeDb());
    expect(results.length).toBe(1);
    expect(results[0]?.user_id).toBe("user_001");
  });

  it("test_query_db_no_match", () => {
    expect(queryDb("users", { name: "Nobody" }, baseKnowledgeDb()).length).toBe(0);
  });

  it("test_query_db_return_ids", () => {
    const results = queryDb("users", {}, baseKnowledgeDb(), { returnIds: true });
    expect(results.length).toBe(2);
    expect(Array.isArray(results[0])).toBe(true);
    expect(["user_001", "user_002"]).toContain(results[0]?.[0]);
  });

  it("test_query_db_with_limit", () => {
    expect(queryDb("users", {}, baseKnowledgeDb(), { limit: 1 }).length).toBe(1);
  });

  it("test_query_db_ne_operator", () => {
    const results = queryDb("users", { user_id__ne: "user_001" }, baseKnowledgeDb());
    expect(results.length).toBe(1);
    expect(results[0]?.user_id).toBe("user_002");
  });

  it("test_query_db_contains_operator", () => {
    expect(queryDb("users", { name__contains: "Amara" }, baseKnowledgeDb()).length).toBe(1);
  });

  it("test_query_db_nonexistent_database", () => {
    expect(queryDb("nonexistent_db", {}, baseKnowledgeDb()).length).toBe(0);
  });

  it("test_add_to_db_success", () => {
    const db = baseKnowledgeDb();
    expect(addToDb("users", "user_003", { name: "New User", user_id: "user_003" }, db)).toBe(true);
    expect(db.has("users", "user_003")).toBe(true);
  });

  it("test_add_to_db_duplicate", () => {
    expect(addToDb("users", "user_001", { name: "Duplicate" }, baseKnowledgeDb())).toBe(false);
  });

  it("test_add_to_db_nonexistent_table", () => {
    expect(addToDb("nonexistent_table", "id1", { data: "value" }, baseKnowledgeDb())).toBe(false);
  });

  it("test_update_record_success", () => {
    const db = baseKnowledgeDb();
    const record = updateRecordInDb("users", "user_001", { phone_number: "555-NEW-NUM" }, db);
    expect(record).not.toBeNull();
    expect(record?.phone_number).toBe("555-NEW-NUM");
    expect((db.get("users", "user_001") as PyDict).phone_number).toBe("555-NEW-NUM");
  });

  it("test_update_record_not_found", () => {
    expect(updateRecordInDb("users", "nonexistent", { name: "New" }, baseKnowledgeDb())).toBeNull();
  });

  it("test_remove_from_db_success", () => {
    const db = baseKnowledgeDb();
    const removed = removeFromDb("users", { user_id: "user_002" }, db);
    expect(removed.length).toBe(1);
    expect(removed[0]?.name).toBe("Fatima Al-Hassan");
    expect(db.has("users", "user_002")).toBe(false);
  });

  it("test_remove_from_db_no_match", () => {
    expect(removeFromDb("users", { user_id: "nonexistent" }, baseKnowledgeDb()).length).toBe(0);
  });

  it("test_query_database_tool_formatted", () => {
    const result = queryDatabaseTool("users", '{"user_id": "user_001"}', baseKnowledgeDb());
    expect(result).toContain("Found 1 record");
    expect(result).toContain("Amara Okonkwo");
  });

  it("test_query_database_tool_invalid_db", () => {
    const result = queryDatabaseTool("fake_db", "{}", baseKnowledgeDb());
    expect(result).toContain("Error");
    expect(result).toContain("not found");
  });

  it("test_query_database_tool_invalid_json", () => {
    const result = queryDatabaseTool("users", "not json {{", baseKnowledgeDb());
    expect(result).toContain("Error");
    expect(result).toContain("Invalid JSON");
  });
});

describe("query_database_tool texts (hand-derived from db_query.py)", () => {
  it("lists records with str() of every value and a trailing blank line", () => {
    expect(queryDatabaseTool("users", '{"user_id": "user_001"}', baseKnowledgeDb())).toBe(
      "Found 1 record(s) in 'users':\n\n1. Record ID: user_001\n   name: Amara Okonkwo\n   user_id: user_001\n" +
        "   address: 305 Magnolia Street, Houston, TX 77002\n   email: amara@icloud.com\n" +
        "   phone_number: 713-555-0963\n   date_of_birth: 08/11/1997\n",
    );
    expect(queryDatabaseTool("task_config", "", baseKnowledgeDb())).toBe(
      "Found 1 record(s) in 'task_config':\n\n1. Record ID: dispute_settings\n   auto_resolve_disputes: True\n",
    );
    const cc = queryDatabaseTool("credit_card_accounts", '{"current_balance__gt": 1000}', baseKnowledgeDb());
    expect(cc).toContain("   current_balance: 1500.0\n   reward_points: 5000\n");
    expect(queryDatabaseTool("users", '{"name": "x"}', baseKnowledgeDb())).toBe(
      "No records found in 'users'.",
    );
  });

  it("names every table in _load_databases order when the database is unknown", () => {
    const text = queryDatabaseTool("fake_db", "{}", baseKnowledgeDb());
    expect(text).toBe(
      `Error: Database 'fake_db' not found. Available: [${QUERYABLE_TABLES.map((t) => `'${t}'`).join(", ")}]`,
    );
    expect(new Set(QUERYABLE_TABLES)).toEqual(new Set(BANKING_TABLES));
    expect(QUERYABLE_TABLES.slice(0, 4)).toEqual([
      "users",
      "accounts",
      "referrals",
      "credit_card_applications",
    ]);
  });

  it("reports JSON errors and query_db binding errors as tau2 does", () => {
    const db = baseKnowledgeDb();
    expect(queryDatabaseTool("users", "not json {{", db)).toBe(
      "Error: Invalid JSON: Expecting value: line 1 column 1 (char 0)",
    );
    expect(queryDatabaseTool("users", '{"a": 1,}', db)).toBe(
      "Error: Invalid JSON: Expecting property name enclosed in double quotes: line 1 column 9 (char 8)",
    );
    expect(queryDatabaseTool("users", "[1]", db)).toBe(
      "Error querying database: tau2.domains.banking_knowledge.db_query.query_db() argument after ** must be a mapping, not list",
    );
    expect(queryDatabaseTool("users", '{"return_ids": false}', db)).toBe(
      "Error querying database: tau2.domains.banking_knowledge.db_query.query_db() got multiple values for keyword argument 'return_ids'",
    );
    expect(queryDatabaseTool("users", '{"db_name": "x"}', db)).toBe(
      "Error querying database: query_db() got multiple values for argument 'db_name'",
    );
    expect(queryDatabaseTool("users", { a: 1 }, db)).toBe(
      "Error querying database: the JSON object must be str, bytes or bytearray, not dict",
    );
    // A falsy non-str means "no constraints".
    expect(queryDatabaseTool("users", {}, db)).toContain("Found 2 record(s)");
    // tau2 quirk: "limit" is query_db's own parameter.
    expect(queryDatabaseTool("users", '{"limit": 1}', db)).toContain("Found 1 record(s)");
    expect(queryDatabaseTool("users", '{"limit": "1"}', db)).toBe(
      "Error querying database: '>=' not supported between instances of 'int' and 'str'",
    );
    expect(queryDatabaseTool(["users"], "{}", db)).toContain("Error: Database '['users']' not found.");
  });

  it("getDatabase returns a table's records, null for an unknown name", () => {
    const db = baseKnowledgeDb();
    expect(Object.keys(getDatabase("users", db) ?? {})).toEqual(["user_001", "user_002"]);
    expect(getDatabase("nope", db)).toBeNull();
  });
});

describe("Python comparison semantics", () => {
  const db = () =>
    DbState.of(
      bankingDbFromPlain(
        parsePyJson(
          JSON.stringify({
            accounts: {
              data: {
                a: { n: 5, s: "abc", l: [1, 2], d: { k: 1 }, b: true, z: null },
                b: { n: 10, s: "abd", l: [1, 3], d: { j: 1 }, b: false },
              },
              notes: "",
            },
          }),
        ),
      ),
    );
  const ids = (c: PyDict) => queryDb("accounts", c, db(), { returnIds: true }).map(([id]) => id);

  it("orders numbers, strings and lists; anything else matches nothing", () => {
    expect(ids({ n__gt: new PyFloat(5.5) })).toEqual(["b"]);
    expect(ids({ n__lte: true })).toEqual([]);
    expect(ids({ s__lt: "abd" })).toEqual(["a"]);
    expect(ids({ l__lt: [1, 3] })).toEqual(["a"]);
    expect(ids({ n__gt: "1" })).toEqual([]);
    expect(ids({ z__lt: 1 })).toEqual([]); // None < 1 raises TypeError
    expect(ids({ missing__ne: 1 })).toEqual(["a", "b"]);
    expect(ids({ d__gt: {} })).toEqual([]);
    expect(ids({ n__gte: new PyFloat(Number.NaN) })).toEqual([]);
  });

  it("contains / in / nin / startswith follow Python's `in` and str()", () => {
    expect(ids({ l__contains: new PyFloat(2) })).toEqual(["a"]);
    expect(ids({ d__contains: "k" })).toEqual(["a"]);
    expect(ids({ s__contains: 1 })).toEqual([]);
    expect(ids({ n__contains: 1 })).toEqual([]);
    expect(ids({ n__in: [5, 7] })).toEqual(["a"]);
    expect(ids({ s__in: "xabcx" })).toEqual(["a"]);
    expect(ids({ n__in: "5" })).toEqual([]);
    expect(ids({ n__nin: [5] })).toEqual(["b"]);
    expect(ids({ n__nin: 5 })).toEqual([]); // TypeError: no match either way
    expect(ids({ b__startswith: "Tr" })).toEqual(["a"]);
    expect(ids({ l__endswith: "3]" })).toEqual(["b"]);
    expect(ids({ z__startswith: "N" })).toEqual([]);
    expect(ids({ n__bogus: 5 })).toEqual(["a"]);
  });
});
