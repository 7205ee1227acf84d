/**
 * Apps Script enums are objects, not numbers: `String(ScriptApp.AuthMode.FULL)` is "FULL" and
 * values are compared by identity. Each value here is one frozen object per emulator.
 */
export interface EnumValue {
  readonly name: string;
  toString(): string;
  toJSON(): string;
}

export type EnumOf<K extends string> = { readonly [P in K]: EnumValue };

function enumValue(name: string): EnumValue {
  return Object.freeze({
    name,
    toString: () => name,
    toJSON: () => name,
  });
}

export function makeEnum<K extends string>(names: readonly K[]): EnumOf<K> {
  const out = {} as Record<K, EnumValue>;
  for (const name of names) {
    out[name] = enumValue(name);
    const key = `${names.join(",")}.${name}`;
    keyOfValue.set(out[name], key);
    if (!valueOfKey.has(key)) valueOfKey.set(key, out[name]);
  }
  return registerEnum(Object.freeze(out));
}

// Enum values cross between threads by key ("<all names of the enum>.<name>"); each thread maps
// a key to one value of its own, so identity comparisons hold on either side.
const keyOfValue = new WeakMap<object, string>();
const valueOfKey = new Map<string, EnumValue>();

/** The key of an enum value, to send it to another thread. */
export function enumKey(value: object): string | undefined {
  return keyOfValue.get(value);
}

/** This thread's enum value for a key (made on first use when this thread has no such enum). */
export function enumByKey(key: string): EnumValue {
  let value = valueOfKey.get(key);
  if (!value) {
    value = enumValue(key.slice(key.lastIndexOf(".") + 1));
    keyOfValue.set(value, key);
    enumValues.add(value);
    valueOfKey.set(key, value);
  }
  return value;
}

/** The name of an enum value given by a script, or undefined if it is not one of ours. */
export function enumName(value: unknown): string | undefined {
  if (value && typeof value === "object" && typeof (value as EnumValue).name === "string")
    return (value as EnumValue).name;
  return undefined;
}

const enumValues = new WeakSet<object>();

/** Registers the values of an enum so that the realm border passes them by identity. */
export function registerEnum<K extends string>(e: EnumOf<K>): EnumOf<K> {
  for (const v of Object.values(e) as object[]) enumValues.add(v);
  return e;
}

export function isEnumValue(value: object): boolean {
  return enumValues.has(value);
}
