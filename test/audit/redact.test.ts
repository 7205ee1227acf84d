import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isSecretName, REDACTED, redactedParameters, redactText, redactValue } from "../../src/audit/redact";

const token = "tok_9f8e7d6c5b4a";

describe("redaction", () => {
  it("removes fields named like secrets, at any depth", () => {
    const out = redactValue({
      Id: 5,
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      nested: [{ access_token: "abc", password: "p", clientSecret: "s", apiKey: "k", note: "ok" }],
    });
    expect(out).toEqual({
      Id: 5,
      headers: { Authorization: REDACTED, "Content-Type": "application/json" },
      nested: [
        { access_token: REDACTED, password: REDACTED, clientSecret: REDACTED, apiKey: REDACTED, note: "ok" },
      ],
    });
    for (const n of ["Token", "X-Api-Key", "PASSWORD", "authorization"]) expect(isSecretName(n)).toBe(true);
    expect(isSecretName("FundName")).toBe(false);
  });

  it("removes the token and bearer credentials from free text", () => {
    expect(redactText(`failed with ${token} in url ?t=${token}`, [token])).toBe(
      `failed with ${REDACTED} in url ?t=${REDACTED}`,
    );
    expect(redactText("Authorization: Bearer abc.def")).toBe(`Authorization: Bearer ${REDACTED}`);
  });

  it("hides a token that holds another one whole, whichever order they come in", () => {
    const alpha = "tok-alpha-5f2e";
    const beta = `${alpha}-2`;
    for (const secrets of [
      [alpha, beta],
      [beta, alpha],
    ]) {
      const text = redactText(`Beta refused ${beta}; Alpha ${alpha}`, secrets);
      expect(text).toBe("Beta refused [redacted]; Alpha [redacted]");
    }
  });

  it("never lets the token through, wherever it hides in the parameters", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string(), (value, key) => {
        const params = { [key]: value, Note: `x${token}y`, list: [token] };
        expect(redactedParameters(params, [token], 1_000_000)).not.toContain(token);
      }),
    );
  });

  it("survives cycles and cuts long parameters", () => {
    const a: Record<string, unknown> = { x: 1 };
    a.self = a;
    expect(redactedParameters(a)).toContain("[cycle]");
    expect(redactedParameters({ s: "y".repeat(5000) }, [], 100)).toHaveLength(100);
    expect(redactedParameters(undefined)).toBe("");
  });
});
