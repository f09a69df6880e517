/** Items grouped by a key, groups and their items in first-seen order. */
export function groupBy<T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const it of items) {
    const k = key(it);
    const list = out.get(k);
    if (list === undefined) out.set(k, [it]);
    else list.push(it);
  }
  return out;
}
