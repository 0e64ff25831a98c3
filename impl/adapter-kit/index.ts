/**
 * The adapter kit: everything a vendor adapter needs, from one import.
 * A new vendor writes pure mappers plus an `AdapterDef` (types.ts) and registers it with one line
 * in `impl/cli/adapter.ts` (`ADAPTERS`); the daemon, relay link, held loops, steering, capture
 * ceiling, identity/ordering and the fail-open shim are all here.
 */
export type { AdapterDef, Answer, CommandOutcome, FieldSpec, HoldSpec, HookContext, HookInput, Mapped, PendingInfo, Posture, RequestOption, Settlement } from './types.js';
export { DEFAULT_POSTURE, allows, levelFor, parseLevel, postureFromEnv, red } from './capture.js';
export { startAdapter, type AdapterOptions, type RunningAdapter } from './daemon.js';
export { createEngine, type Engine, type EngineConfig, type EngineTimers } from './engine.js';
export { createEmitter, type Emitter, type EmitterConfig } from './emission.js';
export { HeldRequests, REAL_TIMERS } from './held-requests.js';
export { createCommandTarget, type CommandTargetConfig } from './commands.js';
export { SteeringDesk } from './steering-desk.js';
export { SessionBook } from './sessions.js';
export { daemonOptions, portEnvName, resolvePort, attentionTimeout } from './config.js';
export { forwardHook, SHIM_CONNECT_TIMEOUT_MS, type ShimOptions } from './shim.cjs';
export { ALLOW_DENY_OPTIONS, content, mapCommonHook, mapUnknownHook, put, snakeCase, str, toolRef } from './mapping.js';
export { DENY_MESSAGE, allowReply, contextReply, denyReply, hookOutput, permissionReply } from './replies.js';
export { defineAdapter, type AdapterSpec } from './define.js';
export { callKey, callMatch, dismissCallRequest, dismissCallRequests, dismissToolRequests, toolCallKey, type Ignored } from './tool-calls.js';
export { applyTextRule, type TextDecision } from './text-rule.js';
export { HeldLoop, parseAnswer, type PendingRequest, type RespondOutcome } from './held-loop.js';
export { CommandLedger } from './ledger.js';
export { SteeringQueue, joinInstructions, type Instruction } from './steering.js';
export { Sequencer, defaultSeverity } from './envelope.js';
export { aepHome, nextEpoch, appendLog, sessionFileName } from './store.js';
export { SessionLog, flushSessionLogs, type SessionLogOptions } from './session-log.js';
export { sessionOfFileName } from './session-file.js';
export { RelayLink, socketUrl } from './relay-link.js';
export { num, putContent, stepOf, vendorFallbackType, withStep } from './multi-map.js';
export { ObservedCards, oobPermissionData, perContext, type ObservedCard, type ObservedCardsOptions } from './observed-cards.js';
export { GATE_DENY_REASON, GATE_MARGIN_MS, dismissGateRequests, gatedDef, gateDecision, gateKey, gates, holdGate, readGate, type GateConfig, type GateDecision, type GateHold, type GateVars } from './gate.js';
export { SynthesizedRuns } from './synth-run.js';
