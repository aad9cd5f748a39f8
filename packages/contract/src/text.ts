/**
 * Length limits count characters as people see them in most scripts: Unicode code points, so an
 * emoji counts once rather than as two UTF-16 units.
 */
export function countCharacters(text: string): number {
  let count = 0;
  for (const _codePoint of text) count += 1;
  return count;
}
