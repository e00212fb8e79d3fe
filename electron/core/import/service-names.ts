import { foldWords } from './choice-words';

/** A delivery service as a cell may name it. */
export interface NamedService {
  key: string;
  name: string;
}

/** "Почта России (тестовый режим)" → "почта россии": the name without its parenthesised remark, folded. */
const plainName = (name: string) => foldWords(name.replace(/\([^)]*\)/g, ' '));

/**
 * The key of the delivery service a cell names, the way a shop writes it: its key, its name ("Почта России", "СДЭК")
 * in any case and with ё as е, or the first words of exactly one service's name ("Почта"). Undefined when the cell
 * names none or several; the order check then says the service is unknown.
 */
export function serviceNamed(services: readonly NamedService[], cell: string): string | undefined {
  const text = foldWords(cell);
  if (!text) return undefined;
  const exact = services.find((s) => s.key.toLowerCase() === text || plainName(s.name) === text || foldWords(s.name) === text);
  if (exact) return exact.key;
  const starting = services.filter((s) => `${plainName(s.name)} `.startsWith(`${text} `));
  return starting.length === 1 ? starting[0].key : undefined;
}
