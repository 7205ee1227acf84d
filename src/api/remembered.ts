/**
 * A reading of texts that reads each text once in an execution: a refresh meets the same few
 * hundred days in thousands of members and cells. At most `kept` texts are kept; past that the
 * memory starts again. `read` must give the same for the same text, and what it gives is shared
 * by every caller: never changed.
 */
export function rememberedByText<T>(read: (text: string) => T, kept = 20_000): (text: string) => T {
  const seen = new Map<string, T>();
  return (text) => {
    if (seen.has(text)) return seen.get(text) as T;
    if (seen.size >= kept) seen.clear();
    const value = read(text);
    seen.set(text, value);
    return value;
  };
}
