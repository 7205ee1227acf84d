/**
 * Strings of the Refresh sidebar of several companies (src/refresh/company-freshness.ts): each
 * company's last refresh and whether this user can refresh it.
 */
export const companiesSchedule = {
  en: {
    "refresh.company.ready": "Ready to refresh with your token.",
    "refresh.company.noToken": "Not refreshed by you: no access token of yours for it (Settings).",
    "refresh.company.confirm":
      "Not refreshed by you until you confirm it in Settings (changed by another editor).",
    "refresh.company.unusable": "Not refreshed by you: your token is for another service (Settings).",
    "refresh.company.never": "Not refreshed yet.",
    "refresh.company.running": "Refreshing…",
  },
  es: {
    "refresh.company.ready": "Lista para actualizar con su token.",
    "refresh.company.noToken":
      "Usted no la actualiza: no tiene un token de acceso para ella (Configuración).",
    "refresh.company.confirm":
      "Usted no la actualiza hasta que la confirme en Configuración (otro editor la cambió).",
    "refresh.company.unusable": "Usted no la actualiza: su token es de otro servicio (Configuración).",
    "refresh.company.never": "Aún no se ha actualizado.",
    "refresh.company.running": "Actualizando…",
  },
} as const;
