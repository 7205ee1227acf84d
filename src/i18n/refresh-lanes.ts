/**
 * Strings of a refresh of several companies (src/app/refresh-session.ts, src/refresh/lanes.ts):
 * a company that failed while the others refreshed, one skipped for want of a usable token, one
 * whose reads are of another account than its mark's (src/refresh/run/account.ts).
 */
export const refreshLanes = {
  en: {
    "refresh.lane.failed": "{company} was not refreshed; its rows were left as they were: {message}",
    "refresh.lane.skipped": "{company} was not refreshed: {message}",
    "refresh.lane.noneReady": "No company can be refreshed with your access tokens: {reasons}",
    "refresh.account.other":
      "The token saved for {company} opens another account than {company}'s: {company}'s oldest fund {fund} is not in it as marked, so nothing of {company} was written. Save {company}'s own token in Settings → Connection; if {company}'s account really was reset, take its account mark again there (\"Take the account mark again\" on {company}'s card).",
  },
  es: {
    "refresh.lane.failed": "{company} no se actualizó; sus filas quedaron como estaban: {message}",
    "refresh.lane.skipped": "{company} no se actualizó: {message}",
    "refresh.lane.noneReady": "Ninguna empresa se puede actualizar con sus tokens de acceso: {reasons}",
    "refresh.account.other":
      'El token guardado para {company} abre otra cuenta que la de {company}: el fondo más antiguo de {company}, {fund}, no está en ella como se marcó, así que no se escribió nada de {company}. Guarde el token propio de {company} en Configuración → Conexión; si la cuenta de {company} de verdad se reinició, vuelva a tomar allí su marca de cuenta ("Volver a tomar la marca de cuenta" en la tarjeta de {company}).',
  },
} as const;
