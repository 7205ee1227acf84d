/**
 * The account mark (src/settings/account-mark.ts): taken from the oldest funds, compared with
 * what a token reads, stored without token or amount, read back tolerantly.
 */
import { describe, expect, it } from "vitest";
import {
  accountMarksFrom,
  accountMarksText,
  checkAccount,
  MARK_QUERY,
  markOf,
} from "../../src/settings/account-mark";

const fund = (id: number, createdAt: string, idCreator: number) => ({ id, createdAt, idCreator });
const ALPHA = [
  fund(5001, "2023-01-02 10:00:00", 1001),
  fund(5002, "2023-01-03 11:00:00", 1001),
  fund(5003, "2023-02-01 09:00:00", 1002),
];
const BETA = [fund(5001, "2023-01-05 08:30:00", 2001), fund(5002, "2023-01-06 12:00:00", 2001)];

describe("the account mark", () => {
  it("is the oldest funds asked for (creation date, ascending), at most three, Id, CreatedAt, IdCreator", () => {
    expect(MARK_QUERY).toEqual({ OrderBy: 1, Order: "ASC", ResultsPerPage: 3 });
    const mark = markOf([...ALPHA, fund(5004, "2023-03-01 09:00:00", 1001)], 7);
    expect(mark).toEqual({
      at: 7,
      funds: [
        { id: 5001, createdAt: "2023-01-02 10:00:00", creator: 1001 },
        { id: 5002, createdAt: "2023-01-03 11:00:00", creator: 1001 },
        { id: 5003, createdAt: "2023-02-01 09:00:00", creator: 1002 },
      ],
    });
    expect(markOf([], 7)).toBeNull();
  });

  it("another account's funds of the same Ids are another account; the same account's are the same", () => {
    const mark = markOf(ALPHA, 1);
    expect(checkAccount(mark, ALPHA)).toEqual({ kind: "same" });
    expect(checkAccount(mark, [...ALPHA, fund(5009, "2024-01-01 00:00:00", 1001)])).toEqual({ kind: "same" });
    expect(checkAccount(mark, BETA)).toMatchObject({ kind: "other", missing: { id: 5001, creator: 1001 } });
    expect(checkAccount(mark, [])).toMatchObject({ kind: "other" });
    expect(checkAccount(null, BETA)).toEqual({ kind: "unmarked" });
  });

  it("is stored as JSON per company key and read back; what cannot be read is left out", () => {
    const marks = { c0: markOf(ALPHA, 1) as NonNullable<ReturnType<typeof markOf>> };
    expect(accountMarksFrom(accountMarksText(marks))).toEqual(marks);
    expect(accountMarksFrom(null)).toEqual({});
    expect(accountMarksFrom("{not json")).toEqual({});
    expect(accountMarksFrom(JSON.stringify({ c0: { funds: "x" }, "bad key": marks.c0 }))).toEqual({});
  });
});
