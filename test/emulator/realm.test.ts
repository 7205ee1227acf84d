/**
 * The script's realm holds only what Apps Script's V8 offers (ES2020 built-ins), so a script
 * that uses anything newer, or a web or Node global, fails in the emulation as it would on
 * Google; Node's own built-ins stay as they are.
 */
import vm from "node:vm";
import { afterAll, describe, expect, it } from "vitest";
import { ES2020_GLOBALS, NEWER_MEMBERS, restrictToAppsScriptRuntime } from "../../dev/emulator/realm";
import { fixtureEmulator, inScript } from "./helpers";

const em = fixtureEmulator();
afterAll(() => em.close());

/** What using `expression` in the script gives: "ok", or the name of the error it throws. */
function tryInScript(expression: string): unknown {
  return inScript(em, `try { ${expression}; return "ok"; } catch (e) { return e.name; }`);
}

const ABSENT_GLOBALS: Record<string, string> = {
  structuredClone: "structuredClone({ a: 1 })",
  URL: 'new URL("https://example.com/")',
  URLSearchParams: 'new URLSearchParams("a=1")',
  TextEncoder: 'new TextEncoder().encode("a")',
  TextDecoder: "new TextDecoder().decode(new Uint8Array(1))",
  atob: 'atob("YQ==")',
  btoa: 'btoa("a")',
  setTimeout: "setTimeout(function () {}, 0)",
  setInterval: "setInterval(function () {}, 1000)",
  setImmediate: "setImmediate(function () {})",
  queueMicrotask: "queueMicrotask(function () {})",
  fetch: 'fetch("https://example.com/")',
  File: 'new File([], "a.txt")',
  Blob: "new Blob([])",
  crypto: "crypto.randomUUID()",
  SharedArrayBuffer: "new SharedArrayBuffer(8)",
  WeakRef: "new WeakRef({})",
  FinalizationRegistry: "new FinalizationRegistry(function () {})",
  AggregateError: "new AggregateError([])",
  WebAssembly: "WebAssembly.validate(new Uint8Array(0))",
  process: "process.env",
  Buffer: 'Buffer.from("a")',
  require: 'require("fs")',
};

const NEWER_USES: Record<string, string> = {
  "Array.prototype.at": "[1, 2].at(-1)",
  "Array.prototype.findLast": "[1, 2].findLast(function (x) { return x > 0; })",
  "Array.prototype.findLastIndex": "[1, 2].findLastIndex(function (x) { return x > 0; })",
  "Array.prototype.toSorted": "[2, 1].toSorted()",
  "Array.prototype.toReversed": "[1, 2].toReversed()",
  "Array.prototype.toSpliced": "[1, 2].toSpliced(0, 1)",
  "Array.prototype.with": "[1, 2].with(0, 3)",
  "TypedArray.prototype.at": "new Uint8Array(2).at(0)",
  "TypedArray.prototype.findLast": "new Int32Array(2).findLast(function () { return true; })",
  "String.prototype.at": '"ab".at(-1)',
  "String.prototype.replaceAll": '"a-b-c".replaceAll("-", "+")',
  "String.prototype.isWellFormed": '"a".isWellFormed()',
  "Object.hasOwn": "Object.hasOwn({ a: 1 }, 'a')",
  "Object.groupBy": "Object.groupBy([1], function (x) { return x; })",
  "Promise.any": "Promise.any([])",
  "ArrayBuffer.prototype.transfer": "new ArrayBuffer(8).transfer()",
};

describe("the script's realm", () => {
  it.each(Object.entries(ABSENT_GLOBALS))("has no %s (a ReferenceError, as on Google)", (_name, use) => {
    expect(tryInScript(use)).toBe("ReferenceError");
  });

  it.each(Object.entries(NEWER_USES))("has no %s (newer than ES2020: a TypeError)", (_name, use) => {
    expect(tryInScript(use)).toBe("TypeError");
  });

  it("keeps ES2020: BigInt, globalThis, Promise.allSettled, matchAll, optional catch, Intl", () => {
    expect(
      inScript(
        em,
        `return [typeof BigInt(1), typeof globalThis, typeof Promise.allSettled,
          Array.from("a1b2".matchAll(/\\d/g)).length, [1, [2, [3]]].flat(2).length,
          Object.fromEntries([["a", 1]]).a, "  x ".trimStart(), typeof Intl.NumberFormat];`,
      ),
    ).toEqual(["bigint", "object", "function", 2, 3, 1, "x ", "function"]);
  });

  it("still offers the services and the script's console", () => {
    expect(inScript(em, `return [typeof SpreadsheetApp, typeof Utilities, typeof console.log];`)).toEqual([
      "object",
      "object",
      "function",
    ]);
  });

  it("removes them from the context's own built-ins, never from Node's", () => {
    expect(tryInScript("[1].at(0)")).toBe("TypeError");
    expect([1, 2].at(-1)).toBe(2);
    expect(Object.hasOwn({ a: 1 }, "a")).toBe(true);
    expect("a-b".replaceAll("-", "+")).toBe("a+b");
    expect(typeof structuredClone).toBe("function");
    expect(typeof WeakRef).toBe("function");
  });

  it("lists only names a fresh V8 context has, and every newer member is really gone", () => {
    const context = vm.createContext({});
    const own = vm.runInContext("Object.getOwnPropertyNames(globalThis)", context) as string[];
    for (const name of ES2020_GLOBALS) expect(own, name).toContain(name);
    restrictToAppsScriptRuntime(context);
    const left = vm.runInContext("Object.getOwnPropertyNames(globalThis)", context) as string[];
    expect([...left].sort()).toEqual([...ES2020_GLOBALS].sort());
    for (const [owner, names] of Object.entries(NEWER_MEMBERS)) {
      const path = owner === "TypedArray.prototype" ? "Object.getPrototypeOf(Int8Array.prototype)" : owner;
      for (const name of names) {
        expect(vm.runInContext(`${JSON.stringify(name)} in ${path}`, context), `${owner}.${name}`).toBe(
          false,
        );
      }
    }
  });
});

describe("values crossing into the script", () => {
  it("come as the script's own arrays and dates, text and numbers as they were", () => {
    const out = inScript(
      em,
      `var sheet = SpreadsheetApp.getActiveSpreadsheet().insertSheet("Realm values");
       sheet.getRange(1, 1, 2, 3).setValues([[new Date(Date.UTC(2024, 0, 5)), 42, "text"], ["", 1.5, true]]);
       var values = sheet.getRange(1, 1, 2, 3).getValues();
       return {
         outer: values instanceof Array, rows: values.every(function (r) { return r instanceof Array; }),
         date: values[0][0] instanceof Date, time: values[0][0].getTime(),
         rest: [values[0].slice(1), values[1]],
         formats: sheet.getRange(1, 1, 2, 3).getNumberFormats() instanceof Array,
       };`,
    ) as Record<string, unknown>;
    expect(out).toEqual({
      outer: true,
      rows: true,
      date: true,
      time: Date.UTC(2024, 0, 5),
      rest: [
        [42, "text"],
        ["", 1.5, true],
      ],
      formats: true,
    });
  });
});
