/** Every benchmark, in the order `npm run bench` runs them. */
import type { Benchmark } from '../harness.js';
import { downlevelBench } from './downlevel.js';
import { hookShimBench } from './hook-shim.js';
import { redactBench } from './redact.js';
import { relayIngestBench } from './relay-ingest.js';
import { streamBench } from './stream.js';
import { envelopeBench, validateBench } from './validate.js';
import { fanoutBench } from './fanout.js';
import { fleetFanoutBench } from './fleet-fanout.js';

export const BENCHMARKS: readonly Benchmark[] = [validateBench, envelopeBench, streamBench, redactBench, downlevelBench, relayIngestBench, fanoutBench, hookShimBench, fleetFanoutBench];
