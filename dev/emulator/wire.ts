/**
 * Values crossing between an execution's worker thread and the thread holding the shared state
 * (the fakes of the spreadsheet, properties, caches, locks, triggers). A fake never crosses: it
 * stays where it was made and the other side gets a handle, turned into a Proxy whose methods
 * call back synchronously. Dates, enum values, arrays and plain objects are copied (enum values
 * by key, so identity comparisons hold on each side); an HtmlOutput made by the worker's
 * HtmlService crosses as its content.
 */
import { enumByKey, enumKey, isEnumValue } from "./enums";
import { FakeHtmlOutput } from "./html-service";
import { Fake, isDate, type ScriptRealm } from "./realm";

export type Wire =
  | null
  | undefined
  | boolean
  | number
  | string
  | Wire[]
  | { t: "o"; v: Record<string, Wire> }
  | { t: "h"; id: number; c: string }
  | { t: "e"; k: string }
  | { t: "d"; ms: number }
  | { t: "html"; content: string; title: string; width: number; height: number }
  | { t: "raw"; v: unknown };

/** What the worker needs to know of a fake's class: its service name, methods and enum members. */
export interface ClassInfo {
  service: string;
  methods: string[];
  props: Record<string, Wire>;
}

/** An error thrown on the other side, as the script must see it. */
export interface WireError {
  name: string;
  message: string;
  /** The execution was stopped (budget, stopAt): the script keeps failing with it. */
  stopped: boolean;
}

function isPlain(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === null || Object.getPrototypeOf(proto) === null;
}

