/**
 * The stores this process has open, kept apart from `store.ts` so the command line's exit hook can stop
 * them without loading DuckDB at start-up.
 */

/** What stopping an open store takes. */
export interface OpenStore {
  /** Interrupts the query it is running, if any. */
  interrupt(): void;
  /** Removes its spill folder, when this process made it. */
  removeTemp(): void;
}

const OPEN = new Set<OpenStore>();
const STOP_TRIES = 10;
const STOP_PAUSE_MS = 5;

export function trackStore(store: OpenStore): void {
  OPEN.add(store);
}

export function untrackStore(store: OpenStore): void {
  OPEN.delete(store);
}

/**
 * Interrupts the query each open store is running, and removes their spill folders: for the process's
 * exit. `process.exit` waits for a running DuckDB query (its libuv thread is joined), so without this an
 * interrupted report or review would stop only once its query finished, minutes later. An interrupt in
 * a statement's first milliseconds (before DuckDB starts executing it) is dropped, so it is repeated for
 * a short while.
 */
export function stopOpenStores(): void {
  if (OPEN.size === 0) return;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let i = 0; i < STOP_TRIES; i++) {
    for (const store of OPEN) store.interrupt();
    if (i < STOP_TRIES - 1) Atomics.wait(pause, 0, 0, STOP_PAUSE_MS);
  }
  for (const store of OPEN) store.removeTemp();
}
