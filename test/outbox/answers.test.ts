/**
 * A write the service answers with HTTP 200 is done only if the answer shows it: a report that
 * comes back not integrated after "mark integrated", another record than the one asked for, or
 * a fund whose status is not the one set, is not reported Done.
 */
import { describe, expect, it } from "vitest";
import { createClient } from "../../src/api";
import type { WriteRequest } from "../../src/outbox/requests";
import { servicePort } from "../../src/outbox/service";
import { sendWrite } from "../../src/outbox/write";
import { fakeClock, ok, scriptedTransport } from "../api/fakes";
import { FakeAudit } from "./fakes";

function sendWith(answer: unknown, request: WriteRequest) {
  const { transport } = scriptedTransport([ok(answer)]);
  const client = createClient({
    transport,
    baseUrl: "https://api.example.com/v1",
    token: "t0ken-t0ken-t0ken",
    clock: fakeClock().clock,
  });
  const context = { service: servicePort(client, 7), audit: new FakeAudit(), now: () => new Date() };
  return sendWrite(context, request, "key-1");
}

const report = { Id: 42, Title: "Trip", ReportNumber: "R-42" };

describe("an HTTP 200 whose answer does not show the write", () => {
  it("mark integrated answered with IntegrationStatus 0: refused, not done", () => {
    const end = sendWith(
      { ...report, IntegrationStatus: 0, IntegrationCode: "", IntegrationDate: "" },
      { operation: "markIntegrated", reportId: 42, code: "V-1", date: "2024-06-01 10:00:00" },
    );
    expect(end.status).toBe("refused");
    expect(end.status !== "done" && end.message).toContain(
      "not applied: the answer for record 42 does not show it",
    );
  });

  it("mark not integrated answered with IntegrationStatus 1: refused", () => {
    const end = sendWith(
      { ...report, IntegrationStatus: 1, IntegrationCode: "V-1", IntegrationDate: "2024-06-01 10:00:00" },
      { operation: "markNotIntegrated", reportId: 42 },
    );
    expect(end.status).toBe("refused");
  });

  it("another report in the answer: unknown (it may have been applied elsewhere)", () => {
    const end = sendWith(
      {
        ...report,
        Id: 43,
        IntegrationStatus: 1,
        IntegrationCode: "V-1",
        IntegrationDate: "2024-06-01 10:00:00",
      },
      { operation: "markIntegrated", reportId: 42, code: "V-1", date: "2024-06-01 10:00:00" },
    );
    expect(end.status).toBe("unknown");
  });

  it("custom status answered with another status: refused", () => {
    const end = sendWith(
      { ...report, CustomStatus: "Observed" },
      { operation: "setCustomStatus", reportId: 42, status: "Paid" },
    );
    expect(end.status).toBe("refused");
  });

  it("answers that show the write are done", () => {
    expect(
      sendWith(
        { ...report, IntegrationStatus: 1, IntegrationCode: "V-1", IntegrationDate: "2024-06-01 10:00:00" },
        { operation: "markIntegrated", reportId: 42, code: "V-1", date: "2024-06-01 10:00:00" },
      ).status,
    ).toBe("done");
    expect(
      sendWith(
        { ...report, CustomStatus: "Paid" },
        { operation: "setCustomStatus", reportId: 42, status: "Paid" },
      ).status,
    ).toBe("done");
  });
});
