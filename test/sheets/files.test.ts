/** A report's attached file (src/sheets/files.ts): its link whatever the file object looks like. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { filesCell } from "../../src/sheets/columns";
import { describeFile } from "../../src/sheets/files";

const shapes: { shape: string; file: unknown; url: string | null; name: string }[] = JSON.parse(
  readFileSync(new URL("../fixtures/sheets/file-shapes.json", import.meta.url), "utf8"),
);

describe("a report's file, whatever its shape", () => {
  it("takes the original or largest variant's http(s) URL, else any http(s) URL member", () => {
    for (const { shape, file, url, name } of shapes)
      expect({ shape, ...describeFile(file) }).toEqual({ shape, url, name });
  });

  it("names a flat file by the first of Name, FileName, Filename, Title, OriginalName with text, in any case, the last of a name", () => {
    const url = "https://files.example/1";
    expect(describeFile({ name: "a.pdf", Name: "b.pdf", Url: url })).toEqual({ url, name: "b.pdf" });
    expect(describeFile({ Name: "  ", FileName: " c.pdf ", Url: url })).toEqual({ url, name: "c.pdf" });
    expect(describeFile({ TITLE: "t", OriginalName: "o", Url: url })).toEqual({ url, name: "t" });
    expect(describeFile({ Name: 7, Url: url })).toEqual({ url, name: url });
  });

  it("describes an object once, each caller getting a description of its own", () => {
    const file = { Name: "a.pdf", Url: "https://files.example/2" };
    const first = describeFile(file);
    first.name = "changed";
    expect(describeFile(file)).toEqual({ url: "https://files.example/2", name: "a.pdf" });
  });

  it("links only an http(s) URL: javascript:, data: and others leave the name as text", () => {
    for (const { file, url, name } of shapes) {
      const cell = String(filesCell([file], "en"));
      if (url) expect(cell.startsWith(`=HYPERLINK("${url}",`)).toBe(true);
      else expect(cell).toBe(`'${name}`);
    }
  });
});
