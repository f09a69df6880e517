/** JSON paths in the form used in every error text: `simulations[3].messages[5].tool_calls[0].arguments`. */

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Appends path segments (from a zod issue or a walk) to a base path; `$` is the document root. */
export function joinPath(base: string, segments: readonly PropertyKey[]): string {
  let out = base === "$" ? "" : base;
  for (const seg of segments) {
    if (typeof seg === "number") out += `[${seg}]`;
    else {
      const key = String(seg);
      out += IDENTIFIER.test(key) ? (out === "" ? key : `.${key}`) : `[${JSON.stringify(key)}]`;
    }
  }
  return out === "" ? "$" : out;
}

/** The JSON path of the first own `__proto__` key in parsed JSON (which object building would drop), or null. */
export function protoKeyPath(value: unknown, path = "$"): string | null {
  if (value === null || typeof value !== "object") return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = protoKeyPath(value[i], joinPath(path, [i]));
      if (found !== null) return found;
    }
    return null;
  }
  if (Object.hasOwn(value, "__proto__")) return path;
  for (const [k, v] of Object.entries(value)) {
    const found = protoKeyPath(v, joinPath(path, [k]));
    if (found !== null) return found;
  }
  return null;
}
