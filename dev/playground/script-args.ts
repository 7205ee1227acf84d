/**
 * The argument rules of `google.script.run`: primitives, `null`, and plain objects and arrays of
 * them travel; a Date, a function, a DOM node or any other object makes the call fail before it
 * leaves the page, with Google's message. `undefined` inside arrays becomes `null`, and an object
 * member that is `undefined` is dropped. A form element is allowed as the only argument and
 * travels as its fields' values.
 */

/** Thrown synchronously by the call, as Google's client does. */
export class IllegalArgumentError extends TypeError {
  constructor(path: string) {
    super(`Failed due to illegal value in property: ${path}`);
    this.name = "TypeError";
  }
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === null || proto === Object.prototype || Object.getPrototypeOf(proto) === null;
}

/** A JSON-like copy of one argument, or an IllegalArgumentError naming where it went wrong. */
export function toTransportable(value: unknown, path: string): unknown {
  if (value === null || value === undefined) return null;
  const type = typeof value;
  if (type === "string" || type === "boolean") return value;
  // As JSON carries numbers: no NaN or Infinity, and -0 arrives as 0.
  if (type === "number") return Number.isFinite(value as number) ? (value as number) + 0 : null;
  if (type !== "object") throw new IllegalArgumentError(path);
  if (Array.isArray(value)) return value.map((item, i) => toTransportable(item, String(i)));
  if (!isPlainObject(value as object)) throw new IllegalArgumentError(path);
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value as Record<string, unknown>)) {
    if (member === undefined) continue;
    // defineProperty: a member named "__proto__" is data, not the object's prototype.
    Object.defineProperty(out, key, {
      value: toTransportable(member, key),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** The values of a form's named fields, as Google sends a form element. */
export function formValues(form: HTMLFormElement): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const element of Array.from(form.elements)) {
    const field = element as HTMLInputElement;
    if (!field.name || field.disabled) continue;
    if ((field.type === "checkbox" || field.type === "radio") && !field.checked) continue;
    const previous = out[field.name];
    if (previous === undefined) out[field.name] = field.value;
    else out[field.name] = Array.isArray(previous) ? [...previous, field.value] : [previous, field.value];
  }
  return out;
}

function isFormElement(value: unknown): value is HTMLFormElement {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { nodeName?: unknown }).nodeName === "FORM" &&
    "elements" in (value as object)
  );
}

/** Checks and copies the arguments of one call. Throws IllegalArgumentError synchronously. */
export function checkScriptArguments(args: readonly unknown[]): unknown[] {
  if (args.length === 1 && isFormElement(args[0])) return [formValues(args[0])];
  return args.map((arg, i) => toTransportable(arg, String(i)));
}
