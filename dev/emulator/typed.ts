/**
 * `Implements<T, K>`: the members `K` of an Apps Script interface `T`, with the same parameter
 * types. Return types that are other Apps Script classes are loosened (a fake returns a fake),
 * primitives and arrays are kept, so a wrong signature of a fake fails to compile.
 */
// void is there for methods that return nothing.
// biome-ignore lint/suspicious/noConfusingVoidType: matches `void` return types.
type Primitive = string | number | boolean | void | null | undefined;
type Loose<R> = R extends Primitive
  ? R
  : R extends readonly (infer E)[]
    ? E extends Primitive | readonly Primitive[]
      ? R
      : unknown[]
    : unknown;

export type Implements<T, K extends keyof T> = {
  [P in K]: T[P] extends (...args: infer A) => infer R ? (...args: A) => Loose<R> : T[P];
};
