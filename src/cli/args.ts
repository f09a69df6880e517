/**
 * Flags, arguments and environment variables checked before anything is read or written: numbers held
 * to their documented range (src/util/limits.ts), paths that must exist.
 */
import { existsSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { type NumberRange, outOfRange, parseInRange } from "../util/limits.ts";
import { UsageError } from "./errors.ts";

/** `text` as a number in `range`; else a usage error naming the flag or variable and the range. */
export function numberArg(name: string, text: string, range: NumberRange): number {
  const n = parseInRange(range, text);
  if (n === null) throw new UsageError(`${name}: ${outOfRange(range, text)}`);
  return n;
}

/** A folder named by a flag must exist: a typo is a usage mistake, not an unreadable input. */
export function existingFolder(flag: string, dir: string): string {
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new UsageError(`${flag}: folder ${dir} not found`);
  return dir;
}

/** A file named by a flag must exist. */
export function existingFile(flag: string, file: string): string {
  if (!existsSync(file)) throw new UsageError(`${flag}: ${file} not found`);
  return file;
}

/** The folder an output file goes into must exist (it is not created). */
export function outputFileArg(flag: string, file: string): string {
  const dir = dirname(resolve(file));
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new UsageError(`${flag}: folder ${dir} not found (the file's folder is not created)`);
  return file;
}
