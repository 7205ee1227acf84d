/** Sandbox fault presets offered by the panel (POST /_sandbox/faults bodies, issue 3). */
export interface FaultPreset {
  id: string;
  label: string;
  faults: unknown;
}

export const FAULT_PRESETS: readonly FaultPreset[] = [
  {
    id: "down",
    label: "Service down (503)",
    faults: { rules: [{ endpoint: "*", fault: "status", status: 503 }] },
  },
  {
    id: "error-in-200",
    label: "Error inside a 200 answer",
    faults: { rules: [{ endpoint: "*", fault: "error-in-200" }] },
  },
  {
    id: "error-in-200-v2",
    label: 'Error inside a 200 answer, v2 style ({"statusCode": 400})',
    faults: { rules: [{ endpoint: "*", fault: "error-in-200-v2" }] },
  },
  {
    id: "drop-before-apply-withdraw",
    label: "Connection dropped before a withdrawal is applied (once)",
    faults: { rules: [{ endpoint: "withdrawMoneyFromFund", fault: "drop-before-apply", times: 1 }] },
  },
  {
    id: "drop-after-apply-deposit",
    label: "Connection dropped after a deposit is applied (once)",
    faults: { rules: [{ endpoint: "depositMoneyToFund", fault: "drop-after-apply", times: 1 }] },
  },
  {
    id: "slow",
    label: "Slow service (1.5 s per call)",
    faults: { latencyMs: 1500, rules: [] },
  },
];
