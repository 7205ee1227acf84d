/**
 * A token of the wrong account in the Outbox, against a sandbox of two companies whose fund ids
 * overlap: Beta is marked (Ana tested its connection), and Luis's token for Beta is Alpha's,
 * saved before tokens were checked against the mark. Luis's run sends nothing with it and
 * settles nothing by reading Alpha's fund of the same Id: Beta's rows wait, saying why, and
 * Ana's run, with Beta's own token, settles and sends them. Neither ledger ever gets the
 * other's deposit.
 */
import { describe, expect, it } from "vitest";
import { storeOf, storeToken } from "../../dev/emulator/settings";
import { IN_FLIGHT_WINDOW_MS } from "../../src/outbox/records";
import { ACCOUNT_MARKS_KEY, accountMarksFrom } from "../../src/settings/account-mark";
import { addBeta, BETA_KEY, companyOf, saveTokenOf, twoCompanyWriteBack } from "../support/two-companies";
import { ok } from "./harness";

const LUIS = "luis@example.com";
const { wb, betaFaults, deposits, sharedFundDeposits } = twoCompanyWriteBack([LUIS]);

/**
 * Beta added; Ana's tokens right, Beta marked by her connection test; Luis's token for Alpha
 * right and for Beta Alpha's, written past the check (as a token saved before it existed).
 */
function wrongTokenForLuis(): void {
  addBeta(wb);
  saveTokenOf(wb, wb.user, BETA_KEY, "Beta", 1);
  const tested = wb.sidebar("testSettingsConnection", { key: BETA_KEY }) as { ok: boolean; message: string };
  expect(tested.ok, tested.message).toBe(true);
  expect(
    accountMarksFrom(wb.emulator.documentPropertiesData.values.get(ACCOUNT_MARKS_KEY) ?? null),
  ).toHaveProperty(BETA_KEY);
  storeToken(wb.emulator, LUIS, companyOf(wb, 0).token, wb.sandbox.url, companyOf(wb, 0).adminId);
  // Alpha's token under Beta, with Beta's IdAdmin.
  const beta = { name: "Beta", apiUrl: wb.sandbox.url };
  const adminId = String(companyOf(wb, 1).adminId);
  if (!storeOf(wb.emulator, LUIS).saveCompanyToken(BETA_KEY, companyOf(wb, 0).token, adminId, beta).ok)
    throw new Error("Luis's token");
}

describe("a token that opens another account than its company's mark", () => {
  it("sends nothing and settles nothing in the Outbox; the right token settles and sends, once", async () => {
    wrongTokenForLuis();
    const cents = 521;
    const { id, before } = await sharedFundDeposits(cents);
    ok(wb.menu("createOutboxSheet"));
    wb.typeOutbox([{ company: "Beta", operation: "Deposit", targetId: id, amount: "5.21" }]);
    // Ana's deposit to Beta is cut before it applies: Unknown, to be settled by reading Beta's fund.
    await betaFaults([{ endpoint: "depositMoneyToFund", fault: "drop-before-apply", times: 1 }]);
    ok(wb.menu("runOutbox", ["YES", "OK", "OK"]));
    expect(wb.outbox()[0]?.state).toBe("Unknown");
    wb.typeOutbox([{ company: "Beta", operation: "Deposit", targetId: id, amount: "5.22" }], 3);
    wb.emulator.advanceTime(IN_FLIGHT_WINDOW_MS + 1_000);

    // Luis runs with Alpha's token in Beta's slot: nothing read of Alpha's fund settles Ana's
    // row, nothing is sent to either company.
    const preview = String(ok(wb.menu("previewOutbox", ["OK"], { user: LUIS })).result);
    expect(preview).toContain("your token for Beta opens another account than Beta's");
    wb.menu("runOutbox", ["YES", "OK", "OK"], { user: LUIS });
    const [interrupted, pending] = wb.outbox();
    expect(interrupted?.state).toBe("Unknown");
    expect(String(interrupted?.result)).toMatch(
      /^Not checked yet: your token for Beta opens another account than Beta's \(Beta's oldest fund 5001 \(.*\) is not in it as marked\): nothing is sent or checked with it\./,
    );
    expect(pending?.state).toBe("Pending");
    expect(String(pending?.result)).toMatch(
      /^Not sent yet: your token for Beta opens another account than Beta's/,
    );
    expect(await deposits("Alpha", id, cents)).toBe(before.alpha);
    expect(await deposits("Alpha", id, 522)).toBe(0);
    expect(await deposits("Beta", id, cents)).toBe(before.beta);

    // Ana's run, with Beta's own token: the interrupted deposit found not applied is sent again,
    // the new row sent, each once and both to Beta.
    ok(wb.menu("runOutbox", ["YES", "OK", "OK"]));
    expect(wb.outbox().map((r) => r.state)).toEqual(["Done", "Done"]);
    expect(await deposits("Beta", id, cents)).toBe(before.beta + 1);
    expect(await deposits("Beta", id, 522)).toBe(1);
    expect(await deposits("Alpha", id, cents)).toBe(before.alpha);
    expect(await deposits("Alpha", id, 522)).toBe(0);
  });

  it("the Fund sidebar sends nothing with it either: the page says why, a deposit from it is refused, no ledger moves", async () => {
    wrongTokenForLuis();
    const { id, before } = await sharedFundDeposits(733);
    const view = wb.emulator.tryRun("getFundSidebarView", [{ fundId: String(id), company: BETA_KEY }], {
      as: "script.run",
      user: LUIS,
    });
    if (!view.ok) throw new Error(view.error);
    expect(String((view.result as { error?: string }).error)).toMatch(
      /your token for Beta opens another account than Beta's/,
    );
    const outcome = wb.emulator.tryRun(
      "depositToFund",
      [
        {
          requestId: "deposit-luis-beta-abcdef",
          fields: { Id: id, DepositAmount: "7.33" },
          company: BETA_KEY,
        },
      ],
      { as: "script.run", user: LUIS },
    );
    if (!outcome.ok) throw new Error(outcome.error);
    expect(outcome.result).toMatchObject({ kind: "refused" });
    expect(await deposits("Alpha", id, 733)).toBe(before.alpha);
    expect(await deposits("Beta", id, 733)).toBe(before.beta);
  });
});