function plainEntries(value: object, encode: (v: unknown) => Wire): Record<string, Wire> {
  const out: Record<string, Wire> = {};
  for (const [k, v] of Object.entries(value)) {
    Object.defineProperty(out, k, { value: encode(v), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function classInfo(fake: Fake, encode: (v: unknown) => Wire): ClassInfo {
  const methods = new Set<string>();
  for (let proto = Object.getPrototypeOf(fake); proto && proto !== Fake.prototype; ) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name !== "constructor" && typeof Object.getOwnPropertyDescriptor(proto, name)?.value === "function")
        methods.add(name);
    }
    proto = Object.getPrototypeOf(proto);
  }
  // Enum holders (ui.Button, ScriptApp.AuthMode…) are the only data members a script reads.
  const props: Record<string, Wire> = {};
  for (const name of Object.keys(fake)) {
    const value = (fake as unknown as Record<string, unknown>)[name];
    if (/^[A-Z]/.test(name) && typeof value !== "function") props[name] = encode(value);
  }
  return { service: (fake.constructor as typeof Fake).service ?? "Object", methods: [...methods], props };
}

/** The fakes one execution has seen, by handle (the side holding the shared state). */
export class FakeHandles {
  private readonly ids = new Map<object, number>();
  private readonly objects = new Map<number, object>();
  private readonly sent = new Set<string>();
  private nextId = 1;

  get(id: number): object {
    const fake = this.objects.get(id);
    if (!fake) throw new Error(`No object with handle ${id}`);
    return fake;
  }

  /** `value` for the worker; classes it has not seen yet are added to `classes`. */
  encode(value: unknown, classes: Record<string, ClassInfo>): Wire {
    const encode = (v: unknown): Wire => this.encode(v, classes);
    if (value === null || value === undefined || typeof value !== "object") {
      return typeof value === "function" ? undefined : (value as Wire);
    }
    if (value instanceof Fake) {
      let id = this.ids.get(value);
      if (id === undefined) {
        id = this.nextId++;
        this.ids.set(value, id);
        this.objects.set(id, value);
      }
      const c = value.constructor.name;
      if (!this.sent.has(c)) {
        this.sent.add(c);
        classes[c] = classInfo(value, encode);
      }
      return { t: "h", id, c };
    }
    if (isEnumValue(value)) {
      const k = enumKey(value);
      if (k !== undefined) return { t: "e", k };
    }
    if (isDate(value)) return { t: "d", ms: value.getTime() };
    if (Array.isArray(value)) return value.map(encode);
    if (isPlain(value)) return { t: "o", v: plainEntries(value, encode) };
    return { t: "raw", v: value };
  }

  /** A value from the worker, made of this thread's objects. */
  decode(wire: Wire): unknown {
    if (wire === null || wire === undefined || typeof wire !== "object") return wire;
    if (Array.isArray(wire)) return wire.map((w) => this.decode(w));
    switch (wire.t) {
      case "h":
        return this.get(wire.id);
      case "e":
        return enumByKey(wire.k);
      case "d":
        return new Date(wire.ms);
      case "html":
        return new FakeHtmlOutput(wire.content)
          .setTitle(wire.title)
          .setWidth(wire.width)
          .setHeight(wire.height);
      case "o":
        return ownMembers({}, wire.v, (v) => this.decode(v));
      default:
        return wire.v;
    }
  }
}

/** Calls a method of a fake on the other side; returns its encoded result or throws. */
export type RemoteCall = (id: number, method: string, args: Wire[]) => Wire;

/** The worker's side: proxies for the other side's fakes, values re-made in the script's realm. */
export class RemoteObjects {
  private readonly proxies = new Map<number, object>();
  private readonly handleOf = new WeakMap<object, number>();
  private readonly classes = new Map<string, ClassInfo>();

  constructor(
    private readonly realm: ScriptRealm,
    private readonly call: RemoteCall,
    /** The worker's own fake behind a script-side proxy, if `value` is one. */
    private readonly localFake: (value: object) => object | undefined,
  ) {}

  learn(classes: Record<string, ClassInfo>): void {
    for (const [name, info] of Object.entries(classes)) this.classes.set(name, info);
  }

  private proxy(id: number, className: string): object {
    const existing = this.proxies.get(id);
    if (existing) return existing;
    const info = this.classes.get(className);
    if (!info) throw new Error(`Unknown class ${className}`);
    const methods = new Map<string, (...args: unknown[]) => unknown>();
    const props = new Map<string, unknown>();
    for (const [name, value] of Object.entries(info.props)) props.set(name, this.decode(value));
    const known = new Set(info.methods);
    const proxy = new Proxy(
      {},
      {
        get: (target, prop) => {
          if (typeof prop === "string" && known.has(prop)) {
            let method = methods.get(prop);
            if (!method) {
              method = (...args: unknown[]) =>
                this.decode(
                  this.call(
                    id,
                    prop,
                    args.map((a) => this.encode(a)),
                  ),
                );
              methods.set(prop, method);
            }
            return method;
          }
          if (typeof prop === "string" && props.has(prop)) return props.get(prop);
          return Reflect.get(target, prop);
        },
      },
    );
    this.proxies.set(id, proxy);
    this.handleOf.set(proxy, id);
    return proxy;
  }

  /** A value from the other side, made of the script realm's objects. */
  decode(wire: Wire): unknown {
    if (wire === null || wire === undefined || typeof wire !== "object") return wire;
    if (Array.isArray(wire)) return this.realm.Array.from(wire, (w) => this.decode(w));
    switch (wire.t) {
      case "h":
        return this.proxy(wire.id, wire.c);
      case "e":
        return enumByKey(wire.k);
      case "d":
        return this.realm.date(wire.ms);
      case "o":
        return ownMembers(new this.realm.Object() as Record<string, unknown>, wire.v, (v) => this.decode(v));
      default:
        return (wire as { v?: unknown }).v;
    }
  }

  /** A value of the script (or of the worker's own fakes) for the other side. */
  encode(value: unknown): Wire {
    if (value === null || value === undefined || typeof value !== "object") {
      return typeof value === "function" ? undefined : (value as Wire);
    }
    const id = this.handleOf.get(value);
    if (id !== undefined) return { t: "h", id, c: "" };
    // The worker's HtmlService makes HtmlOutputs; the Ui on the other side shows them.
    const local = this.localFake(value);
    if (local instanceof FakeHtmlOutput) {
      const value = local;
      return {
        t: "html",
        content: value.getContent(),
        title: value.getTitle(),
        width: value.getWidth(),
        height: value.getHeight(),
      };
    }
    if (isEnumValue(value)) {
      const k = enumKey(value);
      if (k !== undefined) return { t: "e", k };
    }
    if (isDate(value)) return { t: "d", ms: value.getTime() };
    if (Array.isArray(value)) return value.map((v) => this.encode(v));
    if (isPlain(value)) return { t: "o", v: plainEntries(value, (v) => this.encode(v)) };
    return { t: "raw", v: value };
  }
}

/**
 * Fills `out` with `members`, each decoded, as own data properties: a key such as `__proto__`
 * stays a plain key, as it does when Google copies arguments.
 */
function ownMembers(
  out: Record<string, unknown>,
  members: Record<string, Wire>,
  decode: (v: Wire) => unknown,
): Record<string, unknown> {
  for (const [k, v] of Object.entries(members)) {
    Object.defineProperty(out, k, { value: decode(v), enumerable: true, writable: true, configurable: true });
  }
  return out;
}
