/*
 * A process for process-faults.test.ts: installs the handlers, then throws from a timer and leaves a
 * promise rejected, and keeps serving one HTTP endpoint that reports the counts. Prints its port.
 */
import { createServer } from 'node:http';
import { installProcessFaultHandlers, unhandledErrorCounts } from './process-faults.ts';

installProcessFaultHandlers({ log: { error: (obj, msg) => console.error(msg, (obj as { kind?: string }).kind) } });

const server = createServer((req, res) => {
  if (req.url === '/throw') {
    setTimeout(() => { throw new TypeError("Cannot read properties of null (reading 'type')"); }, 0);
    void Promise.reject(new Error('nobody awaits this'));
  }
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(unhandledErrorCounts()));
});
server.listen(0, '127.0.0.1', () => {
  const addr = server.address();
  console.info(`port ${addr && typeof addr === 'object' ? addr.port : 0}`);
});
