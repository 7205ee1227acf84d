/**
 * The values crossing between an execution's thread and the emulator's (wire.ts): fakes stay
 * where they are and cross as handles, enum values keep their identity, Dates and plain data
 * are copied, and an HtmlOutput made on the execution's side crosses as its content.
 */
import vm from "node:vm";
import { describe, expect, it } from "vitest";
import { enumByKey, enumKey, makeEnum } from "../../dev/emulator/enums";
import { FakeHtmlOutput } from "../../dev/emulator/html-service";
import { Fake, type ScriptRealm } from "../../dev/emulator/realm";
import { type ClassInfo, FakeHandles, RemoteObjects, type Wire } from "../../dev/emulator/wire";

const COLOUR = makeEnum(["RED", "GREEN"]);

class FakeThing extends Fake {
  static override readonly service = "Thing";
  readonly Colour = COLOUR;
  private count = 0;
  add(n: number): number {
    this.count += n;
    return this.count;
  }
  self(): FakeThing {
    return this;
  }
  when(): Date {
    return new Date(86_400_000);
  }
  colour(): unknown {
    return COLOUR.GREEN;
  }
}

/** The script's realm: a node:vm context's own Array, Object, Error and Date. */
function scriptRealm(): ScriptRealm {
  const context = vm.createContext({});
  return vm.runInContext(
    "({ Array: Array, Object: Object, Error: Error, date: function (ms) { return new Date(ms); } })",
    context,
  ) as ScriptRealm;
}

/** Both sides in one thread: calls go straight from the proxies to the handles. */
function pair() {
  const handles = new FakeHandles();
  const thing = new FakeThing();
  const classes: Record<string, ClassInfo> = {};
  const handle = handles.encode(thing, classes);
  const calls: string[] = [];
  let remote: RemoteObjects;
  const realm = scriptRealm();
  remote = new RemoteObjects(
    realm,
    (id, method, args) => {
      calls.push(method);
      const target = handles.get(id) as unknown as Record<string, (...a: unknown[]) => unknown>;
      const sent: Record<string, ClassInfo> = {};
      const value = handles.encode(target[method]?.(...args.map((a) => handles.decode(a))), sent);
      remote.learn(sent);
      return value;
    },
    () => undefined,
  );
  remote.learn(classes);
  return { thing, handle, remote, handles, calls, realm };
}

describe("values between an execution's thread and the emulator's", () => {
  it("a fake crosses as a handle: one proxy per fake, whose methods call the fake itself", () => {
    const { thing, handle, remote, calls } = pair();
    expect(handle).toEqual({ t: "h", id: 1, c: "FakeThing" });
    const proxy = remote.decode(handle) as FakeThing;
    expect(proxy.add(2)).toBe(2);
    expect(proxy.add(3)).toBe(5);
    expect(thing.add(0)).toBe(5);
    expect(proxy.self()).toBe(proxy);
    expect(remote.encode(proxy)).toEqual({ t: "h", id: 1, c: "" });
    expect(calls).toEqual(["add", "add", "self"]);
  });

  it("enum values keep their identity, and Dates and arrays are the script realm's own", () => {
    const { handle, remote, realm } = pair();
    const proxy = remote.decode(handle) as FakeThing;
    expect(proxy.colour()).toBe(proxy.Colour.GREEN);
    expect(proxy.colour()).toBe(COLOUR.GREEN);
    expect(String(proxy.Colour.RED)).toBe("RED");
    const when = proxy.when();
    expect(when).toBeInstanceOf(realm.date(0).constructor as DateConstructor);
    expect(when).not.toBeInstanceOf(Date);
    expect(when.getTime()).toBe(86_400_000);
    const list = remote.decode([1, { t: "o", v: { a: "x" } }] as Wire) as unknown[];
    expect(list).toBeInstanceOf(realm.Array);
    expect(list[1]).toBeInstanceOf(realm.Object);
  });

  it("an enum value this thread has no enum for is made once per key", () => {
    const key = "NORTH,SOUTH.SOUTH";
    const made = enumByKey(key);
    expect(String(made)).toBe("SOUTH");
    expect(enumByKey(key)).toBe(made);
    expect(enumKey(made)).toBe(key);
    expect(enumKey(COLOUR.RED)).toBe("RED,GREEN.RED");
  });

  it("an HtmlOutput made on the execution's side crosses as its content", () => {
    const output = new FakeHtmlOutput("<p>hi</p>").setTitle("Fund").setWidth(300);
    const wrapped = { output };
    const remote = new RemoteObjects(
      scriptRealm(),
      () => undefined,
      (v) => (v === wrapped ? output : undefined),
    );
    const wire = remote.encode(wrapped);
    expect(wire).toEqual({ t: "html", content: "<p>hi</p>", title: "Fund", width: 300, height: 400 });
    const back = new FakeHandles().decode(wire) as FakeHtmlOutput;
    expect(back).toBeInstanceOf(FakeHtmlOutput);
    expect([back.getContent(), back.getTitle(), back.getWidth()]).toEqual(["<p>hi</p>", "Fund", 300]);
  });
});
