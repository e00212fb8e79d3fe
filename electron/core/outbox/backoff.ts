/** Delay before attempt n+1 after n failed attempts: 2 s, 4 s, 8 s … capped at 10 minutes. */
export function backoffDelay(attempts: number): number {
  return Math.min(2_000 * 2 ** Math.max(0, attempts - 1), 600_000);
}
