/**
 * Which HTTP methods an endpoint takes. The contract's method, and its fallback when it has one,
 * except setExpenseReportIntegration: the spec gives it PUT, the service's Python SDK sends POST,
 * so a company of the sandbox takes one of the two, PUT unless switched (option
 * `integrationMethod`, route `/_sandbox/methods`); the other is answered 405 naming the one taken.
 */
import { ENDPOINTS, type EndpointName, type HttpMethod } from "../../src/api/endpoints";
import { invalid } from "./errors";

/** The methods setExpenseReportIntegration may be switched to. */
export const INTEGRATION_METHODS = ["PUT", "POST"] as const;
export type IntegrationMethod = (typeof INTEGRATION_METHODS)[number];

/** The one endpoint whose method the sandbox can switch. */
export const SWITCHED_ENDPOINT = "setExpenseReportIntegration";

/** The methods `name` takes while setExpenseReportIntegration takes `integration`. */
export function methodsOf(name: EndpointName, integration: IntegrationMethod): readonly HttpMethod[] {
  if (name === SWITCHED_ENDPOINT) return [integration];
  const endpoint = ENDPOINTS[name];
  return [endpoint.method, ...(endpoint.fallbackMethod ? [endpoint.fallbackMethod] : [])];
}

/** Reads an integration method given as `field`; undefined when absent, throws naming it when wrong. */
export function integrationMethodFrom(value: unknown, field: string): IntegrationMethod | undefined {
  if (value === undefined || value === null) return undefined;
  if ((INTEGRATION_METHODS as readonly unknown[]).includes(value)) return value as IntegrationMethod;
  throw invalid(field, `must be "PUT" or "POST" (got ${JSON.stringify(value)})`);
}

/** The body of POST /_sandbox/methods: `{"setExpenseReportIntegration": "PUT" | "POST"}`. */
export function methodsBody(body: unknown): IntegrationMethod {
  if (!body || typeof body !== "object" || Array.isArray(body)) {
    throw invalid("body", `must be an object such as {"${SWITCHED_ENDPOINT}": "POST"}`);
  }
  for (const key of Object.keys(body)) {
    if (key !== SWITCHED_ENDPOINT) {
      throw invalid(key, `is not an endpoint whose method can be switched; only ${SWITCHED_ENDPOINT}`);
    }
  }
  const method = integrationMethodFrom(
    (body as Record<string, unknown>)[SWITCHED_ENDPOINT],
    SWITCHED_ENDPOINT,
  );
  if (!method) throw invalid(SWITCHED_ENDPOINT, 'is required: "PUT" or "POST"');
  return method;
}
