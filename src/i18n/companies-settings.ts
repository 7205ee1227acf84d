/**
 * Strings of the Settings sidebar's Companies section (src/ui/sidebars/settings/client.ts) and
 * of its entry points (src/app/companies.ts): the list, each company's status for this user,
 * the token and IdAdmin per company, adding, renaming, re-pointing, removing and restoring.
 */
export const companiesSettings = {
  en: {
    "account.check": "Account check",
    "account.other":
      "This token opens another account than {company}'s: {company}'s oldest fund {fund} is not in it as marked. Nothing was saved. Check that you copied {company}'s token; if {company}'s account really was reset, take its account mark again.",
    "account.otherCompany":
      "This token opens another account than {company}'s: it opens {other}'s. Nothing was saved. Save {company}'s own token here.",
    "account.unreadable":
      "This token could not be checked against {company}'s account, so it was not saved: {reason}",
    "account.urlMoved":
      "The service URL was not changed: your saved token, which follows it, was checked at the new URL first. {message} To use the new URL, enter with it the token of this spreadsheet's account there, or leave the URL as it was.",
    "account.marked":
      "Account checked: every token saved for {company} must open the account whose oldest funds are {funds}.",
    "account.unmarkedEmpty":
      "The account check could not be made: {company}'s account has no funds yet. It is marked at its first fund, when a token for it is next saved or tested; until then a token saved for {company} is not checked.",
    "account.unmarked":
      "The account check could not be made yet: {company}'s account is marked when a token for it is next saved or tested; until then a token saved for {company} is not checked.",
    "account.retake": "Take the account mark again",
    "account.retakeConfirm": "Yes, take it again",
    "account.retakeAsk":
      "Take {company}'s account mark again? Now every token saved for {company} must open the account whose oldest funds are {old}. After this it is the account your token opens now, whose oldest funds are {new}: a token of the old account is refused when saved. Tokens already saved are not checked again.",
    "account.retakeSame": "{company}'s account is the one marked ({funds}): nothing changes.",
    "account.retakeChanged":
      "What your token for {company} opens, or {company}'s mark, changed since you were asked: nothing was taken.",
    "account.retakeEmpty":
      "The account your token for {company} opens has no funds: there is nothing to mark it by. Nothing was changed.",
    "account.retaken": "{company}'s account mark was taken again: its oldest funds are {funds}.",
    "companies.legend": "Companies",
    "companies.intro":
      "Each company has its own service URL. Each person saves their own token and IdAdmin for each company; they are never shared.",
    "companies.count": "{count} of at most {max} companies.",
    "companies.host": "Host {host}",
    "companies.badge.ready": "Ready: you can refresh and write",
    "companies.badge.readOnly": "You can refresh; no IdAdmin saved to write",
    "companies.badge.noToken": "No token saved for you",
    "companies.badge.confirm": "Needs your confirmation",
    "companies.badge.removed": "Removed",
    "companies.token.saved": "Your token: ••••{last4}",
    "companies.token": "Your token for {company}",
    "companies.token.keep": "Leave empty to keep the saved one.",
    "companies.adminId": "Your IdAdmin for {company}",
    "companies.saveToken": "Save my token",
    "companies.tokenSaved": "Your token for {company} was saved.",
    "companies.removeToken": "Remove my token",
    "companies.tokenRemoved": "Your token for {company} was removed.",
    "companies.confirm": "Use my token for {company} ({host})",
    "companies.confirmed": "Your token is now used for {company} (host {host}).",
    "companies.edit": "Change this company",
    "companies.rename": "Rename",
    "companies.newName": "New name",
    "companies.renamed": "{former} is now {company}; its rows in the sheets show the new name.",
    "companies.repoint": "Change its URL",
    "companies.repointed": "{company} now uses host {host}. Each person confirms their token for it.",
    "companies.remove": "Remove company",
    "companies.removeRows": "Its rows in the sheets",
    "companies.removeRows.keep": "Keep them, greyed",
    "companies.removeRows.remove": "Remove them",
    "companies.removed": "{company} was removed.",
    "companies.restore": "Restore",
    "companies.restored": "{company} is listed again.",
    "companies.removedList": "Removed companies",
    "companies.add": "Add a company",
    "companies.add.firstName": "Name of the current company (host {host})",
    "companies.add.name": "Name of the new company",
    "companies.add.url": "Service URL of the new company",
    "companies.add.submit": "Add company",
    "companies.added": "{company} was added. Save your token for it below.",
    "companies.labelled": "Rows already in the sheets are labelled {company}.",
    "companies.full": "{max} companies are listed: remove one to add another.",
    "companies.reloaded": "The list was reloaded: check it and try again.",
    "companies.rowsNote": "Company {company} was removed on {date}",
  },
  es: {
    "account.check": "Verificación de cuenta",
    "account.other":
      "Este token abre otra cuenta que la de {company}: el fondo más antiguo de {company}, {fund}, no está en ella como se marcó. No se guardó nada. Revise que copió el token de {company}; si la cuenta de {company} de verdad se reinició, vuelva a tomar su marca de cuenta.",
    "account.otherCompany":
      "Este token abre otra cuenta que la de {company}: abre la de {other}. No se guardó nada. Guarde aquí el token propio de {company}.",
    "account.unreadable":
      "Este token no se pudo verificar contra la cuenta de {company}, así que no se guardó: {reason}",
    "account.urlMoved":
      "No se cambió la URL del servicio: su token guardado, que la sigue, se verificó primero en la nueva URL. {message} Para usar la nueva URL, ingrese con ella el token de la cuenta de esta hoja de cálculo allí, o deje la URL como estaba.",
    "account.marked":
      "Cuenta verificada: todo token guardado para {company} debe abrir la cuenta cuyos fondos más antiguos son {funds}.",
    "account.unmarkedEmpty":
      "No se pudo verificar la cuenta: la cuenta de {company} aún no tiene fondos. Se marca con su primer fondo, la próxima vez que se guarde o pruebe un token para ella; hasta entonces un token guardado para {company} no se verifica.",
    "account.unmarked":
      "Aún no se pudo verificar la cuenta: la cuenta de {company} se marca la próxima vez que se guarde o pruebe un token para ella; hasta entonces un token guardado para {company} no se verifica.",
    "account.retake": "Volver a tomar la marca de cuenta",
    "account.retakeConfirm": "Sí, volver a tomarla",
    "account.retakeAsk":
      "¿Volver a tomar la marca de cuenta de {company}? Ahora todo token guardado para {company} debe abrir la cuenta cuyos fondos más antiguos son {old}. Después será la cuenta que abre su token ahora, cuyos fondos más antiguos son {new}: un token de la cuenta anterior se rechaza al guardarlo. Los tokens ya guardados no se vuelven a verificar.",
    "account.retakeSame": "La cuenta de {company} es la marcada ({funds}): nada cambia.",
    "account.retakeChanged":
      "Lo que abre su token para {company}, o la marca de {company}, cambió desde que se le preguntó: no se tomó nada.",
    "account.retakeEmpty":
      "La cuenta que abre su token para {company} no tiene fondos: no hay con qué marcarla. No se cambió nada.",
    "account.retaken":
      "Se volvió a tomar la marca de cuenta de {company}: sus fondos más antiguos son {funds}.",
    "companies.legend": "Empresas",
    "companies.intro":
      "Cada empresa tiene su propia URL del servicio. Cada persona guarda su propio token e IdAdmin para cada empresa; nunca se comparten.",
    "companies.count": "{count} de {max} empresas como máximo.",
    "companies.host": "Host {host}",
    "companies.badge.ready": "Lista: puede actualizar y escribir",
    "companies.badge.readOnly": "Puede actualizar; no hay IdAdmin guardado para escribir",
    "companies.badge.noToken": "No hay un token guardado para usted",
    "companies.badge.confirm": "Requiere su confirmación",
    "companies.badge.removed": "Eliminada",
    "companies.token.saved": "Su token: ••••{last4}",
    "companies.token": "Su token para {company}",
    "companies.token.keep": "Déjelo vacío para conservar el guardado.",
    "companies.adminId": "Su IdAdmin para {company}",
    "companies.saveToken": "Guardar mi token",
    "companies.tokenSaved": "Su token para {company} fue guardado.",
    "companies.removeToken": "Eliminar mi token",
    "companies.tokenRemoved": "Su token para {company} fue eliminado.",
    "companies.confirm": "Usar mi token para {company} ({host})",
    "companies.confirmed": "Su token ahora se usa para {company} (host {host}).",
    "companies.edit": "Cambiar esta empresa",
    "companies.rename": "Renombrar",
    "companies.newName": "Nombre nuevo",
    "companies.renamed": "{former} ahora es {company}; sus filas en las hojas muestran el nombre nuevo.",
    "companies.repoint": "Cambiar su URL",
    "companies.repointed": "{company} ahora usa el host {host}. Cada persona confirma su token para ella.",
    "companies.remove": "Eliminar empresa",
    "companies.removeRows": "Sus filas en las hojas",
    "companies.removeRows.keep": "Conservarlas, en gris",
    "companies.removeRows.remove": "Eliminarlas",
    "companies.removed": "{company} fue eliminada.",
    "companies.restore": "Restaurar",
    "companies.restored": "{company} vuelve a estar en la lista.",
    "companies.removedList": "Empresas eliminadas",
    "companies.add": "Agregar una empresa",
    "companies.add.firstName": "Nombre de la empresa actual (host {host})",
    "companies.add.name": "Nombre de la empresa nueva",
    "companies.add.url": "URL del servicio de la empresa nueva",
    "companies.add.submit": "Agregar empresa",
    "companies.added": "{company} fue agregada. Guarde su token para ella más abajo.",
    "companies.labelled": "Las filas que ya estaban en las hojas quedan con la empresa {company}.",
    "companies.full": "Hay {max} empresas en la lista: elimine una para agregar otra.",
    "companies.reloaded": "La lista se volvió a cargar: revísela e inténtelo de nuevo.",
    "companies.rowsNote": "La empresa {company} fue eliminada el {date}",
  },
} as const;
