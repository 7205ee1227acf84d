/**
 * Deterministic demo data: the same seed, sizes and "today" always give the same company.
 * Dates are laid out backwards from "today" so that the default report window of the add-on
 * (last month, last year) always finds something, and some reports fall outside one year.
 */
import { addDays, timestampOf } from "./dates";
import type { ExpensePolicy, Fund, FundStatus, Report, SandboxData, User } from "./model";
import { SeededRandom } from "./random";

export interface DemoSizes {
  seed: number;
  funds: number;
  reports: number;
  /** Employees who hold funds and send reports; derived from the other sizes when absent. */
  employees?: number;
}

export const DEFAULT_SIZES: DemoSizes = { seed: 42, funds: 40, reports: 300 };

/** Ids of the well-known users, the same for every seed so that docs and tests can name them. */
export const ADMIN_ID = 1001;
export const MANAGER_ID = 1002;
export const TREASURER_ID = 1003;
export const FIRST_EMPLOYEE_ID = 1101;
export const FIRST_FUND_ID = 5001;
export const FIRST_REPORT_ID = 100_001;

/**
 * Where one company's demo data sits among the companies of a sandbox: how far its users' ids
 * are moved from the ids above (its admin is ADMIN_ID + userIdOffset, and so on), and the query
 * its file links carry to reach its own /_sandbox/files route. Funds and reports keep their ids:
 * companies overlap there, as they do in the real service.
 */
export interface DemoPlace {
  userIdOffset: number;
  fileQuery: string;
}

/** The first (or only) company: the ids above, file links with no query. */
export const FIRST_PLACE: DemoPlace = { userIdOffset: 0, fileQuery: "" };

const FIRST_NAMES = [
  "María",
  "José",
  "Camila",
  "Juan",
  "Valentina",
  "Diego",
  "Fernanda",
  "Matías",
  "Catalina",
  "Sebastián",
  "Javiera",
  "Benjamín",
  "Daniela",
  "Tomás",
  "Constanza",
  "Nicolás",
  "Ximena",
  "Alejandro",
  "Lucía",
  "Andrés",
  "Sofía",
  "Rodrigo",
  "Paula",
  "Felipe",
  "Carmen",
  "Luis",
  "Gabriela",
  "Ignacio",
  "Rocío",
  "Cristóbal",
];
const LAST_NAMES = [
  "González",
  "Muñoz",
  "Rojas",
  "Díaz",
  "Pérez",
  "Soto",
  "Contreras",
  "Silva",
  "Martínez",
  "Sepúlveda",
  "Morales",
  "Rodríguez",
  "López",
  "Fuentes",
  "Hernández",
  "Torres",
  "Araya",
  "Flores",
  "Espinoza",
  "Valenzuela",
  "Castillo",
  "Ramírez",
  "Reyes",
  "Gutiérrez",
  "Castro",
  "Vargas",
  "Álvarez",
  "Vásquez",
  "Tapia",
  "Núñez",
];

interface CurrencyProfile {
  currency: string;
  policyId: number;
  /** Typical report total range in whole units. */
  minAmount: number;
  maxAmount: number;
  /** CLP has no cents in practice. */
  wholeUnits: boolean;
  weight: number;
}

const PROFILES: CurrencyProfile[] = [
  { currency: "CLP", policyId: 201, minAmount: 5_000, maxAmount: 900_000, wholeUnits: true, weight: 4 },
  { currency: "MXN", policyId: 202, minAmount: 200, maxAmount: 40_000, wholeUnits: false, weight: 2 },
  { currency: "PEN", policyId: 203, minAmount: 50, maxAmount: 6_000, wholeUnits: false, weight: 2 },
  { currency: "USD", policyId: 204, minAmount: 20, maxAmount: 3_000, wholeUnits: false, weight: 1 },
];

