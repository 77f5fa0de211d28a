import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';

/**
 * Development-only tools (the mailbox) answer this machine only. Whether a request comes from this
 * machine is decided by the TCP connection it came on, never by what the client wrote: no header
 * can make a request local, not even with TRUST_PROXY (request.ip would follow X-Forwarded-For
 * then). Headers can only take it away:
 * - forwarding headers: a tunnel or proxy on this machine (ngrok, cloudflared, nginx) connects from
 *   127.0.0.1 on behalf of anyone on the internet;
 * - a Host that is not a local name: a page elsewhere that rebinds its own DNS name to 127.0.0.1 can
 *   make this machine's browser send it requests (DNS rebinding), with its own name as the Host.
 */

/** Whether an address is this machine's loopback: 127.0.0.0/8, ::1 or IPv4-mapped 127.x.x.x. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  const v4 = mapped ?? address;
  if (isIP(v4) === 4) return v4.startsWith('127.');
  // ::1 in any spelling (0:0:0:0:0:0:0:1, ...): the URL parser writes IPv6 addresses in their short form.
  return isIP(address) === 6 && new URL(`http://[${address}]/`).hostname === '[::1]';
}

/** Headers a proxy or tunnel adds when it passes on someone else's request. */
const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-real-ip', 'cf-connecting-ip', 'true-client-ip', 'x-client-ip'];

/** The host names this machine's own browser uses for the shop: localhost (and *.localhost), the loopback addresses. */
function isLocalHostHeader(host: string | undefined): boolean {
  if (!host) return false;
  const name = (host.startsWith('[') ? host.slice(1, host.indexOf(']')) : host.replace(/:\d*$/, '')).toLowerCase();
  return name === 'localhost' || name.endsWith('.localhost') || isLoopbackAddress(name);
}

/** Whether the request came over a loopback connection, addressed to a local name, and not through a proxy. */
export function isFromThisMachine(request: FastifyRequest): boolean {
  if (!isLoopbackAddress(request.raw.socket.remoteAddress)) return false;
  if (FORWARDING_HEADERS.some((name) => request.headers[name] !== undefined)) return false;
  return isLocalHostHeader(request.headers.host);
}

/** Whether a listening address keeps the server on this machine (HOST). */
export function isLoopbackHost(host: string): boolean {
  return host.toLowerCase() === 'localhost' || isLoopbackAddress(host);
}

/** Whether a listening address is every interface (0.0.0.0, ::): this machine can still reach it as localhost. */
export function isWildcardHost(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]' || host === '';
}
