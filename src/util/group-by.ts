/** Items grouped by a key (compared as a Map key: by value, or by identity for objects), groups and their items in first-seen order. */
export function groupBy<T, K = string>(items: readonly T[], key: (t: T) => K): Map<K, T[]> {
  const out = new Map<K, T[]>();
  for (const it of items) {
    const k = key(it);
    const list = out.get(k);
    if (list === undefined) out.set(k, [it]);
    else list.push(it);
  }
  return out;
}
