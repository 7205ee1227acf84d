/**
 * The argument rules of `google.script.run`: primitives, `null`, and plain objects and arrays of
 * them travel; a Date, a function, a DOM node or any other object makes the call fail before it
 * leaves the page, with Google's message. `undefined` inside arrays becomes `null`, and an object
 * member that is `undefined` is dropped. A form element is allowed as the only argument and
 * travels as its fields' values.
 */
import { transportable } from "../emulator/script-run";

/** Thrown synchronously by the call, as Google's client does. */
export { IllegalValueError as IllegalArgumentError } from "../emulator/script-run";

/**
 * A JSON-like copy of one argument, or an IllegalArgumentError naming where it went wrong: the
 * emulator's own copy (dev/emulator/script-run.ts), so the page and `emulator.run` agree.
 */
export function toTransportable(value: unknown, path: string): unknown {
  return transportable(value, path);
}

/** The values of a form's named fields, as Google sends a form element. */
export function formValues(form: HTMLFormElement): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const element of Array.from(form.elements)) {
    const field = element as HTMLInputElement;
    if (!field.name || field.disabled) continue;
    if ((field.type === "checkbox" || field.type === "radio") && !field.checked) continue;
    const previous = Object.hasOwn(out, field.name) ? out[field.name] : undefined;
    const value =
      previous === undefined
        ? field.value
        : Array.isArray(previous)
          ? [...previous, field.value]
          : [previous, field.value];
    // A field named "__proto__" is a field like any other.
    Object.defineProperty(out, field.name, { value, enumerable: true, writable: true, configurable: true });
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