export const POLICIES: ExpensePolicy[] = [
  {
    id: 201,
    name: "Gastos generales Chile",
    currency: "CLP",
    customStatuses: ["Observado", "Pagado", "Rechazado contab."],
  },
  {
    id: 202,
    name: "Viáticos México",
    currency: "MXN",
    customStatuses: ["Observado", "Pagado", "En revisión"],
  },
  { id: 203, name: "Caja chica Perú", currency: "PEN", customStatuses: ["Observado", "Pagado"] },
  {
    id: 204,
    name: "Viajes internacionales",
    currency: "USD",
    customStatuses: ["Observado", "Pagado", "Reembolsado"],
  },
];

const REPORT_TOPICS = [
  "Viaje a Santiago",
  "Viaje a Monterrey",
  "Visita a cliente en Lima",
  "Gastos de representación",
  "Caja chica oficina",
  "Capacitación",
  "Feria comercial",
  "Movilización",
  "Almuerzo con cliente",
  "Materiales de oficina",
  "Visita a obra",
  "Auditoría en terreno",
];
const MONTHS = [
  "enero",
  "febrero",
  "marzo",
  "abril",
  "mayo",
  "junio",
  "julio",
  "agosto",
  "septiembre",
  "octubre",
  "noviembre",
  "diciembre",
];
const COST_CENTERS = [
  ["CC-100", "Ventas"],
  ["CC-200", "Operaciones"],
  ["CC-300", "Administración"],
  ["CC-400", "Proyectos"],
] as const;
const PROJECTS = ["Expansión norte", "Implementación ERP", "Mantención planta", "Campaña verano", ""];
const FUND_KINDS = ["Fondo por rendir", "Caja chica", "Anticipo de viaje", "Fondo fijo"];

