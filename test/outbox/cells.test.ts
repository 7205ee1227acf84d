import { describe, expect, it } from "vitest";
import { readFlag } from "../../src/outbox/cells";

describe("readFlag: yes/no cells in either language", () => {
  it("reads checkboxes, Yes/No and Sí/No, and leaves a blank flag unset", () => {
    expect(readFlag(true, "FundFlexibility")).toEqual({ ok: true, value: true });
    expect(readFlag("Sí", "FundFlexibility")).toEqual({ ok: true, value: true });
    expect(readFlag("si", "FundFlexibility")).toEqual({ ok: true, value: true });
    expect(readFlag("Yes", "FundFlexibility")).toEqual({ ok: true, value: true });
    expect(readFlag("No", "FundFlexibility")).toEqual({ ok: true, value: false });
    expect(readFlag(false, "FundFlexibility")).toEqual({ ok: true, value: false });
    expect(readFlag("", "FundFlexibility")).toEqual({ ok: true, value: undefined });
  });

  it("refuses anything else, naming the field", () => {
    expect(readFlag("maybe", "FundFlexibility")).toEqual({
      ok: false,
      message: "FundFlexibility: must be Yes or No",
    });
  });
});
