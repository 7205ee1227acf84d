/**
 * A refusal answered after a deposit reached the service is believed only once reading the fund
 * shows nothing moved: when that read fails (a timeout, a 5xx), nothing says the refusal is
 * true, so the outcome is unknown (settled by reading later), never Refused (an edit would then
 * send the money again). A read refused outright (the fund is gone) lets the refusal stand.
 */
import { describe, expect, it } from "vitest";
import type { WriteRequest } from "../../src/outbox/requests";
import type { FundState } from "../../src/outbox/snapshot";
import { formWords } from "../../src/outbox/words";
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
    { service: ledger, audit, now: () => new Date(), words: formWords("en") },
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

/** Applies every write, then answers it with a refusal (a 409, or an error inside a 200). */
class ApplyingThenRefusing extends FakeLedger {
  constructor(private status: number) {
    super();
  }
  override send(request: WriteRequest): WriteResult {
    super.send(request);
    throw {
      outcome: "refused",
      message: "Error: could not save",
      status: this.status,
    } satisfies WriteFailure;
  }
}

describe("a fund update refused in words after it took effect", () => {
  for (const status of [200, 409]) {
    it(`${status}: unknown, not refused (the fund shows the new name); refused when it already had it`, () => {
      const ledger = new ApplyingThenRefusing(status);
      ledger.addFund({ id: 5, balance: 0, title: "Old name" });
      const context = {
        service: ledger,
        audit: new FakeAudit(),
        now: () => new Date(),
        words: formWords("en"),
      };
      const update = { operation: "updateFund", fundId: 5, name: "New name" } as const;
      const end = sendWrite(context, update, "key-1");
      expect(ledger.funds.get(5)?.title).toBe("New name");
      expect(end.status).toBe("unknown");
      // The fund had that name before sending: the refusal is taken at its word.
      expect(sendWrite(context, update, "key-2").status).toBe("refused");
    });
  }
});