/** A whole company of demo data for the given seed and sizes, dated backwards from `today`. */
export function generateDemoData(
  sizes: DemoSizes,
  today: string,
  place: DemoPlace = FIRST_PLACE,
): SandboxData {
  const random = new SeededRandom(sizes.seed);
  const userId = (id: number) => id + place.userIdOffset;
  const employeeCount = Math.max(
    1,
    sizes.employees ??
      Math.min(2_000, Math.max(6, Math.ceil(sizes.funds / 2), Math.ceil(sizes.reports / 25))),
  );

  const users: User[] = [
    person(userId(ADMIN_ID), random, ["fundAdministrator", "manager"]),
    person(userId(MANAGER_ID), random, ["manager"]),
    person(userId(TREASURER_ID), random, ["fundAdministrator"]),
    person(userId(1004), random, ["manager"]),
  ];
  const approverIds = [userId(ADMIN_ID), userId(MANAGER_ID), userId(1004)];
  const employeeProfile = new Map<number, CurrencyProfile>();
  for (let i = 0; i < employeeCount; i++) {
    const employee = person(userId(FIRST_EMPLOYEE_ID + i), random, ["employee"]);
    users.push(employee);
    employeeProfile.set(employee.id, weightedProfile(random));
  }
  const employees = users.filter((u) => u.roles.includes("employee"));

  const funds: Fund[] = [];
  const fundsByEmployee = new Map<number, Fund[]>();
  const fundBalance = new Map<number, number>();
  for (let i = 0; i < sizes.funds; i++) {
    const employee = employees[i % employees.length] as User;
    const profile = employeeProfile.get(employee.id) as CurrencyProfile;
    // The first three funds cover every status so even a tiny sandbox shows all of them.
    const status: FundStatus =
      i < 3 ? ((i + 1) as FundStatus) : random.chance(0.7) ? 1 : random.chance(0.5) ? 2 : 3;
    const createdDay = addDays(today, -random.int(1, 720));
    const initial = amountCents(random, profile, 2);
    const expires = random.chance(0.3);
    const fund: Fund = {
      id: FIRST_FUND_ID + i,
      title: `${random.pick(FUND_KINDS)} ${employee.name.split(" ")[0]} ${i + 1}`,
      code: random.chance(0.6) ? `F-${String(i + 1).padStart(4, "0")}` : "",
      currency: profile.currency,
      assignedTo: employee.id,
      creatorId: random.chance(0.7) ? userId(ADMIN_ID) : userId(TREASURER_ID),
      status,
      createdAt: `${createdDay} ${String(random.int(8, 19)).padStart(2, "0")}:${String(random.int(0, 59)).padStart(2, "0")}:${String(random.int(0, 59)).padStart(2, "0")}`,
      expires,
      expirationDate: expires ? addDays(createdDay, random.int(30, 365)) : "",
      flexible: random.chance(0.3),
      autoDeposit: random.chance(0.35),
      autoBlock: random.chance(0.25),
      comment: "",
      depositsCents: 0,
      chargesCents: 0,
      transactions: [{ type: 1, amountCents: initial, date: createdDay }],
    };
    let balance = initial;
    for (let t = random.int(0, 4); t > 0; t--) {
      const date = addDays(createdDay, random.int(1, Math.max(1, daysBetween(createdDay, today))));
      const amount = Math.max(100, roundFor(profile, amountCents(random, profile, 1) / 2));
      // Treasurers top up and claw back, but never below zero.
      const type = random.chance(0.6) || amount > balance ? 1 : 2;
      balance += type === 1 ? amount : -amount;
      fund.transactions.push({ type, amountCents: amount, date });
    }
    fundBalance.set(fund.id, balance);
    funds.push(fund);
    const list = fundsByEmployee.get(employee.id) ?? [];
    list.push(fund);
    fundsByEmployee.set(employee.id, list);
  }

  const reports: Report[] = [];
  for (let i = 0; i < sizes.reports; i++) {
    const id = FIRST_REPORT_ID + i;
    const employee = employees[random.int(0, employees.length - 1)] as User;
    const profile = employeeProfile.get(employee.id) as CurrencyProfile;
    const roll = random.next();
    const kind = roll < 0.65 ? "closed" : roll < 0.95 ? "inProcess" : "draft";
    const sendDate =
      kind === "draft" ? "" : addDays(today, -(kind === "closed" ? random.int(1, 420) : random.int(0, 60)));
    const closeDate = kind === "closed" ? minDay(addDays(sendDate, random.int(0, 20)), today) : "";
    // A report can only be linked to a fund of its employee that existed when it was sent.
    const ownFunds = (fundsByEmployee.get(employee.id) ?? []).filter(
      (f) => f.currency === profile.currency && f.createdAt.slice(0, 10) <= (sendDate || today),
    );
    let fund = ownFunds.length > 0 && random.chance(0.4) ? random.pick(ownFunds) : undefined;
    const nbrExpenses = random.int(1, 15);
    const nbrRejected =
      kind === "closed" ? Math.min(nbrExpenses - 1, random.chance(0.25) ? random.int(1, 2) : 0) : 0;
    const total = amountCents(random, profile, 1);
    const approved = kind === "closed" ? total - Math.round((total * nbrRejected) / (nbrExpenses * 2)) : 0;
    const approvedCents = roundFor(profile, approved);
    if (fund && kind === "closed") {
      // A fund without automatic deposit pays for the report out of its balance; only flexible
      // funds may go below zero.
      const left = (fundBalance.get(fund.id) ?? 0) - (fund.autoDeposit ? 0 : approvedCents);
      if (left < 0 && !fund.flexible) fund = undefined;
      else fundBalance.set(fund.id, left);
    }
    const integrated = kind === "closed" && random.chance(0.5);
    const integrationDay = integrated ? minDay(addDays(closeDate, random.int(0, 15)), today) : "";
    const month = MONTHS[Number((sendDate || today).slice(5, 7)) - 1];
    const [ccCode, ccName] = random.pick(COST_CENTERS);
    const project = random.pick(PROJECTS);
    const policy = POLICIES.find((p) => p.id === profile.policyId) as ExpensePolicy;
    const report: Report = {
      id,
      title: `${random.pick(REPORT_TOPICS)} ${month}`,
      reportNumber: String(1000 + i),
      sendDate,
      closeDate,
      employeeId: employee.id,
      approverId: random.pick(approverIds),
      policyId: profile.policyId,
      status: kind === "closed" ? 1 : 0,
      customStatus: kind === "closed" && random.chance(0.2) ? random.pick(policy.customStatuses) : "",
      fundId: fund?.id ?? 0,
      totalCents: total,
      approvedCents,
      currency: profile.currency,
      note: random.chance(0.3) ? "Incluye boletas escaneadas." : "",
      integrated,
      integrationDate: integrated
        ? notAfterToday(
            `${integrationDay} ${String(random.int(8, 20)).padStart(2, "0")}:${String(random.int(0, 59)).padStart(2, "0")}:00`,
            today,
          )
        : "",
      integrationExternalCode: integrated
        ? `VOU-${integrationDay.slice(0, 4)}-${String(random.int(1, 99_999)).padStart(5, "0")}`
        : "",
      integrationInternalCode: integrated ? `INT-${id}` : "",
      nbrExpenses,
      nbrApprovedExpenses: kind === "closed" ? nbrExpenses - nbrRejected : 0,
      nbrRejectedExpenses: nbrRejected,
      extraFields: [
        { Name: "Centro de costo", Value: `${ccCode} ${ccName}`, Code: ccCode.replace("-", "") },
        { Name: "Proyecto", Value: project, Code: "" },
      ],
      files: [],
      timeline: [],
    };
    for (let f = random.int(0, 3); f > 0; f--) {
      const pdf = random.chance(0.6);
      const name = `${pdf ? "boleta" : "foto"}-${report.reportNumber}-${f}.${pdf ? "pdf" : "jpg"}`;
      report.files.push({
        Name: name,
        Url: `/_sandbox/files/${id}/${name}`,
        MimeType: pdf ? "application/pdf" : "image/jpeg",
      });
    }
    reports.push(report);
    // A closed report linked to a fund has charged its approved amount to it; with automatic
    // deposit the same amount came back (spec 3.1).
    if (fund && kind === "closed" && approvedCents > 0) {
      fund.transactions.push({ type: 2, amountCents: approvedCents, date: closeDate });
      if (fund.autoDeposit) fund.transactions.push({ type: 1, amountCents: approvedCents, date: closeDate });
    }
  }

  for (const fund of funds) {
    fund.transactions.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
    for (const t of fund.transactions) {
      if (t.type === 1) fund.depositsCents += t.amountCents;
      else fund.chargesCents += t.amountCents;
    }
  }
  coverEveryStatusPerCurrency(funds);
  coverReportKinds(reports, today);
  prepareScenarios(funds, reports);
  if (place.fileQuery) {
    for (const report of reports) for (const file of report.files) file.Url += place.fileQuery;
  }
  return {
    users,
    policies: POLICIES.map((p) => ({ ...p, customStatuses: [...p.customStatuses] })),
    funds,
    reports,
  };
}

