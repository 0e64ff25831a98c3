/** Test-only: the local nats-server launcher (fleet/local-nats.ts, shared with the `fleet-fanout` benchmark). */
export { NATS_MISSING, freePort, natsServerBinary, startNats, type NatsServer } from '../fleet/local-nats.js';
