import { formatMessage } from '../../../../shared/messages/format';

/** A migration that cannot start or did not check out, with the sentence the user reads (no stack trace). */
export class MigrationRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MigrationRefused';
  }
}

/** A count with its noun in the English form for it, as the command prints them: "1 order", "6 orders". */
export const counted = (n: number, one: string, other: string): string => formatMessage(`{n} {n, plural, one=${one}|other=${other}}`, { n }, 'en');
