/**
 * Where a process's CPU time went, by part of the stack: a V8 CPU profile (node:inspector) taken
 * around a piece of work, its samples' self time grouped by the script each sampled function lives
 * in (routing = Fastify and its router, database driver = pg / PGlite, rendering = the web app's
 * server bundle with React, ...). Sampling, so shares under ~2 % are noise.
 */
import { Session } from 'node:inspector/promises';

interface ProfileNode { id: number; callFrame: { functionName: string; url: string }; children?: number[] }
export interface Profile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

/** The parts, tried in order: the first whose pattern matches a frame's script URL (or name) takes it. */
const PARTS: Array<[part: string, pattern: RegExp]> = [
  ['rendering (React SSR bundle)', /-ssr\/|react-dom|\/react\//],
  ['database driver (pg, PGlite)', /node_modules\/(pg|pg-protocol|pg-pool|pg-types|postgres-|@electric-sql)|^wasm:/],
  ['query building (drizzle)', /node_modules\/drizzle-orm/],
  ['metrics (prom-client)', /node_modules\/prom-client/],
  ['routing + HTTP (Fastify, inject)', /node_modules\/(fastify|@fastify|find-my-way|light-my-request|avvio|fast-querystring|fast-uri|toad-cache|process-warning|abstract-logging|pino)/],
  ['validation + serialisation (zod, JSON)', /node_modules\/(zod|fast-json-stringify|fastify-type-provider-zod|ajv)|^JSON\.|stringify|parse$/],
  ['compression (zlib)', /zlib/],
  ['auth (sessions, tokens)', /modules\/auth|jose|jsonwebtoken|@fastify\/jwt|fast-jwt/],
  ['shop code (server/src)', /server\/src\//],
  ['garbage collection', /^\(garbage collector\)$/],
  ['Node internals', /^node:|internal\//],
  ['V8 and native code (program)', /^\(program\)$/],
  ['other', /./],
];

function partOf(node: ProfileNode): string {
  const { url, functionName } = node.callFrame;
  const key = url || functionName;
  for (const [part, pattern] of PARTS) if (pattern.test(key) || (!url && pattern.test(functionName))) return part;
  return 'other';
}

/** Runs `work` under the profiler; returns its result and the self time (ms) per part, idle time left out. */
export async function profileSplit<T>(work: () => Promise<T>): Promise<{ result: T; split: Map<string, number>; totalMs: number; profile: Profile }> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    await session.post('Profiler.start');
    const result = await work();
    const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: Profile };
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const split = new Map<string, number>();
    let totalMs = 0;
    profile.samples.forEach((id, i) => {
      const node = byId.get(id);
      const fn = node?.callFrame.functionName;
      // Idle time, and the inspector's own message handling (starting and stopping this profile).
      if (!node || fn === '(idle)' || fn === '(root)' || (fn === 'dispatch' && !node.callFrame.url)) return;
      const ms = (profile.timeDeltas[i] ?? 0) / 1000;
      totalMs += ms;
      const part = partOf(node);
      split.set(part, (split.get(part) ?? 0) + ms);
    });
    return { result, split, totalMs, profile };
  } finally {
    session.disconnect();
  }
}

/** "routing 22 %, database driver 31 %, ..." (largest first). */
export function formatSplit(split: Map<string, number>, totalMs: number): string {
  return [...split].sort(([, a], [, b]) => b - a)
    .map(([part, ms]) => `${part} ${Math.round((ms / (totalMs || 1)) * 100)} %`).join(', ');
}
