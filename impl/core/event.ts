/** The AEP 0.1 envelope as a TypeScript type (AEP-0001 §5). Validation lives in envelope.ts. */

export type CaptureLevel = 'none' | 'metadata' | 'redacted' | 'full';
export type Severity = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical';

/** Extension attribute values are scalars (AEP-0001 §5.4). */
export type ExtensionValue = string | number | boolean;

export interface AepEvent {
  aep: '0.1';
  id: string;
  type: string;
  time: string;
  source: string;
  agent: string;
  subject?: string;
  session?: string;
  run?: string;
  step?: string;
  seq?: number;
  epoch?: number;
  cause?: string;
  traceparent?: string;
  severity?: Severity;
  capture?: CaptureLevel;
  data?: Record<string, unknown>;
  /** Extension attributes: lowercase alphanumeric names of at most 20 characters. */
  [extension: string]: unknown;
}

/** The sixteen context attributes plus `data`, in the order AEP-0001 §5.1 lists them. */
export const CORE_ATTRIBUTES = [
  'aep', 'id', 'type', 'subject', 'time', 'source', 'agent', 'session', 'run', 'step',
  'seq', 'epoch', 'cause', 'traceparent', 'severity', 'capture',
] as const;

export const CAPTURE_ORDER: readonly CaptureLevel[] = ['none', 'metadata', 'redacted', 'full'];
export const SEVERITY_ORDER: readonly Severity[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical'];

export function captureRank(level: CaptureLevel): number {
  return CAPTURE_ORDER.indexOf(level);
}

export function severityRank(level: Severity): number {
  return SEVERITY_ORDER.indexOf(level);
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
