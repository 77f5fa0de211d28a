/**
 * The chat's periodic upkeep at N sockets, measured in CPU time (steady even on a busy machine):
 * one chat hub (presence) and one per-IP socket limiter on Redis, N guests attached and counted,
 * then 60 s of their timers replayed on a simulated clock (every interval they set fires when it
 * is due, 250 ms steps, Redis answers awaited after each step). Prints the longest single timer
 * callback (an event-loop turn nothing else can use: every chat message waits behind it; wall and CPU time), the
 * longest step including the Redis replies, and the CPU time of the upkeep per 20 s.
 *
 *   node --import tsx bench/chat-renewal.ts [--sockets=5000]
 *   env: BENCH_REDIS_URL (default $TEST_REDIS_URL or redis://127.0.0.1:6379/9; its chat:* keys are cleared)
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { createChatHub } from '../server/src/modules/chat/chat-hub.ts';
import { createSocketLimiter } from '../server/src/modules/chat/socket-limit.ts';

const flag = process.argv.find((a) => a.startsWith('--sockets='));
const SOCKETS = flag ? Number(flag.slice('--sockets='.length)) : 5000;
if (!Number.isInteger(SOCKETS) || SOCKETS <= 0) throw new Error('--sockets must be a positive integer');
const REDIS_URL = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/9';
const STEP_MS = 250;
const SIMULATED_MS = 60_000;

async function main() {
  const redis = new Redis(REDIS_URL);
  const clear = async () => { const stale = await redis.keys('chat:*'); if (stale.length) await redis.del(...stale); };
  await clear();
  let clock = 1_000_000;
  const now = () => clock;

  // The timers the hub and the limiter set are captured and replayed on the simulated clock.
  const timers: Array<{ fn: () => void; every: number; due: number }> = [];
  const realSetInterval = globalThis.setInterval;
  globalThis.setInterval = ((fn: () => void, every: number) => {
    timers.push({ fn, every, due: clock + every });
    return realSetInterval(() => undefined, 2 ** 30);
  }) as typeof setInterval;
  const hub = createChatHub({ redis, now, adminStatusCheckMs: 5000 });
  const limiter = createSocketLimiter({ redis, now });
  globalThis.setInterval = realSetInterval;

  const releases: Array<() => Promise<void>> = [];
  for (let i = 0; i < SOCKETS; i += 1) {
    const identity = { id: `guest-bench-${i}`, name: 'Bench Guest', email: 'guest@bench.test', isAdmin: false, isGuest: true };
    const release = await limiter.acquire('127.0.0.1', SOCKETS + 1);
    if (!release) throw new Error('socket refused');
    releases.push(release);
    await hub.attach(identity, { send: () => undefined });
  }

  let longestTurn = 0;
  let longestTurnCpu = 0;
  let longestStep = 0;
  const cpuStart = process.cpuUsage();
  for (let t = 0; t < SIMULATED_MS; t += STEP_MS) {
    clock += STEP_MS;
    const stepStart = performance.now();
    for (const timer of timers) {
      while (timer.due <= clock) {
        timer.due += timer.every;
        const t0 = performance.now();
        const c0 = process.cpuUsage();
        timer.fn();
        const c = process.cpuUsage(c0);
        longestTurn = Math.max(longestTurn, performance.now() - t0);
        longestTurnCpu = Math.max(longestTurnCpu, (c.user + c.system) / 1000);
      }
    }
    await redis.ping(); // after every command the step sent (one connection keeps the order)
    longestStep = Math.max(longestStep, performance.now() - stepStart);
  }
  const cpu = process.cpuUsage(cpuStart);
  const cpuPer20s = ((cpu.user + cpu.system) / 1000) * (20_000 / SIMULATED_MS);
  const online = (await redis.zcount('chat:online', clock, '+inf'));
  const leased = (await redis.zcount('chat:ip-sockets:127.0.0.1', clock, '+inf'));

  console.info(`chat upkeep at ${SOCKETS} sockets (presence + per-IP socket leases on Redis, ${SIMULATED_MS / 1000} s of timers replayed):`);
  console.info(`  longest timer callback (one event-loop turn) ${longestTurn.toFixed(1)} ms (CPU ${longestTurnCpu.toFixed(1)} ms); longest ${STEP_MS} ms step with its Redis replies ${longestStep.toFixed(1)} ms; CPU ${cpuPer20s.toFixed(0)} ms per 20 s`);
  console.info(`  still live at the end: ${online}/${SOCKETS} presence members, ${leased}/${SOCKETS} socket leases; load ${loadavg()[0]!.toFixed(1)}`);

  for (const release of releases) await release();
  await limiter.close();
  await hub.close();
  await clear();
  await redis.quit();
}

main().then(() => process.exit(0), (err: unknown) => { console.error(err); process.exit(1); });
