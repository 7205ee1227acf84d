/**
 * A refusal answered after a deposit reached the service is believed only once reading the fund
 * shows nothing moved: when that read fails (a timeout, a 5xx), nothing says the refusal is
 * true, so the outcome is unknown (settled by reading later), never Refused (an edit would then
 * send the money again). A read refused outright (the fund is gone) lets the refusal stand.
 */
import { describe, expect, it } from "vitest";
import type { WriteRequest } from "../../src/outbox/requests";
import type { FundState } from "../../src/outbox/snapshot";
import type { WriteFailure, WriteResult } from "../../src/outbox/write";
import { sendWrite } from "../../src/outbox/write";
import { FakeAudit, FakeLedger } from "./fakes";

/** Applies the deposit, answers a refusal inside a 200, then fails every read with `readFailure`. */
class RefusingLedger extends FakeLedger {
  constructor(private readFailure: WriteFailure) {
    super();
  }
  private answered = false;
  override send(request: WriteRequest): WriteResult {
    super.send(request);
    this.answered = true;
    throw {
      outcome: "refused",
      message: "Error: could not save the movement",
      status: 200,
    } satisfies WriteFailure;
  }
  override getFund(id: number): FundState {
    if (this.answered) throw this.readFailure;
    return super.getFund(id);
  }
}

function depositWith(readFailure: WriteFailure) {
  const ledger = new RefusingLedger(readFailure);
  ledger.addFund({ id: 5, balance: 10_000 });
  const audit = new FakeAudit();
  const end = sendWrite(
    { service: ledger, audit, now: () => new Date() },
    { operation: "deposit", fundId: 5, amount: 3_107 },
    "key-1",
  );
  return { end, ledger, audit };
}

describe("a deposit refused in words, the fund then unreadable", () => {
  it("the read timed out: unknown, with both messages, never refused (it was applied)", () => {
    const { end, ledger, audit } = depositWith({ outcome: "unknown", message: "getFund: timed out" });
    expect(ledger.applied).toHaveLength(1);
    expect(end.status).toBe("unknown");
    expect(end.status !== "done" && end.message).toBe(
      "Error: could not save the movement; getFund: timed out",
    );
    expect(audit.entries.at(-1)?.outcome).toBe("unknown");
  });

  it("the fund is gone (the read refused): the refusal stands", () => {
    const { end } = depositWith({ outcome: "refused", message: "Id: no fund 5", status: 404 });
    expect(end.status).toBe("refused");
  });
});
