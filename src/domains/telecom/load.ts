/** Reads the shipped TOML DB files of a tau2 data dir (`data/tau2`). */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "smol-toml";
import type { DbBase } from "../db-state.ts";
import { telecomDbFromPlain } from "./schema.ts";
import { telecomUserDbFromPlain } from "./user-schema.ts";

const readToml = (path: string): unknown => parse(readFileSync(path, "utf8"));

export const loadTelecomDb = (dataDir: string): DbBase =>
  telecomDbFromPlain(readToml(join(dataDir, "domains", "telecom", "db.toml")));

export const loadTelecomUserDb = (dataDir: string): DbBase =>
  telecomUserDbFromPlain(readToml(join(dataDir, "domains", "telecom", "user_db.toml")));
