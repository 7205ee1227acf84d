/**
 * The plain words of a failure: each kind of error says what happened, what was kept and what
 * to do, in English and Spanish; the technical text is kept apart as its details.
 */
import { describe, expect, it } from "vitest";
import {
  HttpError,
  InvalidRequestError,
  RedirectError,
  ServiceError,
  serviceReasonOf,
  TransportError,
  UnexpectedResponseError,
} from "../../src/api/errors";
import {
  plainError,
  plainKind,
  plainText,
  plainWriteRefusal,
  refusalReason,
  serviceReasonIn,
} from "../../src/api/plain";
import { readResponse } from "../../src/api/wire";

describe("plain words of a failure", () => {
  it("names the kind of each failure, and a write whose outcome is unknown as such", () => {
    expect(plainKind(new HttpError("getFunds", 503, "", "unknown"))).toBe("serviceDown");
    expect(plainKind(new HttpError("depositMoneyToFund", 503, "", "unknown"))).toBe("unknownOutcome");
    expect(plainKind(new HttpError("depositMoneyToFund", 422, "no", "refused"))).toBe("refused");
    expect(plainKind(new HttpError("getFunds", 401, "", "refused"))).toBe("notAuthorised");
    expect(plainKind(new HttpError("getFunds", 403, "", "refused"))).toBe("notAuthorised");
    // A write's 403 is the administrator's permission: the token was good enough to read.
    expect(plainKind(new HttpError("depositMoneyToFund", 403, "IdAdmin", "refused"))).toBe("refused");
    expect(plainKind(new HttpError("getFunds", 404, "", "refused"))).toBe("unreachable");
    expect(plainKind(new ServiceError("getFunds", 200, "Unauthorized", "refused", 403))).toBe(
      "notAuthorised",
    );
    expect(plainKind(new TransportError("Timeout: https://x", "getFunds"))).toBe("serviceDown");
    expect(plainKind(new TransportError("Timeout: https://x", "withdrawMoneyFromFund"))).toBe(
      "unknownOutcome",
    );
    expect(plainKind(new TransportError("DNS error: https://x", "getFunds"))).toBe("unreachable");
    // What decides it is kept as data: the platform's words, and whether they say it timed out.
    expect(new TransportError("Timeout: https://x", "getFunds")).toMatchObject({
      message: "getFunds: Timeout: https://x",
      detail: "Timeout: https://x",
      timedOut: true,
    });
    expect(new TransportError("DNS error: https://x", "getFunds").timedOut).toBe(false);
    expect(plainKind(new InvalidRequestError("getFunds", []))).toBe("settings");
    expect(plainKind(new UnexpectedResponseError("getFunds", 200, "Funds", "not a list", "unknown"))).toBe(
      "unexpected",
    );
    expect(plainKind(new Error("A refresh is running."))).toBeNull();
  });

  it("a redirect answered to a write, or an error beside its record, never says nothing was changed", () => {
    const redirect = new RedirectError(
      "depositMoneyToFund",
      302,
      "https://login.example/",
      "login.example",
      "unknown",
    );
    expect(plainKind(redirect)).toBe("unknownOutcome");
    expect(plainError(redirect, "en").message).not.toContain("Nothing was changed");
    expect(plainKind(new RedirectError("getFunds", 302, "", "", "unknown"))).toBe("unreachable");
    expect(plainKind(new ServiceError("depositMoneyToFund", 200, "Timeout", "unknown"))).toBe(
      "unknownOutcome",
    );
  });

  it("puts the plain sentence first and the technical text after it, in the user's language", () => {
    const err = new HttpError("getFunds", 503, "request: getFunds answered 503", "unknown");
    const en = plainError(err, "en", "sheets");
    expect(en.message).toBe(
      "The service is not answering right now. The sheets keep their previous data. Try again in a few minutes.",
    );
    expect(en.detail).toBe(err.message);
    expect(plainText(en, "en")).toBe(`${en.message}\n\nDetails: ${err.message}`);
    const es = plainError(err, "es", "sheets");
    expect(es.message).toBe(
      "El servicio no está respondiendo en este momento. Las hojas conservan sus datos anteriores. Intente de nuevo en unos minutos.",
    );
    // The details too, in the user's language; the service's own words as they came.
    expect(plainText(es, "es")).toBe(
      `${es.message}\n\nDetalles: getFunds: el servicio respondió HTTP 503: request: getFunds answered 503`,
    );
    expect(plainError(new HttpError("getFunds", 502, "", "unknown"), "es").detail).toBe(
      "getFunds: el servicio respondió HTTP 502.",
    );
  });

  it("says nothing was changed by a refusal, and nothing about what was kept when a write may have applied", () => {
    expect(plainError(new HttpError("depositMoneyToFund", 422, "no", "refused"), "en").message).toBe(
      "The service refused the request. Nothing was changed. Check the values and try again.",
    );
    expect(plainError(new HttpError("depositMoneyToFund", 504, "", "unknown"), "en").message).toBe(
      "The service did not confirm whether it applied the change. Look at the record in the service before trying again.",
    );
  });

  it("shows the add-on's own plain messages as they are, with no details", () => {
    const plain = plainError(new Error("No access token is saved for you: enter it in Settings."), "en");
    expect(plain).toEqual({
      kind: null,
      message: "No access token is saved for you: enter it in Settings.",
      detail: "",
    });
    expect(plainText(plain, "en")).toBe(plain.message);
  });

  it("a read answered with an error inside a 200 says so, what was kept, and to try again later: never to check values", () => {
    const err = new ServiceError("getFunds", 200, "Internal: the ledger is being closed", "refused");
    expect(plainKind(err)).toBe("answeredError");
    expect(plainError(err, "en", "sheets").message).toBe(
      "The service answered with an error. The sheets keep their previous data. Try again later.",
    );
    expect(plainError(err, "es", "sheets").message).toBe(
      "El servicio respondió con un error. Las hojas conservan sus datos anteriores. Intente de nuevo más tarde.",
    );
    // A write's error inside a 200 is a refusal, with its reason.
    expect(plainKind(new ServiceError("depositMoneyToFund", 200, "no", "refused"))).toBe("refused");
  });
});