/**
 * Each currency with at least three funds shows all three statuses: a fund whose status is
 * repeated within its currency takes a missing one (the first three funds already cover every
 * status overall, and a flip never takes a status's last fund).
 */
function coverEveryStatusPerCurrency(funds: Fund[]): void {
  for (const currency of ["CLP", "MXN", "PEN", "USD"]) {
    const own = funds.filter((f) => f.currency === currency);
    if (own.length < 3) continue;
    for (const missing of [1, 2, 3] as FundStatus[]) {
      if (own.some((f) => f.status === missing)) continue;
      const spare = [...own]
        .reverse()
        .find((f) => f.id >= FIRST_FUND_ID + 3 && own.filter((o) => o.status === f.status).length > 1);
      if (spare) spare.status = missing;
    }
  }
}

/**
 * Even a handful of reports shows a closed one that is integrated, a closed one that is not, an
 * open one and a file. Only reports without a fund are touched, so no fund's ledger changes.
 */
function coverReportKinds(reports: Report[], today: string): void {
  if (reports.length < 4) return;
  const free = reports.filter((r) => r.fundId === 0);
  const closed = () => reports.filter((r) => r.status === 1);
  // Counted once and kept up to date: 50,000 reports must not be walked per change.
  let closedCount = reports.filter((r) => r.status === 1).length;
  let openSentCount = reports.filter((r) => r.status === 0 && r.sendDate !== "").length;
  const yesterday = addDays(today, -1);
  const close = (report: Report) => {
    if (report.sendDate === "") report.sendDate = yesterday;
    else openSentCount--;
    report.status = 1;
    report.closeDate = report.sendDate;
    report.approvedCents = report.totalCents;
    report.nbrApprovedExpenses = report.nbrExpenses;
    closedCount++;
  };
  // Two closed reports (integrated and not) and two sent, open ones (one to send again, one to
  // close), taking drafts first and otherwise a report of the kind that has more than two.
  for (const report of free) {
    if (closedCount >= 2) break;
    if (report.sendDate === "") close(report);
  }
  for (const report of free) {
    if (closedCount >= 2 || openSentCount <= 2) break;
    if (report.status === 0 && report.sendDate !== "") close(report);
  }
  for (const report of reports) {
    if (openSentCount >= 2) break;
    if (report.sendDate === "") {
      report.sendDate = yesterday;
      openSentCount++;
    }
  }
  for (const report of free) {
    if (openSentCount >= 2 || closedCount <= 2) break;
    if (report.status !== 1) continue;
    report.status = 0;
    report.closeDate = "";
    report.approvedCents = 0;
    report.nbrApprovedExpenses = 0;
    report.nbrRejectedExpenses = 0;
    report.customStatus = "";
    report.integrated = false;
    report.integrationDate = "";
    report.integrationExternalCode = "";
    report.integrationInternalCode = "";
    closedCount--;
    openSentCount++;
  }
  const done = closed();
  if (done.length >= 2 && !done.some((r) => r.integrated)) {
    const report = done.find((r) => r.fundId === 0) ?? (done[0] as Report);
    report.integrated = true;
    report.integrationDate = `${report.closeDate} 00:00:00`;
    report.integrationExternalCode = `VOU-${report.closeDate.slice(0, 4)}-00001`;
    report.integrationInternalCode = `INT-${report.id}`;
  }
  if (done.length >= 2 && done.every((r) => r.integrated)) {
    const report = done.at(-1) as Report;
    report.integrated = false;
    report.integrationDate = "";
    report.integrationExternalCode = "";
    report.integrationInternalCode = "";
  }
  const first = reports[0];
  if (first && !reports.some((r) => r.files.length > 0)) {
    const name = `boleta-${first.reportNumber}-1.pdf`;
    first.files.push({ Name: name, Url: `/_sandbox/files/${first.id}/${name}`, MimeType: "application/pdf" });
  }
}

