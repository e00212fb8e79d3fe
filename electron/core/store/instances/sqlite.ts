import type { InstancesStore } from './instances-store';

/** SQLite's: one app on the file, so work runs whenever asked and nobody else is there to hear a broadcast. */
export const createSqliteInstancesStore = (): InstancesStore => ({
  async tryRunExclusive(_name, work) {
    await work();
    return true;
  },
  async broadcast() {},
  async listen() {
    return async () => {};
  },
});
