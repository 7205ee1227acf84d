/**
 * The journal's approval: any change to the Journal sheet's lines afterwards voids it, and the
 * refusal names what changed; four eyes refuse the marking to the one who approved.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { approve, checkApproval, parseApproval, type SheetLine } from "../../src/close/approval";

const sha = (text: string) => createHash("sha256").update(text).digest("base64");

const LINES: SheetLine[] = [
  { row: 2, voucher: "202611001", cells: ["202611001", "6100", "100.00", ""] },
  { row: 3, voucher: "202611001", cells: ["202611001", "1105", "", "100.00"] },
  { row: 4, voucher: "202611002", cells: ["202611002", "6100", "5.00", ""] },
  { row: 5, voucher: "202611002", cells: ["202611002", "2105", "", "5.00"] },
];
const anyone = { required: false, user: "ana@example.com" };

describe("the approval", () => {
  const approval = approve(LINES, "2026-11", "luis@example.com", "2026-12-01 10:00:00", sha);

  it("lets the unchanged journal be marked, and survives being stored", () => {
    expect(checkApproval(approval, LINES, sha, anyone)).toEqual({ ok: true });
    expect(parseApproval(JSON.stringify(approval))).toEqual(approval);
    expect(parseApproval("{}")).toBeNull();
  });

  it("refuses when nothing was approved", () => {
    expect(checkApproval(null, LINES, sha, anyone)).toEqual({ ok: false, reason: "notApproved" });
  });

  it("is voided by an edited cell, naming the voucher and the row", () => {
    const edited = LINES.map((l) => (l.row === 3 ? { ...l, cells: ["202611001", "1199", "", "100.00"] } : l));
    expect(checkApproval(approval, edited, sha, anyone)).toEqual({
      ok: false,
      reason: "changed",
      changes: [{ code: "lineChanged", voucher: "202611001", row: 3 }],
    });
  });

  it("names lines removed or added and vouchers gone or new", () => {
    const changed: SheetLine[] = [
      LINES[0] as SheetLine,
      { row: 4, voucher: "202611003", cells: ["202611003", "6100", "5.00", ""] },
    ];
    const check = checkApproval(approval, changed, sha, anyone);
    expect(check).toEqual({
      ok: false,
      reason: "changed",
      changes: [
        { code: "linesRemoved", voucher: "202611001", count: 1 },
        { code: "voucherRemoved", voucher: "202611002" },
        { code: "voucherAdded", voucher: "202611003" },
      ],
    });
  });

  it("with four eyes, refuses the marking to the one who approved (and to a user it cannot tell)", () => {
    expect(checkApproval(approval, LINES, sha, { required: true, user: "Luis@Example.com" })).toEqual({
      ok: false,
      reason: "fourEyes",
      approvedBy: "luis@example.com",
    });
    expect(checkApproval(approval, LINES, sha, { required: true, user: "" })).toMatchObject({
      reason: "fourEyes",
    });
    expect(checkApproval(approval, LINES, sha, { required: true, user: "ana@example.com" })).toEqual({
      ok: true,
    });
  });
});
