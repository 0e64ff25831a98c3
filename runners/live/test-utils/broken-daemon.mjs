// A deliberately broken external "adapter daemon" for the --target tests: it claims a completed
// hello on /healthz but never connects to the relay, and answers every hook with `{"ok":1}`.
import { createServer } from 'node:http';

const server = createServer((req, res) => {
  if (req.url === '/healthz') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"ok":true,"relay":true}');
    return;
  }
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"ok":1}');
  });
});
server.listen(0, '127.0.0.1', () => console.log(`broken daemon listening on http://127.0.0.1:${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
