/**
 * Property tests: on arbitrary input, validators and parsers answer or throw the typed errors,
 * never anything else; amounts survive the trip through cents exactly.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ApiError,
  centsToAmount,
  centsToDecimalText,
  createClient,
  ENDPOINT_NAMES,
  parseAmountToCents,
  parseBody,
  readResponse,
  responseAmountToCents,
  UnexpectedResponseError,
  validateRequest,
} from "../../src/api";
import { fakeClock } from "./fakes";

const anyValue = fc.anything({ withDate: true, withNullPrototype: true, withBigInt: false });
const fieldish = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.date({ noInvalidDate: false }),
  fc.constantFrom("1.234,50", "12,5", "2024-02-30", "1", "0", "", " ", "ASC", "1e3", "-1"),
);
const FIELD_NAMES = [
  "Id",
  "IdAdmin",
  "IdEmployee",
  "FundName",
  "FundCurrency",
  "FundAmount",
  "DepositAmount",
  "Since",
  "Until",
  "Status",
  "Order",
  "FundExpiration",
  "FundExpirationDate",
  "IntegrationDate",
  "CustomStatus",
];
const requestish = fc.oneof(anyValue, fc.dictionary(fc.constantFrom(...FIELD_NAMES), fieldish));

describe("validateRequest never throws", () => {
  it("answers ok or issues naming a field and a rule, for every endpoint and any input", () => {
    fc.assert(
      fc.property(fc.constantFrom(...ENDPOINT_NAMES), requestish, (name, input) => {
        const r = validateRequest(name, input, { today: "2024-06-15" });
        if (!r.ok) {
          expect(r.issues.length).toBeGreaterThan(0);
          for (const i of r.issues) {
            expect(i.field).not.toBe("");
            expect(i.message.startsWith(i.field)).toBe(true);
          }
        }
      }),
      { numRuns: 400 },
    );
  });
});

describe("response parsing never throws anything but UnexpectedResponseError", () => {
  it("parseBody on arbitrary JSON-like values", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ENDPOINT_NAMES),
        fc.oneof(
          anyValue,
          fc.json().map((j) => JSON.parse(j) as unknown),
        ),
        (name, body) => {
          try {
            parseBody(name, body);
          } catch (err) {
            expect(err).toBeInstanceOf(UnexpectedResponseError);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("readResponse on arbitrary statuses and bodies throws only ApiErrors", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ENDPOINT_NAMES),
        fc.integer({ min: 100, max: 599 }),
        fc.oneof(fc.string(), fc.json()),
        (name, status, body) => {
          try {
            readResponse(name, { status, headers: {}, body }, { now: 0, secrets: ["secret-token"] });
          } catch (err) {
            expect(err).toBeInstanceOf(ApiError);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a fund with arbitrary member types parses or names a field", () => {
    const member = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.constant(undefined),
    );
    fc.assert(
      fc.property(
        fc.record({
          Id: member,
          Deposits: member,
          Withdrawals: member,
          Charges: member,
          Balance: member,
          Status: member,
          FlexibleFund: member,
          CreatedAt: member,
          ExpirationDate: member,
        }),
        (fund) => {
          try {
            const f = parseBody("getFund", fund);
            expect(Number.isSafeInteger(f.balanceCents)).toBe(true);
          } catch (err) {
            expect(err).toBeInstanceOf(UnexpectedResponseError);
            expect((err as UnexpectedResponseError).field).not.toBe("");
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("the client throws only typed errors", () => {
  it("whatever the transport answers or throws", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ENDPOINT_NAMES),
        requestish,
        fc.oneof(
          fc.record({ status: fc.integer({ min: 0, max: 999 }), body: fc.oneof(fc.string(), fc.json()) }),
          fc.constant("throw"),
        ),
        (name, input, reply) => {
          const client = createClient({
            transport: {
              send: () => {
                if (reply === "throw") throw new Error("Address unavailable: x");
                return { status: reply.status, headers: {}, body: reply.body };
              },
              sendAll: () => [],
            },
            clock: fakeClock().clock,
            token: "secret-token",
            retry: { maxAttempts: 2 },
          });
          try {
            client.call(name, input as Record<string, unknown>);
          } catch (err) {
            expect(err).toBeInstanceOf(ApiError);
            expect((err as Error).message).not.toContain("secret-token");
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("money", () => {
  const cents = fc.integer({ min: -99_999_999_999_999, max: 99_999_999_999_999 });

  it("cents → two-decimal number → cents is exact", () => {
    fc.assert(
      fc.property(cents, (c) => {
        expect(responseAmountToCents(centsToAmount(c))).toBe(c);
        expect(responseAmountToCents(centsToDecimalText(c))).toBe(c);
        expect(parseAmountToCents(centsToDecimalText(c), { allowNegative: true, allowZero: true })).toEqual({
          ok: true,
          cents: c,
        });
      }),
    );
  });

  it("parseAmountToCents never throws and refuses every comma", () => {
    fc.assert(
      fc.property(fc.oneof(anyValue, fc.string()), (input) => {
        const r = parseAmountToCents(input);
        if (typeof input === "string" && input.includes(","))
          expect(r).toMatchObject({ ok: false, rule: "amountComma" });
        if (r.ok) expect(Number.isSafeInteger(r.cents) && r.cents > 0).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
