/**
 * The rules of `google.script.run`, applied on the server side of the emulation:
 * - only top-level functions whose names do not end in "_" can be called;
 * - arguments are primitives, null, and plain objects and arrays of them: a Date, a function or
 *   any other object makes the call fail ("Failed due to illegal value in property: <key>");
 *   `undefined` in an array becomes null, an undefined object member is dropped;
 * - arguments travel as JSON does: a member named "__proto__" arrives as a plain member (it
 *   never becomes the object's prototype), NaN and Infinity as null, -0 as 0;
 * - the result travels the same way, except that an illegal value anywhere in it (a Date is the
 *   usual culprit) makes the page receive null instead of the result.
 */

export class IllegalValueError extends TypeError {
  constructor(readonly property: string) {
    super(`Failed due to illegal value in property: ${property}`);
    this.name = "TypeError";
  }
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  // Objects made in the script's realm have that realm's Object.prototype.
  return proto === null || Object.getPrototypeOf(proto) === null;
}

/** A JSON-like copy of `value`, or IllegalValueError naming the property where it failed. */
export function transportable(value: unknown, property: string): unknown {
  if (value === null || value === undefined) return null;
  const type = typeof value;
  if (type === "string" || type === "boolean") return value;
  if (type === "number") return Number.isFinite(value as number) ? (value as number) + 0 : null;
  if (type !== "object" || Object.prototype.toString.call(value) === "[object Date]") {
    throw new IllegalValueError(property);
  }
  if (Array.isArray(value)) return value.map((item, i) => transportable(item, String(i)));
  if (!isPlainObject(value as object)) throw new IllegalValueError(property);
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value as Record<string, unknown>)) {
    if (member === undefined) continue;
    // defineProperty: a member named "__proto__" is data, not the copy's prototype.
    Object.defineProperty(out, key, {
      value: transportable(member, key),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** Checks the arguments of a call as the page's google.script.run does before sending it. */
export function checkArguments(args: readonly unknown[]): unknown[] {
  return args.map((arg, i) => transportable(arg, String(i)));
}

/** The result as the page receives it: JSON-like, or null if it holds an illegal value. */
export function transportResult(result: unknown): unknown {
  try {
    return transportable(result, "result");
  } catch (err) {
    if (err instanceof IllegalValueError) return null;
    throw err;
  }
}

/** True if google.script.run can call a function of this name. */
export function isCallableFromPage(name: string): boolean {
  return !name.endsWith("_");
}