describe("a refused write in plain words, with the service's reason", () => {
  const words = "WithdrawAmount: 99999999.00 is more than the fund's balance 11422.55";
  const refused = new HttpError("withdrawMoneyFromFund", 409, words, "refused", undefined, "InvalidField");
  const technical = refused.message;
  const refusal = { message: technical, reason: serviceReasonIn(refused) };

  it("carries the service's reason as data: its words, code, field and rule, and the values of a rule it knows", () => {
    expect(technical).toBe(`withdrawMoneyFromFund: the service answered HTTP 409: ${words}`);
    expect(refused.reason).toEqual({
      text: words,
      code: "InvalidField",
      field: "WithdrawAmount",
      rule: "99999999.00 is more than the fund's balance 11422.55",
      known: { rule: "balance", amountCents: 9_999_999_900, balanceCents: 1_142_255 },
    });
    expect(serviceReasonIn(new ServiceError("createFund", 200, "FundName: required", "refused"))).toEqual({
      text: "FundName: required",
      field: "FundName",
      rule: "required",
    });
    expect(serviceReasonOf('CustomStatus: "Revisado" is not a custom status of policy 201').known).toEqual({
      rule: "customStatus",
      status: "Revisado",
    });
    expect(serviceReasonOf("Something odd happened")).toEqual({ text: "Something odd happened" });
    // No words of the service's: a redirect, no answer, an answer that does not read.
    expect(serviceReasonIn(new RedirectError("createFund", 302, "", "", "unknown"))).toBeUndefined();
    expect(serviceReasonIn(new TransportError("Timeout: https://x", "createFund"))).toBeUndefined();
    expect(serviceReasonIn(new Error("IdAdmin: not allowed to administer funds"))).toBeUndefined();
  });

  it("reads the code the service's body names, beside its words", () => {
    const body = JSON.stringify({
      Error: { Code: "InvalidField", Message: "FundCode: at most 50 characters", Field: "FundCode" },
    });
    for (const status of [400, 200]) {
      let error: unknown;
      try {
        readResponse("createFund", { status, headers: {}, body }, { now: 0, secrets: [] });
      } catch (err) {
        error = err;
      }
      expect(serviceReasonIn(error), String(status)).toEqual({
        text: "FundCode: at most 50 characters",
        code: "InvalidField",
        field: "FundCode",
        rule: "at most 50 characters",
      });
    }
  });

  it("leads with the plain sentence and its reason in the user's language, then the technical text", () => {
    expect(plainWriteRefusal(refusal, "en", "PEN")).toBe(
      `The fund's balance (PEN 11,422.55) is less than the withdrawal (PEN 99,999,999.00). Nothing was changed.\n\nDetails: ${technical}`,
    );
    expect(plainWriteRefusal(refusal, "es", "CLP")).toBe(
      `El saldo del fondo (CLP 11.422,55) es menor que el retiro (CLP 99.999.999). No se cambió nada.\n\nDetalles: ${technical}`,
    );
    const status = new HttpError(
      "setExpenseReportCustomStatus",
      400,
      'CustomStatus: "Revisado" is not a custom status of policy 201; its statuses are Observed, Paid',
      "refused",
    );
    const statusRefusal = { message: status.message, reason: serviceReasonIn(status) };
    expect(plainWriteRefusal(statusRefusal, "en").split("\n\n")[0]).toBe(
      "‘Revisado’ is not a status of this report's policy. Nothing was changed.",
    );
    expect(plainWriteRefusal(statusRefusal, "es").split("\n\n")[0]).toBe(
      "«Revisado» no es un estado de la política de esta rendición. No se cambió nada.",
    );
  });

  it("names a field by the label the person knows it by, and keeps an unknown field's words in the details", () => {
    expect(refusalReason(serviceReasonOf("FundCode: at most 50 characters"), "en")).toBe(
      "The service refused Fund code: at most 50 characters.",
    );
    expect(refusalReason(serviceReasonOf("FundCode: at most 50 characters"), "es")).toBe(
      "El servicio rechazó Código del fondo: at most 50 characters.",
    );
    expect(refusalReason(serviceReasonOf("Something odd happened"), "en")).toBeNull();
    const odd = new HttpError("createFund", 400, "Something odd happened", "refused");
    const expected =
      "The service refused the request. Nothing was changed. Check the values and try again.\n\nDetails: createFund: the service answered HTTP 400: Something odd happened";
    expect(plainWriteRefusal({ message: odd.message, reason: serviceReasonIn(odd) }, "en")).toBe(expected);
    // The add-on's own refusals are already plain and in the user's language.
    expect(plainWriteRefusal({ message: "Monto: debe ser positivo" }, "es")).toBe("Monto: debe ser positivo");
    expect(plainWriteRefusal({ message: "IdAdmin: not allowed to administer funds" }, "en")).toBe(
      "IdAdmin: not allowed to administer funds",
    );
    // The service's answer without words stays as the client wrote it, as before.
    const bare = new HttpError("createFund", 400, "", "refused");
    expect(plainWriteRefusal({ message: bare.message, reason: serviceReasonIn(bare) }, "en")).toBe(
      bare.message,
    );
  });
});
