/**
 * Strings of the list of companies (src/settings/companies.ts) and of each user's token for a
 * company (src/settings/bindings.ts): the fields, the rules a change breaks, and why a token is
 * or is not used. Each refusal names the field and the rule; each status names the company and
 * the host.
 */
export const companies = {
  en: {
    "company.field.change": "The change",
    "company.field.name": "Company name",
    "company.field.firstName": "Name of the first company",
    "company.field.position": "Position",
    "company.field.rows": "Rows of the removed company",
    "company.field.token": "Access token",
    "company.unnamed": "the company at host {host}",
    "company.forgotten": "a company removed earlier",
    "company.issue.request":
      "{field} must name what to do: add, rename, repoint, move, remove or restore (got {got}).",
    "company.issue.stale":
      "The list of companies changed since it was shown (another editor saved it): reload it and try again. Nothing was saved.",
    "company.issue.unknown": "No company {key} is in the list: reload it. Nothing was saved.",
    "company.issue.nameRequired": "{field} is required: 1 to {max} characters.",
    "company.issue.nameLength": "{field} must be at most {max} characters long (got {length}).",
    "company.issue.nameLeading":
      '{field} must not start with {char}: company names go into cells, where it would start a formula (got "{got}").',
    "company.issue.nameControl": "{field} must not hold line breaks, tabs or other control characters.",
    "company.issue.nameDirection":
      "{field} must not hold direction controls (characters that show the letters of a name in another order than they are typed).",
    "company.issue.nameInvisible": "{field} must hold visible letters, not only invisible characters.",
    "company.issue.nameUsed":
      '{field}: "{got}" looks like a name another company had ({other}); a name is never given to another company.',
    "company.issue.tooManyNames":
      "This spreadsheet has used {max} company names, the most it remembers: no new name can be given. Nothing was saved.",
    "company.issue.nameTaken": '{field}: "{got}" is already the name of another company ({other}).',
    "company.issue.nameFormer":
      '{field}: "{got}" was a name of {other}; a name is never given to another company.',
    "company.issue.nameRemoved":
      '{field}: "{got}" is a name of the removed company {other}; restore it to use that name again.',
    "company.issue.firstName":
      "{field} is required to add a second company: name the first one (host {host}) in the same form.",
    "company.issue.tooMany": "At most {max} companies can be listed: remove one first. Nothing was saved.",
    "company.issue.removed": "{company} was removed: restore it first. Nothing was saved.",
    "company.issue.notRemoved": "{company} is not removed: there is nothing to restore.",
    "company.issue.last": "{company} is the only company: it cannot be removed.",
    "company.issue.position": "{field} must be a whole number from 1 to {max} (got {got}).",
    "company.issue.rows": '{field} must be "keep" or "remove" (got {got}).',
    "company.issue.baseUrl":
      "{field} is set for each company once the document lists its companies: change it under Companies in Settings.",
    "company.issue.seen":
      "{company} changed since it was shown (now {name}, host {host}): reload Settings and look again. Nothing was saved.",
    "company.status.ready": "Your token for {company} is sent only to host {host}.",
    "company.status.noToken":
      "No access token is saved for you for {company} (host {host}): enter your token for {company} in Settings → Connection.",
    "company.status.unbound":
      "Your access token for {company} is tied to no service URL: confirm host {host} in Settings to use it there.",
    "company.status.renamed":
      "{former} was renamed {company} by another editor: confirm it in Settings to use your token for it (host {host}).",
    "company.status.named":
      "Another editor named {company} the company at host {host}: confirm it in Settings to use your token for it.",
    "company.status.repointed":
      "Another editor changed the service URL of {company} to host {host} (your token is for host {bound}): confirm it in Settings to use your token there.",
    "company.status.removed":
      "Your token for {company} is not used: the company was removed from the list (host {host}). Restore it to use it again.",
    "company.status.noAdminId":
      "No IdAdmin is saved with your token for {company} (host {host}): save your token with an IdAdmin in Settings to write to it.",
    "company.status.elsewhere":
      "Your token for {company} is for host {bound}, not {host}: it is not sent there.",
    "company.status.unknown": "No company {key} is in the list: your token is not sent for it.",
  },
  es: {
    "company.field.change": "El cambio",
    "company.field.name": "Nombre de la empresa",
    "company.field.firstName": "Nombre de la primera empresa",
    "company.field.position": "Posición",
    "company.field.rows": "Filas de la empresa eliminada",
    "company.field.token": "Token de acceso",
    "company.unnamed": "la empresa del host {host}",
    "company.forgotten": "una empresa eliminada antes",
    "company.issue.request":
      "{field} debe decir qué hacer: add, rename, repoint, move, remove o restore (se recibió {got}).",
    "company.issue.stale":
      "La lista de empresas cambió desde que se mostró (otro editor la guardó): vuelva a cargarla e inténtelo de nuevo. No se guardó nada.",
    "company.issue.unknown": "La empresa {key} no está en la lista: vuelva a cargarla. No se guardó nada.",
    "company.issue.nameRequired": "{field} es obligatorio: de 1 a {max} caracteres.",
    "company.issue.nameLength": "{field} debe tener como máximo {max} caracteres (tiene {length}).",
    "company.issue.nameLeading":
      '{field} no puede comenzar con {char}: los nombres de empresa van en celdas, donde comenzaría una fórmula (se recibió "{got}").',
    "company.issue.nameControl":
      "{field} no puede llevar saltos de línea, tabulaciones ni otros caracteres de control.",
    "company.issue.nameDirection":
      "{field} no puede llevar controles de dirección (caracteres que muestran las letras de un nombre en otro orden que el escrito).",
    "company.issue.nameInvisible": "{field} debe llevar letras visibles, no solo caracteres invisibles.",
    "company.issue.nameUsed":
      '{field}: "{got}" se parece a un nombre que tuvo otra empresa ({other}); un nombre nunca se da a otra empresa.',
    "company.issue.tooManyNames":
      "Esta hoja de cálculo ha usado {max} nombres de empresa, lo más que recuerda: no se puede dar un nombre nuevo. No se guardó nada.",
    "company.issue.nameTaken": '{field}: "{got}" ya es el nombre de otra empresa ({other}).',
    "company.issue.nameFormer":
      '{field}: "{got}" fue un nombre de {other}; un nombre nunca se da a otra empresa.',
    "company.issue.nameRemoved":
      '{field}: "{got}" es un nombre de la empresa eliminada {other}; restáurela para volver a usar ese nombre.',
    "company.issue.firstName":
      "{field} es obligatorio para agregar una segunda empresa: nombre la primera (host {host}) en el mismo formulario.",
    "company.issue.tooMany":
      "La lista admite como máximo {max} empresas: elimine una primero. No se guardó nada.",
    "company.issue.removed": "{company} fue eliminada: restáurela primero. No se guardó nada.",
    "company.issue.notRemoved": "{company} no está eliminada: no hay nada que restaurar.",
    "company.issue.last": "{company} es la única empresa: no se puede eliminar.",
    "company.issue.position": "{field} debe ser un número entero de 1 a {max} (se recibió {got}).",
    "company.issue.rows": '{field} debe ser "keep" o "remove" (se recibió {got}).',
    "company.issue.baseUrl":
      "{field} se define para cada empresa una vez que el documento tiene su lista de empresas: cámbiela en Empresas, en Configuración.",
    "company.issue.seen":
      "{company} cambió desde que se mostró (ahora {name}, host {host}): vuelva a cargar Configuración y revísela. No se guardó nada.",
    "company.status.ready": "Su token para {company} se envía solo al host {host}.",
    "company.status.noToken":
      "No hay un token de acceso guardado para usted para {company} (host {host}): ingrese su token para {company} en Configuración → Conexión.",
    "company.status.unbound":
      "Su token de acceso para {company} no está ligado a ninguna URL del servicio: confirme el host {host} en Configuración para usarlo allí.",
    "company.status.renamed":
      "Otro editor cambió el nombre de {former} a {company}: confírmelo en Configuración para usar su token con ella (host {host}).",
    "company.status.named":
      "Otro editor llamó {company} a la empresa del host {host}: confírmelo en Configuración para usar su token con ella.",
    "company.status.repointed":
      "Otro editor cambió la URL del servicio de {company} al host {host} (su token es para el host {bound}): confírmela en Configuración para usar su token allí.",
    "company.status.removed":
      "Su token para {company} no se usa: la empresa se eliminó de la lista (host {host}). Restáurela para volver a usarlo.",
    "company.status.noAdminId":
      "No hay un IdAdmin guardado con su token para {company} (host {host}): guarde su token con un IdAdmin en Configuración para escribir en ella.",
    "company.status.elsewhere":
      "Su token para {company} es para el host {bound}, no para {host}: no se envía allí.",
    "company.status.unknown": "La empresa {key} no está en la lista: su token no se envía para ella.",
  },
} as const;
