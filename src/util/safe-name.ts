/**
 * Names read from data (a corpus file's domain, a variant, a grader id, a comparison name, a submission's
 * file name) that become part of a path. One rule, checked before any path is built: a name is one path
 * segment, never a way to another folder.
 */
import { isAbsolute, relative, resolve, sep } from "node:path";
import { EXIT_USAGE, RescoreError } from "./errors.ts";
import { z } from "./zod.ts";

/** Bytes of UTF-8 a name may take: a file name's 255, less room for the suffixes the tool adds (`.vl.json`). */
export const SAFE_NAME_MAX_BYTES = 240;

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** Why `name` cannot be a path segment, or null when it can. */
export function unsafeNameReason(name: unknown): string | null {
  if (typeof name !== "string") return "a name must be a string";
  if (name === "") return "a name may not be empty";
  if (name === "." || name === "..") return `${JSON.stringify(name)} is not a name but a folder`;
  if (name.includes("/") || name.includes("\\")) return "a name may not hold / or \\";
  if (CONTROL.test(name)) return "a name may not hold control characters";
  const bytes = Buffer.byteLength(name, "utf8");
  if (bytes > SAFE_NAME_MAX_BYTES)
    return `a name may take at most ${SAFE_NAME_MAX_BYTES} bytes (this one takes ${bytes})`;
  return null;
}

export const isSafeName = (name: unknown): name is string => unsafeNameReason(name) === null;

/** A string that is a safe name, for the schemas of files and configs (the issue names the JSON path). */
export const safeNameSchema = z.string().check((ctx) => {
  const why = unsafeNameReason(ctx.value);
  if (why !== null) ctx.issues.push({ code: "custom", message: why, input: ctx.value });
});

/** A name from data that cannot be part of a path: a usage mistake or bad input, named with where it came from. */
export class UnsafeNameError extends RescoreError {
  override readonly code = "unsafe_name";
  override readonly exitStatus = EXIT_USAGE;

  override readonly name = "UnsafeNameError";
}

/** `name` when it is safe; else an `UnsafeNameError` naming `where` (a file and its key). */
export function safeName(name: string, where: string): string {
  const why = unsafeNameReason(name);
  if (why !== null) throw new UnsafeNameError(`${where}: ${JSON.stringify(name)}: ${why}`);
  return name;
}

/** Is `full` the root itself or below it (both resolved)? `..foo` is a name, not a way up. */
export function isWithin(root: string, full: string): boolean {
  const rel = relative(resolve(root), resolve(full));
  return rel === "" || (!isAbsolute(rel) && rel !== ".." && !rel.startsWith(`..${sep}`));
}

/** `root/<names…>`, each name checked, and the result checked to stay below `root`. */
export function joinBelow(root: string, where: string, ...names: readonly string[]): string {
  for (const n of names) safeName(n, where);
  const full = resolve(root, ...names);
  if (!isWithin(root, full)) throw new UnsafeNameError(`${where}: ${full} is not below ${root}`);
  return full;
}
