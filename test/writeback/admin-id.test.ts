/**
 * IdAdmin is a document setting: every editor can change it, and each editor's writes go with
 * their own token. Another editor's change must not decide what this user's writes send: they
 * stop, saying so, until this user saves the new IdAdmin themselves. Through the built add-on,
 * two users on one document, against the sandbox.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { storeToken } from "../../dev/emulator/settings";
import { createOutbox, type SandboxFund, writeBackPerFile } from "./harness";

const BOB = "bob@example.com";
let fund: SandboxFund;
let otherAdmin: number;

const wb = writeBackPerFile({ otherUsers: [BOB] });

beforeEach(async () => {
  await wb.reset();
  const state = await wb.state();
  fund = state.funds.find((f) => f.status === 1 && f.flexible) as SandboxFund;
  const admins = state.users.filter(
    (u) => u.Roles.includes("fundAdministrator") && u.Id !== wb.sandbox.adminId,
  );
  otherAdmin = admins[0]?.Id ?? wb.sandbox.managerId;
  storeToken(wb.emulator, BOB, wb.sandbox.token, wb.sandbox.url, wb.sandbox.adminId);
  createOutbox(wb);
});

const deposits = async (id: number) =>
  (await wb.fund(id)).transactions.filter((t) => t.type === 1).map((t) => t.amountCents);

/** `user` saves the settings sidebar's Connection section with this IdAdmin (the URL as it is). */
function saveAdminId(user: string, adminId: number) {
  const out = wb.emulator.tryRun("saveSettings", [{ baseUrl: wb.sandbox.url, adminId: String(adminId) }], {
    as: "script.run",
    user,
  });
  if (!out.ok) throw new Error(out.error);
  expect(out.result).toMatchObject({ ok: true });
}

const runOutbox = () => {
  const out = wb.menu("runOutbox", ["YES", "OK", "OK"]);
  if (!out.ok) throw new Error(out.error);
};

describe("another editor changes IdAdmin", () => {
  it("the Outbox sends nothing with it until this user saves it themselves", async () => {
    const before = await deposits(fund.id);
    saveAdminId(BOB, otherAdmin);
    wb.typeOutbox([{ operation: "Deposit", targetId: fund.id, amount: "12.34" }]);
    runOutbox();
    expect(await deposits(fund.id)).toEqual(before);
    const [row] = wb.outbox();
    expect(row?.state).toBe("Refused");
    expect(String(row?.result)).toContain(
      `IdAdmin ${otherAdmin} is not the one you saved (${wb.sandbox.adminId}): save it in Settings to write as ${otherAdmin}.`,
    );

    // Her own save of the form showing that IdAdmin: her writes carry it from then on.
    saveAdminId(wb.user, otherAdmin);
    wb.typeOutbox([{ operation: "Deposit", targetId: fund.id, amount: "12.35" }], 3);
    runOutbox();
    expect(wb.outbox()[1]?.state).toBe("Done");
    expect(await deposits(fund.id)).toEqual([...before, 1_235]);
  }, 60_000);

  it("the Fund sidebar's deposit is refused with the same reason, and nothing moves", async () => {
    const before = await deposits(fund.id);
    saveAdminId(BOB, otherAdmin);
    const outcome = wb.sidebar("depositToFund", {
      requestId: "req-admin-0001",
      fields: { Id: fund.id, DepositAmount: "5.00" },
    });
    expect(outcome).toMatchObject({ kind: "invalid", problems: [{ field: "IdAdmin" }] });
    expect(await deposits(fund.id)).toEqual(before);
  }, 60_000);

  it("the editor who changed it writes with it", async () => {
    const before = await deposits(fund.id);
    saveAdminId(BOB, otherAdmin);
    const outcome = wb.emulator.tryRun(
      "depositToFund",
      [{ requestId: "req-admin-0002", fields: { Id: fund.id, DepositAmount: "5.00" } }],
      { as: "script.run", user: BOB },
    );
    if (!outcome.ok) throw new Error(outcome.error);
    expect(outcome.result).toMatchObject({ kind: "done" });
    expect(await deposits(fund.id)).toEqual([...before, 500]);
  }, 60_000);
});
