/**
 * The account check of a refresh's steps (src/refresh/run/account.ts): with the company's mark,
 * one getFunds of the oldest funds before anything else, in every execution; answers of
 * another account stop the refresh before any sheet, fingerprint or name is written, the
 * message naming the company and what to do, in the user's language. Without a mark, nothing
 * changes.
 */
import { describe, expect, it } from "vitest";
import { type RefreshCursor, runRefreshSteps, startCursor } from "../../src/refresh/engine";
import { OtherAccount } from "../../src/refresh/run/account";
import { otherAccountInWords } from "../../src/refresh/words";
import type { AccountMark } from "../../src/settings/account-mark";
import { accountService, engineOptions, otherMark, ownMark, refreshSetup } from "./fakes";

const options = engineOptions();

function setup(mark?: AccountMark) {
  return refreshSetup(accountService(), options, mark ? { account: { company: "Beta", mark } } : {});
}

const never = () => false;

describe("a refresh checked against the company's account mark", () => {
  it("reads the oldest funds first, then refreshes as without a mark, one request more", () => {
    const plain = setup();
    const unmarked = runRefreshSteps(plain.deps, startCursor("all"), never);
    const marked = setup(ownMark());
    const result = runRefreshSteps(marked.deps, startCursor("all"), never);
    expect(result.finished).toBe(true);
    expect(result.records).toBe(unmarked.records);
    expect(result.requests).toBe(unmarked.requests + 1);
    expect(marked.service.batches[0]).toEqual({ endpoint: "getFunds", size: 1 });
    expect(marked.service.batches.slice(1)).toEqual(plain.service.batches);
    expect(marked.sheets.funds.values).toEqual(plain.sheets.funds.values);
    expect(marked.sheets.reports.values).toEqual(plain.sheets.reports.values);
  });

  it("writes nothing when the answers are another account's, naming the company and what to do", () => {
    const { service, sheets, store, deps } = setup(otherMark());
    let thrown: unknown;
    try {
      runRefreshSteps(deps, startCursor("all"), never);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(OtherAccount);
    expect((thrown as Error).message).toBe(
      "The token saved for Beta opens another account than Beta's: Beta's oldest fund 1 (2020-02-02 09:00:00, IdCreator 2001) is not in it as marked, so nothing of Beta was written. Save Beta's own token in Settings → Connection; if Beta's account really was reset, take its account mark again there (\"Take the account mark again\" on Beta's card).",
    );
    // The one read made is the check's; no sheet written, no fingerprint kept.
    expect(service.batches).toEqual([{ endpoint: "getFunds", size: 1 }]);
    expect(Object.values(sheets).every((s) => s.writes === 0)).toBe(true);
    expect(store.data.size).toBe(0);
  });

  it("says so in Spanish for a Spanish user", () => {
    const { deps } = setup(otherMark());
    let thrown: unknown;
    try {
      runRefreshSteps(deps, startCursor("funds"), never);
    } catch (err) {
      thrown = err;
    }
    expect(() => {
      throw otherAccountInWords(thrown, "es");
    }).toThrow(
      /^El token guardado para Beta abre otra cuenta que la de Beta: el fondo más antiguo de Beta, 1 \(2020-02-02 09:00:00, IdCreator 2001\), no está en ella como se marcó, así que no se escribió nada de Beta\. Guarde el token propio de Beta en Configuración → Conexión; si la cuenta de Beta de verdad se reinició, vuelva a tomar allí su marca de cuenta/,
    );
  });

  it("checks again in each execution of a continued refresh, before its first write", () => {
    const first = setup(ownMark());
    // Time is up after the third batch: the refresh pauses with a cursor.
    let batches = 0;
    const paused = runRefreshSteps(
      { ...first.deps, onStep: () => batches++ },
      startCursor("all"),
      () => batches >= 3,
    );
    expect(paused.finished).toBe(false);
    const cursor = paused.cursor as RefreshCursor;
    const writes = Object.fromEntries(Object.entries(first.sheets).map(([k, s]) => [k, s.writes]));
    const fingerprints = new Map(first.store.data);
    // The token now opens another account: the continuation writes nothing.
    const next = { ...first.deps, account: { company: "Beta", mark: otherMark() } };
    first.service.batches = [];
    expect(() => runRefreshSteps(next, cursor, never)).toThrow(OtherAccount);
    expect(first.service.batches).toEqual([{ endpoint: "getFunds", size: 1 }]);
    expect(Object.fromEntries(Object.entries(first.sheets).map(([k, s]) => [k, s.writes]))).toEqual(writes);
    expect(first.store.data).toEqual(fingerprints);
    // With the account's own mark it goes on to the end.
    expect(runRefreshSteps(first.deps, cursor, never).finished).toBe(true);
  });

  it("makes progress in an execution whose time is up from the start: the check is not progress", () => {
    const { deps } = setup(ownMark());
    const result = runRefreshSteps(deps, startCursor("funds"), () => true);
    // The funds stage ran (its first batch at least) rather than pausing after the check alone.
    expect(result.requests).toBeGreaterThan(1);
  });
});
