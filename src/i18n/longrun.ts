/** What a user is told about a refresh that needed more than one execution, and the quota. */
export const longrun = {
  en: {
    "refresh.pausedDetail":
      "Paused near the time limit after {calls:n} {calls|call|calls}: {records:n} {records|row|rows} written so far ({sheets}). The sheets are whole: a sheet not yet refreshed keeps its previous rows. The Refresh sidebar continues it piece by piece; “{action}” continues it too.",
    "refresh.sidebar.paused": "“{action}” stopped at {percent}% and can go on where it stopped.",
    "refresh.sidebar.fresh": "{sheet}: refreshed {when} by {who}.",
    "refresh.sidebar.continue": "Continue",
    "refresh.sidebar.cancel": "Cancel",
    "refresh.sidebar.piece": "{what}: {percent}% done, piece {piece}…",
    "refresh.sidebar.cancelled":
      "Stopped after the current piece: {records:n} {records|row|rows} written. Press Continue to go on where it stopped.",
    "refresh.sidebar.done":
      "{records:n} {records|record|records} refreshed with {calls:n} {calls|call|calls} in {seconds} s, in {pieces} {pieces|piece|pieces}.",
    "refresh.pausedSheetsNone": "no sheet finished yet",
    "refresh.pausedSchedule": " The next scheduled refresh also brings every sheet up to date.",
    "refresh.quotaRefused":
      "Not started: this refresh needs about {estimate} calls and only {remaining} of the {limit} UrlFetch calls allowed in 24 hours are left. Try again once 24 hours have passed since the first of them.",
    "refresh.quotaWarn":
      "Warning: this refresh needs about {estimate:n} calls; {used:n} of the {limit:n} UrlFetch calls allowed in 24 hours were already used.",
  },
  es: {
    "refresh.pausedDetail":
      "En pausa cerca del límite de tiempo tras {calls:n} {calls|llamada|llamadas}: {records:n} {records|fila escrita|filas escritas} hasta ahora ({sheets}). Las hojas están completas: una hoja aún no actualizada conserva sus filas anteriores. La barra lateral Actualización la continúa por partes; «{action}» también la continúa.",
    "refresh.sidebar.paused": "«{action}» se detuvo en {percent}% y puede seguir donde quedó.",
    "refresh.sidebar.fresh": "{sheet}: actualizada el {when} por {who}.",
    "refresh.sidebar.continue": "Continuar",
    "refresh.sidebar.cancel": "Cancelar",
    "refresh.sidebar.piece": "{what}: {percent}% hecho, parte {piece}…",
    "refresh.sidebar.cancelled":
      "Detenida tras la parte en curso: {records:n} {records|fila escrita|filas escritas}. Pulse Continuar para seguir donde quedó.",
    "refresh.sidebar.done":
      "{records:n} {records|registro actualizado|registros actualizados} con {calls:n} {calls|llamada|llamadas} en {seconds} s, en {pieces} {pieces|parte|partes}.",
    "refresh.pausedSheetsNone": "ninguna hoja terminada aún",
    "refresh.pausedSchedule": " La próxima actualización programada también pone al día todas las hojas.",
    "refresh.quotaRefused":
      "No se inició: esta actualización necesita unas {estimate} llamadas y solo quedan {remaining} de las {limit} llamadas UrlFetch permitidas en 24 horas. Intente de nuevo cuando hayan pasado 24 horas desde la primera de ellas.",
    "refresh.quotaWarn":
      "Atención: esta actualización necesita unas {estimate:n} llamadas; ya se usaron {used:n} de las {limit:n} llamadas UrlFetch permitidas en 24 horas.",
  },
} as const;
