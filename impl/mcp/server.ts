/** The MCP tools over the official SDK: `emit_event` and `ask_human`, backed by an McpAgent. */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { CAPTURE_ORDER } from '../core/event.js';
import type { EmitResult, McpAgent } from './agent.js';
import { askExamplesText, emitExamplesText, typeHint } from './examples.js';

/** The text of an emitted event's result: what was emitted, and whether it reached the relay. */
export function emittedText(type: string, r: Extract<EmitResult, { ok: true }>): string {
  const what = `emitted ${type} ${r.id} (session ${r.session}, seq ${r.seq}, capture ${r.capture})`;
  if (r.delivery === 'sent') return `${what}; sent to the relay`;
  if (r.delivery === 'log-only') return `${what}; logged to the session log only: this server has no relay`;
  return `${what}; logged to the session log but NOT delivered: relay link ${r.link}. It is held and sent if the link comes up`;
}

export function createMcpServer(agent: McpAgent, version = '0.1.0'): McpServer {
  const server = new McpServer({ name: 'aep-mcp', version }, { capabilities: { tools: {} } });
  server.registerTool(
    'emit_event',
    {
      description:
        'Emit an AEP event (Agent Event Protocol) for a milestone a person watching the fleet would act on. ' +
        'Do not emit what your runtime adapter already emits (tool calls, prompts, session start/end). ' +
        'control.* and attention.* types are refused (use ask_human to ask a person). ' +
        `A field that carries content (e.g. progress.status data.message) needs capture 'redacted' (its text goes through redaction), within this server's ceiling (AEP_CAPTURE=${agent.ceiling}). ` +
        emitExamplesText(),
      inputSchema: {
        type: z.string().describe(typeHint()),
        data: z.record(z.string(), z.unknown()).optional().describe('the payload object'),
        subject: z.string().optional(),
        severity: z.enum(['debug', 'info', 'notice', 'warning', 'error', 'critical']).optional(),
        capture: z.enum(CAPTURE_ORDER).optional().describe(`the capture level the event declares (default 'metadata'; at most ${agent.ceiling}, this server's AEP_CAPTURE)`),
        session: z.string().optional().describe("defaults to this server's session"),
        run: z.string().optional(),
      },
    },
    async (args) => {
      const r = agent.emitEvent(args as Parameters<McpAgent['emitEvent']>[0]);
      return r.ok
        ? { content: [{ type: 'text', text: emittedText(args.type, r) }], structuredContent: r }
        : { content: [{ type: 'text', text: r.error }], isError: true };
    },
  );
  server.registerTool(
    'ask_human',
    {
      description:
        'Ask a person and wait for the answer. Emits an AEP attention.requested event; an operator answers it (e.g. with `aep respond`) ' +
        'and this call returns the answer, or reports that nobody answered before the timeout. ' +
        'It fails at once, asking nothing, when no operator can answer (no relay, or the relay refused this server). ' +
        askExamplesText(),
      inputSchema: {
        prompt: z.string().min(1).describe('what you need from the person'),
        options: z.array(z.string()).optional().describe('closed choices (option ids); omit for a free-text answer'),
        timeout_s: z.number().positive().max(3600).optional().describe('how long to wait (default: the server setting)'),
        session: z.string().optional(),
        run: z.string().optional(),
      },
    },
    async (args) => {
      const r = await agent.askHuman({
        prompt: args.prompt,
        ...(args.options ? { options: args.options } : {}),
        ...(args.session ? { session: args.session } : {}),
        ...(args.run ? { run: args.run } : {}),
        ...(args.timeout_s ? { timeoutMs: Math.round(args.timeout_s * 1000) } : {}),
      });
      if (!r.ok) return { content: [{ type: 'text', text: r.request_id ? `${r.error} (request ${r.request_id})` : r.error }], isError: true };
      const a = r.answer;
      const text = typeof a.option === 'string' ? `the person chose '${a.option}'` : typeof a.text === 'string' ? `the person answered: ${a.text}` : `the person answered with values ${JSON.stringify(a.values)}`;
      return { content: [{ type: 'text', text }], structuredContent: { request_id: r.request_id, answer: a, ...(r.by ? { by: r.by } : {}) } };
    },
  );
  return server;
}
