// The operator of the real-host smoke (smoke.sh): connects to the relay's /socket with the token,
// subscribes to attention.requested, and answers each one at once over control.attention.respond:
// a form with `{values: {"1": "2"}}` (the second choice), anything else with the text argument
// (an option word such as `once`, or free text, which the AEP-0008 rule makes a refusal).
import WebSocket from 'ws';

const [url, token, text] = process.argv.slice(2);
const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/socket`, { headers: { authorization: `Bearer ${token}` } });
let n = 0;
ws.on('open', () => ws.send(JSON.stringify({ type: 'hello', versions: ['0.1'], role: 'both', identity: { agent: 'smoke-operator' } })));
ws.on('message', (data) => {
  const f = JSON.parse(String(data));
  if (f.type === 'hello') {
    ws.send(JSON.stringify({ type: 'subscribe', id: 'asks', filter: { type: ['attention.requested'] } }));
    console.log('answerer ready');
  } else if (f.type === 'attention.requested') {
    const answer = f.data && f.data.kind === 'form' ? { values: { 1: '2' } } : { text };
    const id = `01KZSMOKE${String(++n).padStart(17, '0')}`;
    ws.send(JSON.stringify({ aep: '0.1', id, type: 'control.attention.respond', time: new Date().toISOString(), source: 'aep://smoke/agent/operator', agent: 'smoke-operator', session: f.session, subject: f.id, data: { answer } }));
    console.log(`answered ${f.id} with ${JSON.stringify(answer)}`);
  }
});
ws.on('error', (err) => console.log(`answerer: ${err.message}`));
