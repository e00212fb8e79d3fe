/** Items in parts small enough for one IN list (SQLite and PostgreSQL alike): the stores' one home for it. */
export const chunked = <T>(items: T[], size = 500): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, i * size + size));
