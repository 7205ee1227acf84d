/** The Operation cell's labels in English and in Spanish, in the dropdown's order (src/outbox/operations.ts). */
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

export const OPERATION_LABELS_ES = [
  "Creación de fondo",
  "Actualización de fondo",
  "Depósito",
  "Retiro",
  "Cambio de estado",
  "Marca de integración",
  "Anulación de integración",
  "Cambio de estado personalizado",
];
