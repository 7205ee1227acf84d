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
  TransportError,
  UnexpectedResponseError,
} from "../../src/api/errors";
import {
  plainError,
  plainKind,
  plainText,
  plainWriteRefusal,
  refusalReason,
  serviceWordsOf,
} from "../../src/api/plain";

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
  const technical =
    "withdrawMoneyFromFund: the service answered HTTP 409: WithdrawAmount: 99999999.00 is more than the fund's balance 11422.55";

  it("finds the service's own words in the technical text, and none in the add-on's own texts", () => {
    expect(serviceWordsOf(technical)).toBe(
      "WithdrawAmount: 99999999.00 is more than the fund's balance 11422.55",
    );
    expect(
      serviceWordsOf(
        "createFund: the service reported an error inside an HTTP 200 answer: FundName: required",
      ),
    ).toBe("FundName: required");
    expect(serviceWordsOf("IdAdmin: not allowed to administer funds")).toBeNull();
  });

  it("leads with the plain sentence and its reason in the user's language, then the technical text", () => {
    expect(plainWriteRefusal(technical, "en", "PEN")).toBe(
      `The fund's balance (PEN 11,422.55) is less than the withdrawal (PEN 99,999,999.00). Nothing was changed.\n\nDetails: ${technical}`,
    );
    expect(plainWriteRefusal(technical, "es", "CLP")).toBe(
      `El saldo del fondo (CLP 11.422,55) es menor que el retiro (CLP 99.999.999). No se cambió nada.\n\nDetalles: ${technical}`,
    );
    const status =
      'setExpenseReportCustomStatus: the service answered HTTP 400: CustomStatus: "Revisado" is not a custom status of policy 201; its statuses are Observed, Paid';
    expect(plainWriteRefusal(status, "en").split("\n\n")[0]).toBe(
      "‘Revisado’ is not a status of this report's policy. Nothing was changed.",
    );
    expect(plainWriteRefusal(status, "es").split("\n\n")[0]).toBe(
      "«Revisado» no es un estado de la política de esta rendición. No se cambió nada.",
    );
  });

  it("names a field by the label the person knows it by, and keeps an unknown field's words in the details", () => {
    expect(refusalReason("FundCode: at most 50 characters", "en")).toBe(
      "The service refused Fund code: at most 50 characters.",
    );
    expect(refusalReason("FundCode: at most 50 characters", "es")).toBe(
      "El servicio rechazó Código del fondo: at most 50 characters.",
    );
    expect(refusalReason("Something odd happened", "en")).toBeNull();
    expect(plainWriteRefusal("createFund: the service answered HTTP 400: Something odd happened", "en")).toBe(
      "The service refused the request. Nothing was changed. Check the values and try again.\n\nDetails: createFund: the service answered HTTP 400: Something odd happened",
    );
    // The add-on's own refusals are already plain and in the user's language.
    expect(plainWriteRefusal("Monto: debe ser positivo", "es")).toBe("Monto: debe ser positivo");
  });
});
