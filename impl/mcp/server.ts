/** The MCP tools over the official SDK: `emit_event` and `ask_human`, backed by an McpAgent. */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { McpAgent } from './agent.js';

export function createMcpServer(agent: McpAgent, version = '0.1.0'): McpServer {
  const server = new McpServer({ name: 'aep-mcp', version }, { capabilities: { tools: {} } });
  server.registerTool(
    'emit_event',
    {
      description:
        'Emit an AEP event (Agent Event Protocol) for a milestone a person watching the fleet would act on. ' +
        'Do not emit what your runtime adapter already emits (tool calls, prompts, session start/end). ' +
        'control.* and attention.* types are refused (use ask_human to ask a person).',
      inputSchema: {
        type: z.string().describe("dotted lowercase type, e.g. 'task.completed' or 'x.myorg.deploy.finished'"),
        data: z.record(z.string(), z.unknown()).optional().describe('the payload object'),
        subject: z.string().optional(),
        severity: z.enum(['debug', 'info', 'notice', 'warning', 'error', 'critical']).optional(),
        session: z.string().optional().describe("defaults to this server's session"),
        run: z.string().optional(),
      },
    },
    async (args) => {
      const r = agent.emitEvent(args as Parameters<McpAgent['emitEvent']>[0]);
      return r.ok
        ? { content: [{ type: 'text', text: `emitted ${args.type} ${r.id} (session ${r.session}, seq ${r.seq})` }], structuredContent: r }
        : { content: [{ type: 'text', text: r.error }], isError: true };
    },
  );
  server.registerTool(
    'ask_human',
    {
      description:
        'Ask a person and wait for the answer. Emits an AEP attention.requested event; an operator answers it (e.g. with `aep respond`) ' +
        'and this call returns the answer, or reports that nobody answered before the timeout.',
      inputSchema: {
        prompt: z.string().min(1).describe('what you need from the person'),
        options: z.array(z.string()).optional().describe('closed choices (option ids), e.g. ["approve","reject"]; omit for a free-text answer'),
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
      if (!r.ok) return { content: [{ type: 'text', text: `${r.error} (request ${r.request_id})` }], isError: true };
      const a = r.answer;
      const text = typeof a.option === 'string' ? `the person chose '${a.option}'` : typeof a.text === 'string' ? `the person answered: ${a.text}` : `the person answered with values ${JSON.stringify(a.values)}`;
      return { content: [{ type: 'text', text }], structuredContent: { request_id: r.request_id, answer: a, ...(r.by ? { by: r.by } : {}) } };
    },
  );
  return server;
}
