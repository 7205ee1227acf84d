/** rememberedByText (src/api/remembered.ts): each text read once, the memory bounded. */
import { describe, expect, it } from "vitest";
import { rememberedByText } from "../../src/api/remembered";

describe("a reading that remembers its texts", () => {
  it("reads a text once, null and other answers included, and gives the same answer again", () => {
    const read: string[] = [];
    const parse = rememberedByText((text: string) => {
      read.push(text);
      return text === "" ? null : text.length;
    });
    expect([parse("ab"), parse(""), parse("ab"), parse(""), parse("abc")]).toEqual([2, null, 2, null, 3]);
    expect(read).toEqual(["ab", "", "abc"]);
  });

  it("keeps at most `kept` texts, then starts again", () => {
    const read: string[] = [];
    const parse = rememberedByText((text: string) => read.push(text), 2);
    for (const text of ["a", "b", "a", "c", "a"]) parse(text);
    // "c" found the memory full: it started again with "c", so "a" was read a second time.
    expect(read).toEqual(["a", "b", "c", "a"]);
  });
});
