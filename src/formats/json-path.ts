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
