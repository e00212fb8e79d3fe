/** JSON text kept in a column, or undefined when absent or no longer readable (an old or damaged row gives the defaults). */
export function readJsonColumn(text: string | null | undefined): unknown {
  if (text === null || text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
