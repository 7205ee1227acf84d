/**
 * A deep copy of the emulator's plain state (sheets, cells, properties, caches, triggers): class
 * instances keep their prototype, Maps, Sets, Dates and arrays (holes included) are copied, an
 * object reached twice is copied once (so `active.sheet` is still one of `sheets`). Functions are
 * shared, not copied; a WeakMap cannot be copied and is refused.
 */
export function cloneState<T>(value: T): T {
  return copy(value, new Map()) as T;
}

function copy(value: unknown, seen: Map<object, unknown>): unknown {
  if (typeof value !== "object" || value === null) return value;
  const known = seen.get(value);
  if (known !== undefined) return known;
  if (value instanceof WeakMap || value instanceof WeakSet)
    throw new TypeError("cloneState: a WeakMap or WeakSet cannot be copied");
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
  // A cell or a rule is an object literal: copied as one, filled by assignment (quicker than
  // defining each property; a property of other attributes, or an accessor, is still defined).
  const out = (prototype === Object.prototype ? {} : Object.create(prototype)) as Record<
    PropertyKey,
    unknown
  >;
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
