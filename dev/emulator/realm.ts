/**
 * The border between the script's realm (the node:vm context) and the fakes (Node). Every
 * service object handed to the script is a Proxy whose methods first pass the runtime's checks
 * (time budget, stop points, AuthMode, OAuth scopes) and whose results and errors are re-made
 * with the script's own constructors, so `instanceof Date`, `instanceof Error` and
 * `Array.isArray` behave there as in Apps Script.
 */
import vm from "node:vm";
import { isEnumValue } from "./enums";
import { ServiceError } from "./errors";

/** Base class of every fake object a script may hold; `service` names it in permission errors. */
// biome-ignore lint/complexity/noStaticOnlyClass: a base class, checked with instanceof at the realm border.
export abstract class Fake {
  static readonly service: string = "Object";
}

/** Constructors of the script's realm, made by the context's prelude. */
export interface ScriptRealm {
  Array: ArrayConstructor;
  Object: ObjectConstructor;
  Error: ErrorConstructor;
  date(epochMs: number): Date;
  /** The rows of a grid (arrays of arrays) as arrays of the script's realm; members as they are. */
  rows(grid: readonly (readonly unknown[])[]): unknown[][];
}

export interface ServiceCallHook {
  /** Called before every method call of a fake: throws to refuse or stop the call. */
  beforeCall(service: string, method: string): void;
  /** Turns an error thrown by a fake into what the script should see (and may record it). */
  onError(error: unknown): unknown;
}

/** True for a non-empty array of this realm whose members are all arrays of this realm. */
function isGrid(value: unknown[]): value is unknown[][] {
  if (value.length === 0) return false;
  // biome-ignore lint/suspicious/useIsArray: the realm is exactly what is being tested here.
  for (const row of value) if (!(row instanceof Array)) return false;
  return true;
}

/** True for a Date of any realm. */
export function isDate(value: unknown): value is Date {
  return Object.prototype.toString.call(value) === "[object Date]";
}

export class Bridge {
  private readonly proxies = new WeakMap<object, object>();
  private readonly fakes = new WeakMap<object, object>();

  constructor(
    private readonly realm: ScriptRealm,
    private readonly hook: ServiceCallHook,
  ) {}

  /** The script-side face of a fake (one Proxy per fake, so identity comparisons hold). */
  wrap<T extends object>(fake: T, serviceName?: string): T {
    const existing = this.proxies.get(fake);
    if (existing) return existing as T;
    const service = serviceName ?? (fake.constructor as typeof Fake).service ?? "Object";
    const methods = new Map<PropertyKey, (...args: unknown[]) => unknown>();
    const proxy = new Proxy(fake, {
      get: (target, prop) => {
        const value = Reflect.get(target, prop, target) as unknown;
        if (typeof value === "function" && typeof prop === "string" && prop !== "constructor") {
          let method = methods.get(prop);
          if (!method) {
            const fn = value as (...args: unknown[]) => unknown;
            method = (...args: unknown[]) => this.call(target, service, prop, fn, args);
            methods.set(prop, method);
          }
          return method;
        }
        return value instanceof Fake ? this.wrap(value) : value;
      },
    });
    this.proxies.set(fake, proxy);
    this.fakes.set(proxy, fake);
    return proxy;
  }

  /** The fake behind a proxy made by wrap(), if `value` is one. */
  fakeOf(value: object): object | undefined {
    return this.fakes.get(value);
  }

  private call(
    target: object,
    service: string,
    method: string,
    fn: (...args: unknown[]) => unknown,
    args: unknown[],
  ): unknown {
    try {
      this.hook.beforeCall(service, method);
      return this.toScript(fn.apply(target, args));
    } catch (error) {
      throw this.toScriptError(this.hook.onError(error));
    }
  }

