/**
 * One writer at a time on a reviews file: `review set`, `review walk`, `review sample` and `view` each
 * take `<file>.lock` (created exclusively, holding the writer's pid), read the file again, change it,
 * write it atomically and let go. Two reviewers on one file (a terminal walk and a browser) then never
 * overwrite each other's reviews. A lock whose process is gone is taken over.
 */
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { type ReviewFile, ReviewFileError, readReviewFile, writeReviewFile } from "./file.ts";

/** How long a writer waits for another to let go before it gives up with a message. */
const WAIT_MS = 10_000;
const POLL_MS = 25;

const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
};

function holderOf(lock: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(lock, "utf8"), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function acquire(lock: string): void {
  const deadline = Date.now() + WAIT_MS;
  mkdirSync(dirname(lock), { recursive: true });
  for (;;) {
    try {
      const fd = openSync(lock, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST")
        throw new ReviewFileError(`${lock}: cannot take the reviews lock: ${(e as Error).message}`);
    }
    const holder = holderOf(lock);
    // A lock left by a process that died mid-write (or one being written this instant: read it again).
    if (holder !== null && holder !== process.pid && !alive(holder)) {
      try {
        unlinkSync(lock);
      } catch {}
      continue;
    }
    if (Date.now() > deadline)
      throw new ReviewFileError(
        `${lock}: another writer (pid ${holder ?? "?"}) has held the reviews file for ${WAIT_MS / 1000} s; try again, or delete the lock file if that process is gone`,
      );
    sleep(POLL_MS);
  }
}

/** Runs `body` holding the reviews file's lock. */
export function withReviewsLock<T>(path: string, body: () => T): T {
  const lock = `${path}.lock`;
  acquire(lock);
  try {
    return body();
  } finally {
    try {
      unlinkSync(lock);
    } catch {}
  }
}

/**
 * Reads the file as it is now, applies `change`, and writes the result atomically, all under the lock:
 * reviews another writer saved in between are kept. Returns the file as written.
 */
export function updateReviewFile(path: string, change: (file: ReviewFile) => ReviewFile): ReviewFile {
  return withReviewsLock(path, () => {
    const now = readReviewFile(path);
    const next = change(now);
    // A change that changes nothing leaves the file's bytes alone.
    if (next !== now) writeReviewFile(path, next);
    return next;
  });
}