/**
 * The two state rules that need an employee's move can always be tried on the demo data: an
 * open report linked to an open fund with AutomaticBlock (send it: the fund becomes blocked) and
 * a sent, open report linked to another fund with automatic deposit (close it: the approved
 * amount comes back). When the random company has none, the closest report and fund are made so.
 */
function prepareScenarios(funds: Fund[], reports: Report[]): void {
  const fundOf = new Map(funds.map((f) => [f.id, f]));
  const open = reports.filter((r) => r.status === 0);
  const openFunds = funds.filter((f) => f.status === 1);
  const linkedTo = (report: Report) => fundOf.get(report.fundId);
  let blocking = open.find((r) => linkedTo(r)?.status === 1 && linkedTo(r)?.autoBlock);
  if (!blocking) {
    blocking = open.find((r) => linkedTo(r)?.status === 1) ?? linkFirstFit(open, openFunds, fundOf);
    const fund = blocking && linkedTo(blocking);
    if (fund) fund.autoBlock = true;
  }
  const blockingFund = blocking?.fundId ?? 0;
  const sent = open.filter((r) => r.sendDate !== "" && r !== blocking);
  const depositing = sent.find((r) => r.fundId !== blockingFund && linkedTo(r)?.autoDeposit);
  if (!depositing) {
    // Closing does not ask the fund to be open; another open fund is only the clearest case.
    const others = [
      ...openFunds.filter((f) => f.id !== blockingFund),
      ...funds.filter((f) => f.status !== 1 && f.id !== blockingFund),
      ...funds.filter((f) => f.id === blockingFund),
    ];
    const report =
      sent.find((r) => r.fundId !== 0 && r.fundId !== blockingFund) ?? linkFirstFit(sent, others, fundOf);
    const fund = report && linkedTo(report);
    if (fund) fund.autoDeposit = true;
  }
}

