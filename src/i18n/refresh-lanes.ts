/**
 * Strings of a refresh of several companies (src/app/refresh-session.ts, src/refresh/lanes.ts):
 * a company that failed while the others refreshed, one skipped for want of a usable token.
 */
export const refreshLanes = {
  en: {
    "refresh.lane.failed": "{company} was not refreshed; its rows were left as they were: {message}",
    "refresh.lane.skipped": "{company} was not refreshed: {message}",
    "refresh.lane.noneReady": "No company can be refreshed with your access tokens: {reasons}",
  },
  es: {
    "refresh.lane.failed": "{company} no se actualizó; sus filas quedaron como estaban: {message}",
    "refresh.lane.skipped": "{company} no se actualizó: {message}",
    "refresh.lane.noneReady": "Ninguna empresa se puede actualizar con sus tokens de acceso: {reasons}",
  },
} as const;
