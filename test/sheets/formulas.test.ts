import { describe, expect, it } from "vitest";
import { columnLetters, columnNumber, moveReferences } from "../../src/sheets/formulas";

const identity = (x: number) => x;
const sheetName = "Funds";

describe("moving references with their row", () => {
  it("maps columns to letters and back", () => {
    for (const n of [1, 26, 27, 52, 702, 703, 18278]) expect(columnNumber(columnLetters(n))).toBe(n);
    expect(columnLetters(28)).toBe("AB");
  });

  it("moves relative and absolute row references the way a row deletion does", () => {
    const row = (r: number) => (r === 3 ? null : r > 3 ? r - 1 : r);
    const maps = { row, column: identity, sheetName };
    expect(moveReferences("=H7*2", maps)).toBe("=H6*2");
    expect(moveReferences("=$H$7+H$2", maps)).toBe("=$H$6+H$2");
    expect(moveReferences("=H3", maps)).toBe("=#REF!");
    expect(moveReferences("=SUM(H2:H10)", maps)).toBe("=SUM(H2:H9)");
    expect(moveReferences("=SUM(H3:H3)", maps)).toBe("=SUM(#REF!)");
  });

  it("moves columns right of an inserted block", () => {
    const column = (c: number) => (c >= 5 ? c + 2 : c);
    const maps = { row: identity, column, sheetName };
    expect(moveReferences("=E2&D2", maps)).toBe("=G2&D2");
    expect(moveReferences("=SUM(E:E)", maps)).toBe("=SUM(G:G)");
  });

  it("leaves strings, functions, other sheets and names alone", () => {
    const maps = { row: (r: number) => r + 10, column: identity, sheetName };
    expect(moveReferences('=CONCAT("A1",A1)', maps)).toBe('=CONCAT("A1",A11)');
    expect(moveReferences("=LOG10(A1)+ATAN2(B2,C3)", maps)).toBe("=LOG10(A11)+ATAN2(B12,C13)");
    expect(moveReferences("=Other!A1+'Other sheet'!B2", maps)).toBe("=Other!A1+'Other sheet'!B2");
    expect(moveReferences("=Funds!A1+'Funds'!B2", maps)).toBe("=Funds!A11+'Funds'!B12");
    expect(moveReferences("=TRUE", maps)).toBe("=TRUE");
    expect(moveReferences("plain A1", maps)).toBe("plain A1");
  });
});
