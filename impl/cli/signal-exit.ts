/**
 * The exit code of a verb that finishes its work when a signal arrives (tail, sink, mcp: flush,
 * save positions, close) and then exits the way every other verb does: 130 on SIGINT, 143 on
 * SIGTERM. Reading `io.stopSignal` is what makes the first signal a graceful stop.
 */
import { OUTPUT_CLOSED, SIGNAL_EXIT } from './io.js';

export interface StopWatch {
  /** Resolves with the signal's name (pass it on as the verb's stop). */
  signal: Promise<string>;
  /** 130/143 once a signal arrived, else undefined (also when the reader of the output went away: the verb's own code stands). */
  code(): number | undefined;
}

export function watchStop(stop: Promise<string>): StopWatch {
  let got: string | undefined;
  const signal = stop.then((s) => {
    got = s;
    return s;
  });
  return { signal, code: () => (got === 'SIGINT' || got === 'SIGTERM' ? SIGNAL_EXIT[got] : got === undefined || got === OUTPUT_CLOSED ? undefined : 128) };
}
