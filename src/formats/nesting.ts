/**
 * A nesting limit for untrusted JSON. `JSON.parse` accepts any depth, but every later step (schema
 * checks, hashing, repr, comparison) recurses, so a 100k-level value would overflow the stack there.
 * Values deeper than the limit are rejected where they sit (one simulation, one task), not the file.
 */

/** Deeper than anything tau2 writes by two orders of magnitude, shallow enough for every recursion. */
export const MAX_NESTING = 512;

/**
 * The path (its first `PATH_SEGMENTS` segments, enough to name the field) to the first array or object
 * nested deeper than `limit` levels, or null when the value is within it. Iterative: safe on any depth.
 */
const PATH_SEGMENTS = 8;

export function deepestPath(value: unknown, limit = MAX_NESTING): (string | number)[] | null {
  interface Node {
    readonly value: unknown;
    readonly depth: number;
    readonly parent: Node | null;
    readonly segment: string | number;
  }
  const stack: Node[] = [{ value, depth: 0, parent: null, segment: "" }];
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    const v = node.value;
    if (v === null || typeof v !== "object") continue;
    if (node.depth >= limit) {
      const path: (string | number)[] = [];
      for (let n: Node | null = node; n !== null && n.parent !== null; n = n.parent) path.unshift(n.segment);
      return path.slice(0, PATH_SEGMENTS);
    }
    const depth = node.depth + 1;
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], depth, parent: node, segment: i });
    } else {
      const record = v as Record<string, unknown>;
      const keys = Object.keys(record);
      for (let i = keys.length - 1; i >= 0; i--) {
        const k = keys[i] as string;
        stack.push({ value: record[k], depth, parent: node, segment: k });
      }
    }
  }
  return null;
}

export const nestingReason = (limit = MAX_NESTING): string =>
  `value nested more than ${limit} levels deep below this point (not graded: every later step recurses)`;
