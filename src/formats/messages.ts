/**
 * tau2 messages, told apart by `role` (tau2 `data_model/message.py`). Unknown keys (voice fields, cost,
 * usage, raw_data, reasoning, ...) are dropped. `tool_calls: null` and `[]` stay distinct: tau2 treats a
 * message with `[]` as a tool-call message with zero calls.
 */
import { z } from "../util/zod.ts";
import type { Message, ToolCall } from "./model.ts";
import { pyValueSchema, requestorSchema } from "./py-schemas.ts";

const contentSchema = z.string().nullable().default(null);
const turnIdxSchema = z.number().int().nullable().default(null);

export const toolCallSchema: z.ZodType<ToolCall> = z.object({
  id: z.string().default(""),
  name: z.string(),
  /** tau2 requires an object; anything else is kept for the grader to report. */
  arguments: pyValueSchema,
  requestor: requestorSchema.default("assistant"),
});

const systemMessageSchema = z.object({
  role: z.literal("system"),
  content: contentSchema,
  turn_idx: turnIdxSchema,
});

const participantMessageSchema = z.object({
  role: z.enum(["assistant", "user"]),
  content: contentSchema,
  tool_calls: z.array(toolCallSchema).nullable().default(null),
  turn_idx: turnIdxSchema,
});

const toolMessageSchema = z.object({
  role: z.literal("tool"),
  id: z.string(),
  content: contentSchema,
  requestor: requestorSchema.default("assistant"),
  error: z.boolean().default(false),
  turn_idx: turnIdxSchema,
});

export const messageSchema: z.ZodType<Message> = z.discriminatedUnion("role", [
  systemMessageSchema,
  participantMessageSchema,
  toolMessageSchema,
]);
