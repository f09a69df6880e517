/** tau2's mock domain DB models (`MockDB`, `MockUserDB`). */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { PyDict } from "../../py/value.ts";
import { z } from "../../util/zod.ts";
import { DbBase } from "../db-state.ts";

export const TaskStatus = z.enum(["pending", "completed"]);

// Nested plain models ignore unknown keys (pydantic default); the DB roots forbid them.
const TaskRecord = z.object({
  task_id: z.string(),
  title: z.string(),
  description: z.string().nullable().default(null),
  status: TaskStatus,
});

const UserRecord = z.object({
  user_id: z.string(),
  name: z.string(),
  tasks: z.array(z.string()),
});

const MockDbSchema = z.strictObject({
  tasks: z.record(z.string(), TaskRecord),
  users: z.record(z.string(), UserRecord),
});

export const NotificationRecord = z.strictObject({
  notification_id: z.string(),
  message: z.string(),
  status: z.enum(["unread", "read"]).default("unread"),
  task_id: z.string().nullable().default(null),
});

const MockUserDbSchema = z.strictObject({
  notifications: z.record(z.string(), NotificationRecord).default({}),
});

export const mockDbFromPlain = (plain: unknown): DbBase =>
  new DbBase("MockDB", { tasks: "dict", users: "dict" }, MockDbSchema.parse(plain) as PyDict);

export const mockUserDbFromPlain = (plain: unknown): DbBase =>
  new DbBase("MockUserDB", { notifications: "dict" }, MockUserDbSchema.parse(plain) as PyDict);

const readJson = (path: string): unknown => JSON.parse(readFileSync(path, "utf8"));

export const loadMockDb = (dataDir: string) =>
  mockDbFromPlain(readJson(join(dataDir, "domains/mock/db.json")));
export const loadMockUserDb = (dataDir: string) =>
  mockUserDbFromPlain(readJson(join(dataDir, "domains/mock/user_db.json")));
