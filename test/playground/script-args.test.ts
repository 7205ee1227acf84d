import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkScriptArguments } from "../../dev/playground/script-args";

describe("google.script.run argument rules", () => {
  it("passes primitives, null and plain objects and arrays", () => {
    expect(checkScriptArguments(["a", 1, true, null, { x: [1, "b", { y: false }] }])).toEqual([
      "a",
      1,
      true,
      null,
      { x: [1, "b", { y: false }] },
    ]);
  });

  it("turns undefined inside arrays into null and drops undefined members", () => {
    expect(checkScriptArguments([[1, undefined, 3], { a: undefined, b: 2 }])).toEqual([
      [1, null, 3],
      { b: 2 },
    ]);
  });

  it("fails a Date or a function with Google's message naming the property", () => {
    expect(() => checkScriptArguments([new Date()])).toThrow("Failed due to illegal value in property: 0");
    expect(() => checkScriptArguments(["ok", { when: new Date() }])).toThrow(
      "Failed due to illegal value in property: when",
    );
    expect(() => checkScriptArguments([() => 1])).toThrow(TypeError);
    expect(() => checkScriptArguments([[1, new Map()]])).toThrow("illegal value in property: 1");
  });

  it("keeps a member named __proto__ as data and sends -0 as 0, as JSON does", () => {
    const args = JSON.parse('[{"__proto__": {"x": 1}, "n": -0}]');
    const [copy] = checkScriptArguments(args) as [Record<string, unknown>];
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(["__proto__", "n"]);
    expect(Object.is(checkScriptArguments([-0])[0], 0)).toBe(true);
  });

  it("copies any JSON value unchanged", () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue()), (args) => {
        expect(checkScriptArguments(args)).toEqual(JSON.parse(JSON.stringify(args)));
      }),
      { numRuns: 500 },
    );
  });
});
