/**
 * Caches keyed by an object (held weakly: the cache never keeps it alive) and then by a second key,
 * the shape of every per-task, per-table and per-footprint cache of the graders and probes.
 */
interface Store<K, V> {
  get(key: K): V | undefined;
  set(key: K, value: V): unknown;
}

/** `get(outer, inner, make)` returns the value cached under both keys, made by `make` on a miss. */
export function keyedCache<O extends object, I, V>(innerStore: () => Store<I, V> = () => new Map<I, V>()) {
  const outers = new WeakMap<O, Store<I, V>>();
  return (outer: O, inner: I, make: () => V): V => {
    let byInner = outers.get(outer);
    if (byInner === undefined) {
      byInner = innerStore();
      outers.set(outer, byInner);
    }
    let value = byInner.get(inner);
    if (value === undefined) {
      value = make();
      byInner.set(inner, value);
    }
    return value;
  };
}
