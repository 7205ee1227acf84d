/**
 * The wait of an execution's thread for the answer to a service call or a fetch: the answer's
 * number may be stored (and notified) at any instant, also right after the waiting thread read
 * the flag. The wait then must not sleep: it waits on the value it read, which has changed.
 */
import { describe, expect, it } from "vitest";
import { waitForFlag } from "../../dev/emulator/flag-wait";

function flagAt(value: number): Int32Array {
  const flag = new Int32Array(new SharedArrayBuffer(4));
  Atomics.store(flag, 0, value);
  return flag;
}

/** Stands in for the answering thread: its answer (`seq`) lands just after the first read. */
function answerAfterFirstRead(seq: number) {
  let reads = 0;
  return (flag: Int32Array) => {
    const seen = Atomics.load(flag, 0);
    reads += 1;
    if (reads === 1) {
      Atomics.store(flag, 0, seq);
      Atomics.notify(flag, 0);
    }
    return seen;
  };
}

describe("waitForFlag", () => {
  it("returns at once when the answer is already there", () => {
    expect(waitForFlag(flagAt(7), 7)).toBe(true);
    expect(waitForFlag(flagAt(9), 7)).toBe(true);
  });

  it("does not sleep through an answer stored between its read of the flag and its wait", () => {
    const flag = flagAt(33);
    const wakes: string[] = [];
    const reached = waitForFlag(flag, 34, {
      sliceMs: 1_000,
      onSlice: (woke) => {
        wakes.push(woke);
        return wakes.length < 3;
      },
      read: answerAfterFirstRead(34),
    });
    expect(reached).toBe(true);
    // It waited on 33, the value it read, and the flag held 34 already: no sleep at all. (Had it
    // read the flag again for the wait, it would have slept on 34 until the slice ran out:
    // "timed-out", and without a slice, for ever.)
    expect(wakes).toEqual(["not-equal"]);
  });

  it("gives up when its caller says so, each slice", () => {
    let slices = 0;
    const reached = waitForFlag(flagAt(1), 2, {
      sliceMs: 5,
      onSlice: () => {
        slices += 1;
        return slices < 3;
      },
    });
    expect(reached).toBe(false);
    expect(slices).toBe(3);
  });
});
