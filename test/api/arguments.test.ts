/**
 * Arguments from sidebars read as data: only what an argument holds itself counts, whatever
 * prototype it came with.
 */
import { describe, expect, it } from "vitest";
import { ownData, ownMember, ownRecord } from "../../src/api/arguments";

describe("reading a sidebar's argument", () => {
  it("ignores inherited members, at every depth", () => {
    const inherited = Object.create({ baseUrl: "https://attacker.example/v1" }) as Record<string, unknown>;
    inherited.adminId = "7";
    const nested = { fields: Object.create({ Amount: "999" }) };
    expect(ownMember(inherited, "baseUrl")).toBeUndefined();
    expect(ownMember(inherited, "adminId")).toBe("7");
    expect(ownRecord(inherited)?.baseUrl).toBeUndefined();
    expect({ ...ownRecord(inherited) }).toEqual({ adminId: "7" });
    expect((ownData(nested) as { fields: Record<string, unknown> }).fields.Amount).toBeUndefined();
  });

  it("keeps a member named __proto__ as a plain member, never as a prototype", () => {
    const sent = JSON.parse('{"__proto__": {"baseUrl": "https://attacker.example/v1"}, "pageSize": "50"}');
    const read = ownRecord(sent) as Record<string, unknown>;
    expect(read.baseUrl).toBeUndefined();
    expect(Object.getPrototypeOf(read)).toBeNull();
    expect(Object.keys(read)).toEqual(["__proto__", "pageSize"]);
    expect(ownMember(sent, "__proto__")).toEqual({ baseUrl: "https://attacker.example/v1" });
  });

  it("never calls a getter and never reads Object.prototype's members", () => {
    let called = false;
    const sneaky = Object.defineProperty({}, "token", {
      enumerable: true,
      get: () => {
        called = true;
        return "x";
      },
    });
    expect(ownMember(sneaky, "token")).toBeUndefined();
    expect(ownRecord(sneaky)).toEqual(Object.create(null));
    expect(called).toBe(false);
    expect(ownMember({}, "toString")).toBeUndefined();
    expect((ownRecord({}) as Record<string, unknown>).constructor).toBeUndefined();
  });

  it("copies JSON-like data unchanged otherwise", () => {
    const sent = { a: [1, "b", null, { c: true }], d: { e: -2.5 } };
    expect(JSON.stringify(ownData(sent))).toBe(JSON.stringify(sent));
    expect(ownData("text")).toBe("text");
    expect(ownRecord([1, 2])).toBeNull();
    expect(ownRecord("text")).toBeNull();
  });
});
