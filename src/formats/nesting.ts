/**
 * A nesting limit for untrusted JSON. `JSON.parse` accepts any depth, but every later step (schema
 * checks, hashing, repr, comparison) recurses, so a 100k-level value would overflow the stack there.
 * Values deeper than the limit are rejected where they sit (one simulation, one task), not the file.
 */

/** Deeper than anything tau2 writes by two orders of magnitude, shallow enough for every recursion. */
export const MAX_NESTING = 512;

/** Segments of a too-deep path that are reported: enough to name the field. */
const PATH_SEGMENTS = 8;

/** Is an array or object nested `limit` or more levels below `v`? Recursion is bounded by `limit`. */
function nestsTooDeep(v: unknown, depth: number, limit: number): boolean {
  if (depth >= limit) return true;
  if (Array.isArray(v)) {
    for (const x of v)
      if (x !== null && typeof x === "object" && nestsTooDeep(x, depth + 1, limit)) return true;
    return false;
  }
  const record = v as Record<string, unknown>;
  for (const k in record) {
    if (!Object.hasOwn(record, k)) continue;
    const x = record[k];
    if (x !== null && typeof x === "object" && nestsTooDeep(x, depth + 1, limit)) return true;
  }
  return false;
}

/** Containers already known to hold nothing nested `MAX_NESTING` deep (measured while parsing). */
const knownWithinLimit = new WeakSet<object>();

/**
 * Records that nothing in `root` nests `MAX_NESTING` deep, for `root` and the containers up to two
 * levels below it: the values the loaders check one by one (a simulation, a task, a list item).
 */
export function markWithinNesting(root: unknown, levels = 2): void {
  if (root === null || typeof root !== "object") return;
  knownWithinLimit.add(root);
  if (levels === 0) return;
  for (const v of Array.isArray(root) ? root : Object.values(root)) markWithinNesting(v, levels - 1);
}

/**
 * The path (its first `PATH_SEGMENTS` segments) to the first array or object nested deeper than
 * `limit` levels, or null when the value is within it. Iterative: safe on any depth.
 */
export function deepestPath(value: unknown, limit = MAX_NESTING): (string | number)[] | null {
  if (value === null || typeof value !== "object") return null;
  if (limit >= MAX_NESTING && knownWithinLimit.has(value)) return null;
  // The common answer (not too deep) without allocating; the path search below only for a hit.
  if (!nestsTooDeep(value, 0, limit)) return null;
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
