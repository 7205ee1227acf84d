/** The Operation cell's labels in English, in the dropdown's order (src/outbox/operations.ts). */
export const OPERATION_LABELS_EN = [
  "Fund creation",
  "Fund update",
  "Deposit",
  "Withdrawal",
  "Status change",
  "Integration mark",
  "Integration removal",
  "Custom status change",
];
