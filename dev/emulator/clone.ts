/**
 * A deep copy of the emulator's plain state (sheets, cells, properties, caches, triggers): class
 * instances keep their prototype and their properties' attributes, object literals their own
 * enumerable data, Maps, Sets, Dates and arrays (holes included) are copied, an object reached
 * twice is copied once (so `active.sheet` is still one of `sheets`). Functions are
 * shared, not copied; a WeakMap cannot be copied and is refused.
 */
export function cloneState<T>(value: T): T {
  return copy(value, new Map()) as T;
}

/**
 * A class whose instances hold many plain objects (a sheet's cells) can copy itself faster than
 * key by key: cloneState calls `[COPY_SELF](member, register)`, where `register(copy)` must come
 * first (an object reached again inside is then the copy) and `member(value)` copies a member
 * as cloneState would.
 */
export const COPY_SELF = Symbol("cloneState.copySelf");

export interface CopiesItself {
  [COPY_SELF](member: (value: unknown) => unknown, register: (copy: object) => void): object;
}

function copy(value: unknown, seen: Map<object, unknown>): unknown {
  if (typeof value !== "object" || value === null) return value;
  const known = seen.get(value);
  if (known !== undefined) return known;
  if (value instanceof WeakMap || value instanceof WeakSet)
    throw new TypeError("cloneState: a WeakMap or WeakSet cannot be copied");
  if (COPY_SELF in value) {
    return (value as CopiesItself)[COPY_SELF](
      (member) => copy(member, seen),
      (made) => seen.set(value, made),
    );
  }
  if (value instanceof Date) {
    const date = new Date(value.getTime());
    seen.set(value, date);
    return date;
  }
  if (value instanceof Map) {
    const map = new Map();
    seen.set(value, map);
    for (const [k, v] of value) map.set(copy(k, seen), copy(v, seen));
    return map;
  }
  if (value instanceof Set) {
    const set = new Set();
    seen.set(value, set);
    for (const v of value) set.add(copy(v, seen));
    return set;
  }
  if (Array.isArray(value)) {
    const length = value.length;
    const array: unknown[] = new Array(length);
    seen.set(value, array);
    // Only the indices present: a sparse row stays sparse.
    for (let i = 0; i < length; i++) if (i in value) array[i] = copy(value[i], seen);
    return array;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype === Object.prototype) {
    // A cell, a style or a rule: an object literal of plain data (the emulator defines no
    // accessor, symbol or hidden property on one), copied key by key: a sheet holds tens of
    // thousands of them.
    const literal: Record<string, unknown> = {};
    seen.set(value, literal);
    for (const key of Object.keys(value)) literal[key] = copy((value as Record<string, unknown>)[key], seen);
    return literal;
  }
  // An instance of a class: every own property with its attributes (an accessor is defined as
  // it was, a plain data property filled by assignment).
  const out = Object.create(prototype) as Record<PropertyKey, unknown>;
  seen.set(value, out);
  for (const key of Reflect.ownKeys(value)) {
    const descriptor = Object.getOwnPropertyDescriptor(value, key) as PropertyDescriptor;
    if (!("value" in descriptor)) Object.defineProperty(out, key, descriptor);
    else if (descriptor.writable && descriptor.enumerable && descriptor.configurable)
      out[key] = copy(descriptor.value, seen);
    else Object.defineProperty(out, key, { ...descriptor, value: copy(descriptor.value, seen) });
  }
  return out;
}
