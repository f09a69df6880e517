/** The error `f` throws (a test fails when it throws none). */
export function errorOf(f: () => unknown): Error {
  try {
    f();
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected a failure");
}
