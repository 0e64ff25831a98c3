/** Every benchmark, in the order `npm run bench` runs them. */
import type { AnyBenchmark } from '../samples.js';
import { downlevelBench } from './downlevel.js';
import { hookShimBench } from './hook-shim.js';
import { redactBench } from './redact.js';
import { relayIngestBench } from './relay-ingest.js';
import { streamBench } from './stream.js';
import { envelopeBench, validateBench } from './validate.js';
import { fanoutBench } from './fanout.js';
import { ingestWsBench } from './ingest-ws.js';
import { latencyBench } from './latency.js';
import { resumeBench } from './resume.js';
import { hookHttpBench } from './hook-http.js';
import { runnerBench } from './runner.js';
import { peerFanoutBench } from './peer-fanout.js';
import { memoryBench } from './memory.js';
import { fleetFanoutBench } from './fleet-fanout.js';

export const BENCHMARKS: readonly AnyBenchmark[] = [validateBench, envelopeBench, streamBench, redactBench, downlevelBench, relayIngestBench, ingestWsBench, fanoutBench, peerFanoutBench, latencyBench, resumeBench, hookShimBench, hookHttpBench, runnerBench, memoryBench, fleetFanoutBench];
