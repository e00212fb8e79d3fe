import type { Benchmark } from '../lib/report';
import { bodiesBench } from './bodies';
import { createBench, createPgBench } from './create';
import { importBench } from './import';
import { importWideBench } from './import-wide';
import { labelsBench } from './labels';
import { pointsBench, pointsPgBench } from './points';
import { refreshBench, refreshPgBench } from './refresh';
import { registerBench } from './register';
import { startupBench } from './startup';
import { uiBench } from './ui';

/** Every benchmark, in the order `npm run bench` runs them (and bench/README.md's table lists them). */
export const benchmarks: Benchmark[] = [importBench, importWideBench, createBench, pointsBench, refreshBench, registerBench, startupBench, uiBench, bodiesBench, labelsBench];

/**
 * The PostgreSQL twins of create, points and refresh: run only when named (`npm run bench -- points points-pg`)
 * or with `--postgres` (each selected benchmark's twin right after it), so `npm run bench` and CI's `--quick`
 * run stay as they were. They need a server: SHIPDESK_TEST_POSTGRES, or one scripts/test-postgres.mjs starts.
 */
export const postgresBenchmarks: Benchmark[] = [createPgBench, pointsPgBench, refreshPgBench];

/** Every benchmark the runner knows, in bench/README.md's table order. */
export const allBenchmarks: Benchmark[] = benchmarks.flatMap((b) => [b, ...postgresBenchmarks.filter((p) => p.name === `${b.name}-pg`)]);
