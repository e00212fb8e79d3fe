/** A migration that cannot start or did not check out, with the sentence the user reads (no stack trace). */
export class MigrationRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MigrationRefused';
  }
}
