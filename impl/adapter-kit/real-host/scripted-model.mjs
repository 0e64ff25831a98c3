// A scripted OpenAI-compatible chat-completions server for the real-host smoke (smoke.sh):
// the first request streams one tool call (SMOKE_TOOL=bash: `echo hi`; SMOKE_TOOL=question: one
// two-choice question), every request after a tool result streams a short text reply. Each tool
// result it receives is printed as `TOOL-RESULT <json>`. Loopback only; port 0 = ephemeral.
import { createServer } from 'node:http';

const tool = process.env.SMOKE_TOOL === 'question'
  ? { name: 'question', arguments: { questions: [{ question: 'Which greeting?', header: 'Greeting', options: [{ label: 'hello', description: 'formal' }, { label: 'hi', description: 'casual' }] }] } }
  : { name: 'bash', arguments: process.env.SMOKE_VENDOR === 'pi' ? { command: 'echo hi' } : { command: 'echo hi', description: 'Print hi' } };

const server = createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    let messages = [];
    try {
      messages = JSON.parse(body || '{}').messages ?? [];
    } catch {
      // an unparsable request gets the first reply
    }
    const results = messages.filter((m) => m.role === 'tool');
    for (const m of results) console.log('TOOL-RESULT', JSON.stringify(m.content));
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const chunk = (choice, usage) => res.write(`data: ${JSON.stringify({ id: 'cmpl-smoke', object: 'chat.completion.chunk', created: 1, model: 'scripted-1', choices: [{ index: 0, ...choice }], ...(usage ? { usage } : {}) })}\n\n`);
    if (results.length === 0) {
      chunk({ delta: { role: 'assistant', tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: tool.name, arguments: JSON.stringify(tool.arguments) } }] }, finish_reason: null });
      chunk({ delta: {}, finish_reason: 'tool_calls' }, { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 });
    } else {
      chunk({ delta: { role: 'assistant', content: 'All done.' }, finish_reason: null });
      chunk({ delta: {}, finish_reason: 'stop' }, { prompt_tokens: 120, completion_tokens: 3, total_tokens: 123 });
    }
    res.end('data: [DONE]\n\n');
  });
});
server.listen(0, '127.0.0.1', () => console.log(`scripted model listening on http://127.0.0.1:${server.address().port}`));
