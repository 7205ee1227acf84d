/** The letters of the sheet's column `n` (1 is A, 27 is AA), written here apart from the add-on's own. */
export function columnLetter(n: number): string {
  let out = "";
  for (let x = n; x > 0; x = Math.floor((x - 1) / 26)) out = String.fromCharCode(65 + ((x - 1) % 26)) + out;
  return out;
}
