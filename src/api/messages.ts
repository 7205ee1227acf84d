/**
 * Messages for refused requests, in English and Spanish. Every message starts with the field
 * and says the rule, so a person reading a cell note or a sidebar knows what to fix.
 */
import { type AmountRule, centsToDecimalText, MAX_EXACT_CENTS } from "./money";

/** The largest amount as a person would type it (no thousands separator: commas are refused). */
const MAX_TEXT = centsToDecimalText(MAX_EXACT_CENTS);

export type MessageLanguage = "en" | "es";

/** Every rule a request can break. */
export type Rule =
  | AmountRule
  | "request"
  | "required"
  | "unknownField"
  | "integer"
  | "min"
  | "max"
  | "oneOf"
  | "text"
  | "maxLength"
  | "currency"
  | "date"
  | "datetime"
  | "boolean"
  | "dateOrder"
  | "dateRange"
  | "dependsOn"
  | "totalTooLarge";

/** Values a message may mention (the offending value, a bound, the allowed values…). */
export type IssueParams = Record<string, string | number>;

/** One broken rule of one field. */
export interface RequestIssue {
  field: string;
  rule: Rule;
  message: string;
  params: IssueParams;
}

type Template = (p: IssueParams) => string;

const en: Record<Rule, Template> = {
  request: (p) => `${p.field}: the request must be an object of named parameters (got ${p.got}).`,
  required: (p) => `${p.field} is required.`,
  unknownField: (p) => `${p.field} is not a parameter of ${p.endpoint}.`,
  integer: (p) => `${p.field} must be a whole number (got "${p.got}").`,
  min: (p) => `${p.field} must be at least ${p.min} (got ${p.got}).`,
  max: (p) => `${p.field} must be at most ${p.max} (got ${p.got}).`,
  oneOf: (p) => `${p.field} must be one of ${p.values} (got "${p.got}").`,
  text: (p) => `${p.field} must be text (got ${p.got}).`,
  maxLength: (p) => `${p.field} must be at most ${p.max} characters long (got ${p.length}).`,
  currency: (p) => `${p.field} must be a 3-letter currency code such as CLP or USD (got "${p.got}").`,
  amountComma: (p) =>
    `${p.field} contains a comma: write amounts with a dot as the decimal separator and no thousands separator, e.g. 1234.50 (got "${p.got}").`,
  amountAmbiguous: (p) =>
    `${p.field}: "${p.got}" could mean thousands or decimals; write it without a thousands separator, e.g. 1234.50 or 1.23.`,
  amountFormat: (p) => `${p.field} must be an amount such as 1234.50 (got "${p.got}").`,
  amountDecimals: (p) => `${p.field} must have at most two decimals (got "${p.got}").`,
  amountPositive: (p) => `${p.field} must be greater than zero (got "${p.got}").`,
  amountTooLarge: (p) =>
    `${p.field} must be at most ${p.max ?? MAX_TEXT}: the add-on cannot read larger amounts back exactly (got "${p.got}").`,
  totalTooLarge: (p) =>
    `${p.field}: with this amount the fund's ${p.total} would reach ${p.after}, above ${p.max ?? MAX_TEXT}, the largest total the add-on can read back exactly; nothing was sent (got "${p.got}").`,
  date: (p) => `${p.field} must be a date in the form YYYY-MM-DD (got "${p.got}").`,
  datetime: (p) => `${p.field} must be a date and time in the form YYYY-MM-DD HH:MM:SS (got "${p.got}").`,
  boolean: (p) => `${p.field} must be true or false (got "${p.got}").`,
  dateOrder: (p) => `${p.field} must not be before ${p.other} (${p.got} is before ${p.otherValue}).`,
  dateRange: (p) =>
    `${p.field}: the range from Since to ${p.until === p.today ? "today" : "Until"} must be at most one year (${p.since} to ${p.until}; latest allowed ${p.latest}).`,
  dependsOn: (p) =>
    `${p.field} is used only when ${p.other} is true: set ${p.other} to true or leave ${p.field} empty.`,
};

const es: Record<Rule, Template> = {
  request: (p) =>
    `${p.field}: la solicitud debe ser un objeto con parámetros con nombre (se recibió ${p.got}).`,
  required: (p) => `${p.field} es obligatorio.`,
  unknownField: (p) => `${p.field} no es un parámetro de ${p.endpoint}.`,
  integer: (p) => `${p.field} debe ser un número entero (se recibió "${p.got}").`,
  min: (p) => `${p.field} debe ser al menos ${p.min} (se recibió ${p.got}).`,
  max: (p) => `${p.field} debe ser como máximo ${p.max} (se recibió ${p.got}).`,
  oneOf: (p) => `${p.field} debe ser uno de ${p.values} (se recibió "${p.got}").`,
  text: (p) => `${p.field} debe ser texto (se recibió ${p.got}).`,
  maxLength: (p) => `${p.field} debe tener como máximo ${p.max} caracteres (tiene ${p.length}).`,
  currency: (p) =>
    `${p.field} debe ser un código de moneda de 3 letras, como CLP o USD (se recibió "${p.got}").`,
  amountComma: (p) =>
    `${p.field} contiene una coma: escriba los montos con punto decimal y sin separador de miles, p. ej. 1234.50 (se recibió "${p.got}").`,
  amountAmbiguous: (p) =>
    `${p.field}: "${p.got}" puede leerse como miles o como decimales; escríbalo sin separador de miles, p. ej. 1234,50 o 1,23.`,
  amountFormat: (p) => `${p.field} debe ser un monto como 1234.50 (se recibió "${p.got}").`,
  amountDecimals: (p) => `${p.field} debe tener como máximo dos decimales (se recibió "${p.got}").`,
  amountPositive: (p) => `${p.field} debe ser mayor que cero (se recibió "${p.got}").`,
  amountTooLarge: (p) =>
    `${p.field} debe ser como máximo ${p.max ?? MAX_TEXT}: el complemento no puede volver a leer con exactitud montos mayores (se recibió "${p.got}").`,
  totalTooLarge: (p) =>
    `${p.field}: con este monto el total ${p.total} del fondo llegaría a ${p.after}, más que ${p.max ?? MAX_TEXT}, el mayor total que el complemento puede volver a leer con exactitud; no se envió nada (se recibió "${p.got}").`,
  date: (p) => `${p.field} debe ser una fecha con el formato AAAA-MM-DD (se recibió "${p.got}").`,
  datetime: (p) =>
    `${p.field} debe ser una fecha y hora con el formato AAAA-MM-DD HH:MM:SS (se recibió "${p.got}").`,
  boolean: (p) => `${p.field} debe ser verdadero o falso (se recibió "${p.got}").`,
  dateOrder: (p) => `${p.field} no puede ser anterior a ${p.other} (${p.got} es anterior a ${p.otherValue}).`,
  dateRange: (p) =>
    `${p.field}: el rango desde Since hasta ${p.until === p.today ? "hoy" : "Until"} debe ser de un año como máximo (${p.since} a ${p.until}; máximo permitido ${p.latest}).`,
  dependsOn: (p) =>
    `${p.field} solo se usa cuando ${p.other} es verdadero: ponga ${p.other} en verdadero o deje ${p.field} vacío.`,
};

const catalogue: Record<MessageLanguage, Record<Rule, Template>> = { en, es };

/** The message for `rule` broken by `field`, in `language` (English by default). */
export function ruleMessage(
  rule: Rule,
  field: string,
  params: IssueParams,
  language: MessageLanguage = "en",
): string {
  const template = catalogue[language][rule] ?? en[rule];
  return template({ ...params, field });
}
