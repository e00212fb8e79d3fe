import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * Watches the main thread's event loop while work runs: Node's loop-delay histogram and a
 * setInterval drift probe (how late each 10 ms tick fires). The largest stall is the worst of both —
 * what a user would feel as the window (or the local API) freezing.
 */
export function startStallProbe(intervalMs = 10) {
  const histogram = monitorEventLoopDelay({ resolution: intervalMs });
  histogram.enable();
  let last = performance.now();
  let maxDrift = 0;
  let maxAtUs = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    if (now - last - intervalMs > maxDrift) {
      maxDrift = now - last - intervalMs;
      // On the clock of V8's CPU profiles, so the stall can be found in one (profile-summary --window).
      maxAtUs = Number(process.hrtime.bigint() / 1000n);
    }
    last = now;
  }, intervalMs);
  return {
    /** Stops watching; stalls in ms. */
    stop() {
      clearInterval(timer);
      histogram.disable();
      // The histogram reports delay beyond the resolution in ns.
      const histMax = histogram.max / 1e6;
      return {
        maxStallMs: Math.max(0, maxDrift, histMax - intervalMs),
        loopDelayP99Ms: Math.max(0, histogram.percentile(99) / 1e6 - intervalMs),
        /** When the worst late tick fired (µs, process.hrtime clock): the stall is the maxStallMs before it. */
        maxStallAtUs: maxAtUs,
      };
    },
  };
}
