import { describe, expect, it } from "vitest";
import { CHUNK, deleteText, loadText, saveText } from "../../src/refresh/stored-text";
import { memoryStore } from "./fakes";

describe("text kept across property values", () => {
  it("cuts long text into values under the 9 KB limit and reads it back", () => {
    const store = memoryStore();
    const text = JSON.stringify({ pendingFundIds: Array.from({ length: 5000 }, (_v, i) => 100_000 + i) });
    saveText(store, "k", text);
    expect([...store.data.values()].every((v) => Buffer.byteLength(v) <= 9 * 1024)).toBe(true);
    expect(store.data.size).toBe(1 + Math.ceil(text.length / CHUNK));
    expect(loadText(store, "k")).toBe(text);
  });

  it("removes the chunks a shorter text no longer needs, and all of them on delete", () => {
    const store = memoryStore();
    saveText(store, "k", "x".repeat(CHUNK * 3));
    saveText(store, "k", "short");
    expect([...store.data.keys()].sort()).toEqual(["k", "k.0"]);
    expect(loadText(store, "k")).toBe("short");
    deleteText(store, "k");
    expect(store.data.size).toBe(0);
    expect(loadText(store, "k")).toBeNull();
  });

  it("reads nothing from an incomplete save", () => {
    const store = memoryStore();
    saveText(store, "k", "y".repeat(CHUNK * 2));
    store.data.delete("k.1");
    expect(loadText(store, "k")).toBeNull();
  });
});