  /** A value made by the fakes, re-made in the script's realm (fakes become their proxies). */
  toScript(value: unknown): unknown {
    if (value === null || typeof value !== "object") return value;
    if (value instanceof Fake) return this.wrap(value);
    if (isEnumValue(value)) return value;
    if (value instanceof Date) return this.realm.date(value.getTime());
    // Only arrays made by the fakes (this realm) need re-making; the script's own pass as they are.
    // biome-ignore lint/suspicious/useIsArray: the realm is exactly what is being tested here.
    if (value instanceof Array) {
      // A grid (a range's values, formats…): its rows copied inside the script's realm, then
      // only the members that are objects (dates) re-made.
      if (isGrid(value)) {
        const rows = this.realm.rows(value);
        for (const row of rows)
          for (let j = 0; j < row.length; j++) {
            const item = row[j];
            if (item !== null && typeof item === "object") row[j] = this.toScript(item);
          }
        return rows;
      }
      // Copied whole, then only the members that are objects re-made: a sheet's values are
      // millions of strings and numbers, which need no call each.
      const out = this.realm.Array.from(value);
      for (let i = 0; i < out.length; i++) {
        const item = out[i];
        if (item !== null && typeof item === "object") out[i] = this.toScript(item);
      }
      return out;
    }
    if (Object.getPrototypeOf(value) === Object.prototype) {
      const out = new this.realm.Object() as Record<string, unknown>;
      // defineProperty: a member named "__proto__" stays a member, as it arrived.
      for (const [k, v] of Object.entries(value)) {
        Object.defineProperty(out, k, {
          value: this.toScript(v),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
    return value;
  }

  /** An error the script can catch: an `Error` of its realm, named "Exception" for services. */
  toScriptError(error: unknown): unknown {
    if (!(error instanceof Error)) return error;
    const scriptError = new this.realm.Error(error.message);
    scriptError.name = error instanceof ServiceError ? "Exception" : error.name;
    return scriptError;
  }
}

/**
 * The global names of Apps Script's V8 runtime: ECMAScript 2020's built-ins
 * (docs/real-apps-script.md, "The runtime level"). A node:vm context also offers WeakRef, FinalizationRegistry, AggregateError,
 * SharedArrayBuffer, WebAssembly and V8's console; restrictToAppsScriptRuntime takes them away
 * (the emulator adds its own console and the services afterwards).
 */
export const ES2020_GLOBALS: readonly string[] = [
  "globalThis",
  "undefined",
  "NaN",
  "Infinity",
  "eval",
  "isFinite",
  "isNaN",
  "parseFloat",
  "parseInt",
  "decodeURI",
  "decodeURIComponent",
  "encodeURI",
  "encodeURIComponent",
  "escape",
  "unescape",
  "Object",
  "Function",
  "Array",
  "Number",
  "Boolean",
  "String",
  "Symbol",
  "BigInt",
  "Date",
  "Promise",
  "RegExp",
  "Error",
  "EvalError",
  "RangeError",
  "ReferenceError",
  "SyntaxError",
  "TypeError",
  "URIError",
  "JSON",
  "Math",
  "Intl",
  "Reflect",
  "Proxy",
  "Map",
  "Set",
  "WeakMap",
  "WeakSet",
  "ArrayBuffer",
  "DataView",
  "Atomics",
  "Int8Array",
  "Uint8Array",
  "Uint8ClampedArray",
  "Int16Array",
  "Uint16Array",
  "Int32Array",
  "Uint32Array",
  "Float32Array",
  "Float64Array",
  "BigInt64Array",
  "BigUint64Array",
];

/**
 * Members newer than ES2020 that V8 puts on those built-ins (ES2021 to ES2025), by owner;
 * restrictToAppsScriptRuntime deletes them from the context's own intrinsics.
 */
export const NEWER_MEMBERS: Readonly<Record<string, readonly string[]>> = {
  Array: ["fromAsync"],
  "Array.prototype": ["at", "findLast", "findLastIndex", "toReversed", "toSorted", "toSpliced", "with"],
  "TypedArray.prototype": ["at", "findLast", "findLastIndex", "toReversed", "toSorted", "with"],
  "String.prototype": ["at", "replaceAll", "isWellFormed", "toWellFormed"],
  Object: ["hasOwn", "groupBy"],
  Map: ["groupBy"],
  Promise: ["any", "withResolvers", "try"],
  "ArrayBuffer.prototype": [
    "resize",
    "resizable",
    "maxByteLength",
    "transfer",
    "transferToFixedLength",
    "detached",
  ],
  "Set.prototype": [
    "union",
    "intersection",
    "difference",
    "symmetricDifference",
    "isSubsetOf",
    "isSupersetOf",
    "isDisjointFrom",
  ],
  Atomics: ["waitAsync", "pause"],
  Symbol: ["dispose", "asyncDispose"],
  RegExp: ["escape"],
  Error: ["isError"],
  Math: ["f16round", "sumPrecise"],
  JSON: ["rawJSON", "isRawJSON"],
};

/**
 * Runs inside the context, so that it deletes from the context's own built-ins (a node:vm
 * context has its own intrinsics; Node's stay untouched). Throws if anything stays.
 */
const RESTRICT_SOURCE = `(function (allowed, newer) {
  var g = globalThis;
  var owners = {
    Array: Array,
    "Array.prototype": Array.prototype,
    "TypedArray.prototype": Object.getPrototypeOf(Int8Array.prototype),
    "String.prototype": String.prototype,
    Object: Object,
    Map: Map,
    Promise: Promise,
    "ArrayBuffer.prototype": ArrayBuffer.prototype,
    "Set.prototype": Set.prototype,
    Atomics: Atomics,
    Symbol: Symbol,
    RegExp: RegExp,
    Error: Error,
    Math: Math,
    JSON: JSON
  };
  var left = [];
  Object.getOwnPropertyNames(g).forEach(function (name) {
    if (allowed.indexOf(name) < 0 && !delete g[name]) left.push(name);
  });
  Object.keys(newer).forEach(function (owner) {
    newer[owner].forEach(function (name) {
      if (!delete owners[owner][name] || name in owners[owner]) left.push(owner + "." + name);
    });
  });
  if (left.length > 0) throw new Error("could not remove " + left.join(", "));
})`;

/**
 * Leaves in `context` (a fresh node:vm context) only what Apps Script's V8 offers: the ES2020
 * globals, without the newer members V8 adds to them.
 */
export function restrictToAppsScriptRuntime(context: vm.Context): void {
  const restrict = realmScripts().restrict.runInContext(context) as (
    allowed: readonly string[],
    newer: Readonly<Record<string, readonly string[]>>,
  ) => void;
  // Plain data of the context's realm, so that the script reads its own arrays.
  restrict(realmScripts().allowed.runInContext(context), realmScripts().newer.runInContext(context));
}

/**
 * The scripts every execution's realm runs, compiled once per thread: a compiled script runs in
 * any context, so each realm still gets its own objects from them, without a compilation each.
 */
let compiledScripts:
  | { restrict: vm.Script; allowed: vm.Script; newer: vm.Script; call: vm.Script }
  | undefined;

function realmScripts(): NonNullable<typeof compiledScripts> {
  compiledScripts ??= {
    restrict: new vm.Script(RESTRICT_SOURCE),
    allowed: new vm.Script(`(${JSON.stringify(ES2020_GLOBALS)})`),
    newer: new vm.Script(`(${JSON.stringify(NEWER_MEMBERS)})`),
    call: new vm.Script(
      "(function (c) { return globalThis[c.name].apply(globalThis, c.args); })(__emulatorCall)",
      {
        filename: "execution",
      },
    ),
  };
  return compiledScripts;
}

/**
 * Calls the function an execution runs, `__emulatorCall.name` with `__emulatorCall.args` (set on
 * the context's global beforehand), inside `context`, stopped after `timeoutMs` of real time.
 */
export function callInRealm(context: vm.Context, timeoutMs: number): unknown {
  return realmScripts().call.runInContext(context, { timeout: timeoutMs });
}
