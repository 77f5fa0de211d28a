import { once } from 'node:events';
import net from 'node:net';

/** One message as the SMTP server received it: the last RCPT address (lower case) and the DATA text. */
export interface ReceivedMail { rcpt: string; data: string }

/**
 * A minimal SMTP server for tests (the protocol nodemailer speaks), on 127.0.0.1. `answer` decides the
 * reply to each message once its DATA has ended: an SMTP reply line such as '250 queued', or null to
 * never answer (the sender hangs there). Every other command is accepted.
 */
export async function startSmtpServer(answer: (mail: ReceivedMail) => string | null = () => '250 queued') {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let inData = false;
    let data = '';
    let buffer = '';
    let rcpt = '';
    socket.write('220 test ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let idx: number;
      while ((idx = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, idx);
        buffer = buffer.slice(idx + 2);
        if (inData) {
          if (line !== '.') { data += `${line}\n`; continue; }
          inData = false;
          const reply = answer({ rcpt, data });
          data = '';
          if (reply !== null) socket.write(`${reply}\r\n`);
          continue;
        }
        const cmd = line.slice(0, 4).toUpperCase();
        if (cmd === 'EHLO' || cmd === 'HELO') socket.write('250 test\r\n');
        else if (cmd === 'RCPT') { rcpt = /<([^>]*)>/.exec(line)?.[1]?.toLowerCase() ?? ''; socket.write('250 ok\r\n'); }
        else if (cmd === 'DATA') { inData = true; socket.write('354 go ahead\r\n'); }
        else if (cmd === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((r) => {
      for (const s of sockets) s.destroy();
      server.close(() => r());
    }),
  };
}
