import { describe, expect, it } from "vitest";
import { CHUNK, deleteText, loadLayout, loadText, saveLayout, saveText } from "../../src/refresh/stored-text";
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

describe("a data sheet's column layout", () => {
  it("is kept across values when extra-field names go beyond one value's 9 KB, and read back", () => {
    const store = memoryStore();
    const keys = [
      "id",
      "title",
      ...Array.from({ length: 40 }, (_v, i) => `extra:Campo ${i} ${"ñ".repeat(300)}`),
    ];
    expect(Buffer.byteLength(JSON.stringify(keys))).toBeGreaterThan(9 * 1024);
    saveLayout(store, "reports", keys);
    expect([...store.data.values()].every((v) => Buffer.byteLength(v) <= 9 * 1024)).toBe(true);
    expect(loadLayout(store, "reports")).toEqual(keys);
    expect(loadLayout(store, "funds")).toBeNull();
  });

  it("reads the single value earlier versions wrote, and replaces it at the next save", () => {
    const store = memoryStore();
    store.setProperty("sheets.layout.reports", JSON.stringify(["id", "extra:Centro"]));
    expect(loadLayout(store, "reports")).toEqual(["id", "extra:Centro"]);
    saveLayout(store, "reports", ["id", "extra:Proyecto"]);
    expect(loadLayout(store, "reports")).toEqual(["id", "extra:Proyecto"]);
    expect(store.data.get("sheets.layout.reports")).toBe("1");
  });

  it("reads nothing from a damaged value", () => {
    const store = memoryStore();
    store.setProperty("sheets.layout.funds", "[1, 2");
    expect(loadLayout(store, "funds")).toBeNull();
    store.setProperty("sheets.layout.funds", "[1, 2]");
    expect(loadLayout(store, "funds")).toBeNull();
  });
});

describe("text beyond U+FFFF", () => {
  it("is never cut between the two halves of one character", () => {
    const store = memoryStore();
    const text = `${"a".repeat(CHUNK - 1)}📎${"b".repeat(CHUNK)}📎`;
    saveText(store, "k", text);
    const halves = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
    expect([...store.data.values()].filter((v) => halves.test(v))).toEqual([]);
    expect(loadText(store, "k")).toBe(text);
  });
});
