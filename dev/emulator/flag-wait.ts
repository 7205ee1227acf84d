/**
 * The wait of a thread blocked on another one's answer: the answering thread posts the answer,
 * stores its number in a shared flag and notifies (index.ts for a service call, http-worker.mjs
 * for a fetch). The value the wait compares with is the one just read: were the flag read again
 * for the wait, an answer stored and notified between the two reads would be missed, and the
 * thread would sleep on a flag that no longer changes (with no time limit, for ever).
 */

/**
 * Blocks until `flag[0]` is `seq` or more. With `sliceMs`, wakes at least that often; `onSlice`
 * is called after every wait, and false from it gives up (false is returned); true once reached.
 * `read` is Atomics.load unless a test stands in for the other thread.
 */
export function waitForFlag(
  flag: Int32Array,
  seq: number,
  options: {
    sliceMs?: number;
    /** After each wait, with how it ended ("not-equal": the flag had already changed). */
    onSlice?: (woke: "ok" | "not-equal" | "timed-out") => boolean;
    read?: (flag: Int32Array) => number;
  } = {},
): boolean {
  const read = options.read ?? ((f: Int32Array) => Atomics.load(f, 0));
  for (let seen = read(flag); seen < seq; seen = read(flag)) {
    const woke = Atomics.wait(flag, 0, seen, options.sliceMs);
    if (options.onSlice && !options.onSlice(woke)) return false;
  }
  return true;
}