/**
 * Links the first report without a fund to a fund, moving the report to the fund's employee,
 * currency and policy (its amounts rounded as that currency needs). Open reports have not
 * charged any fund yet, so no ledger changes.
 */
function linkFirstFit(reports: Report[], funds: Fund[], fundOf: Map<number, Fund>): Report | undefined {
  const report = reports.find((r) => r.fundId === 0 || !fundOf.has(r.fundId));
  const fund =
    funds.find((f) => report && f.createdAt.slice(0, 10) <= (report.sendDate || "9999")) ?? funds[0];
  if (!report || !fund) return undefined;
  const profile = PROFILES.find((p) => p.currency === fund.currency) as CurrencyProfile;
  report.fundId = fund.id;
  report.employeeId = fund.assignedTo;
  report.currency = fund.currency;
  report.policyId = profile.policyId;
  report.totalCents = Math.max(100, roundFor(profile, report.totalCents));
  report.customStatus = "";
  return report;
}

/** The moment used as "now" for a `YYYY-MM-DD` today, for timestamps of generated data. */
export function noonOf(today: string): string {
  return timestampOf(new Date(`${today}T12:00:00Z`));
}

function person(id: number, random: SeededRandom, roles: User["roles"]): User {
  const first = random.pick(FIRST_NAMES);
  const last1 = random.pick(LAST_NAMES);
  const last2 = random.pick(LAST_NAMES);
  const plain = (s: string) =>
    s
      .normalize("NFD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase();
  return {
    id,
    name: `${first} ${last1} ${last2}`,
    identification: random.chance(0.85)
      ? `${random.int(7, 25)}.${random.int(100, 999)}.${random.int(100, 999)}-${random.int(0, 9)}`
      : "",
    email: `${plain(first)}.${plain(last1)}${id}@ejemplo.cl`,
    roles,
  };
}

function weightedProfile(random: SeededRandom): CurrencyProfile {
  const total = PROFILES.reduce((sum, p) => sum + p.weight, 0);
  let roll = random.next() * total;
  for (const profile of PROFILES) {
    roll -= profile.weight;
    if (roll < 0) return profile;
  }
  return PROFILES[0] as CurrencyProfile;
}

function amountCents(random: SeededRandom, profile: CurrencyProfile, scale: number): number {
  const units = random.int(profile.minAmount, profile.maxAmount) * scale;
  return profile.wholeUnits ? Math.round(units / 100) * 10_000 : units * 100 + random.int(0, 99);
}

function roundFor(profile: CurrencyProfile, cents: number): number {
  return profile.wholeUnits ? Math.round(cents / 100) * 100 : Math.round(cents);
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** A time of today would lie ahead of the sandbox's clock (noon or earlier): today's start instead. */
function notAfterToday(timestamp: string, today: string): string {
  return timestamp.startsWith(today) ? `${today} 00:00:00` : timestamp;
}

function minDay(a: string, b: string): string {
  return a < b ? a : b;
}
