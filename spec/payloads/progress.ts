/** `progress.*` and `delegation.*` payloads (AEP-0002 §5.4). */
import { z } from 'zod';
import { at, mCount, mStr, open, rStr } from './common.js';

const task = () => at('metadata', open({ id: mStr().optional(), title: rStr().optional() }));
const child = () => at('metadata', open({ session: mStr().optional(), run: mStr().optional(), agent: mStr().optional() }));

export const progressPayloads = {
  'progress.status': open({
    message: rStr().optional(),
    phase: mStr().optional(),
    percent: at('metadata', z.number().min(0).max(100)).optional(),
  }),
  'progress.task.planned': open({
    task: task().optional(),
    parent: mStr().optional(),
  }),
  'progress.task.completed': open({
    task: task().optional(),
    status: mStr().optional(),
  }),
  'progress.artifact.produced': open({
    artifact: at('metadata', open({
      id: mStr().optional(),
      name: rStr().optional(),
      mime: mStr().optional(),
      bytes: mCount().optional(),
      uri: rStr().optional(),
    })).optional(),
  }),
  'delegation.subagent.started': open({
    child: child().optional(),
    agent_type: mStr().optional(),
    role: mStr().optional(),
  }),
  'delegation.subagent.stopped': open({
    child: child().optional(),
    agent_type: mStr().optional(),
    status: mStr().optional(),
    duration_ms: mCount().optional(),
  }),
} satisfies Record<string, z.ZodType>;
