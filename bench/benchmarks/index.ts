import type { Benchmark } from '../lib/report';
import { bodiesBench } from './bodies';
import { createBench } from './create';
import { importBench } from './import';
import { importWideBench } from './import-wide';
import { labelsBench } from './labels';
import { pointsBench } from './points';
import { refreshBench } from './refresh';
import { registerBench } from './register';
import { startupBench } from './startup';
import { uiBench } from './ui';

/** Every benchmark, in the order `npm run bench` runs them (and bench/README.md's table lists them). */
export const benchmarks: Benchmark[] = [importBench, importWideBench, createBench, pointsBench, refreshBench, registerBench, startupBench, uiBench, bodiesBench, labelsBench];
