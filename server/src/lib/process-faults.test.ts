import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { installProcessFaultHandlers, isFatalProcessError, unhandledErrorCounts } from './process-faults.ts';

/** An event emitter standing in for `process` (handlers are passed it as `proc`). */
class FakeProcess extends EventEmitter {
  get asProcess() { return this as unknown as NodeJS.Process; }
}
const fakeProcess = () => new FakeProcess();

describe('process faults: unhandled errors are logged and counted, the process keeps serving', () => {
  it('counts each kind, logs it, and does not exit', () => {
    const proc = fakeProcess();
    const logged: string[] = [];
    const exits: number[] = [];
    const before = { ...unhandledErrorCounts() };
    const remove = installProcessFaultHandlers({ proc: proc.asProcess, log: { error: (_o, msg) => logged.push(msg) }, exit: (c) => exits.push(c) });
    try {
      proc.emit('uncaughtException', new TypeError("Cannot read properties of null (reading 'type')"));
      proc.emit('unhandledRejection', new Error('rejected'));
      proc.emit('unhandledRejection', null);
      expect(unhandledErrorCounts().uncaughtException).toBe(before.uncaughtException + 1);
      expect(unhandledErrorCounts().unhandledRejection).toBe(before.unhandledRejection + 2);
      expect(exits).toEqual([]);
      expect(logged).toHaveLength(3);
      expect(logged[0]).toContain('keeps serving');
    } finally {
      remove();
    }
    expect(proc.listenerCount('uncaughtException')).toBe(0);
    expect(proc.listenerCount('unhandledRejection')).toBe(0);
  });

  it('exits for the named fatal errors only', () => {
    const proc = fakeProcess();
    const exits: number[] = [];
    const remove = installProcessFaultHandlers({ proc: proc.asProcess, log: { error: () => undefined }, exit: (c) => exits.push(c) });
    try {
      proc.emit('uncaughtException', Object.assign(new Error('allocation failed'), { code: 'ERR_MEMORY_ALLOCATION_FAILED' }));
      expect(exits).toEqual([1]);
      proc.emit('uncaughtException', Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }));
      expect(exits).toEqual([1]);
    } finally {
      remove();
    }
    expect(isFatalProcessError(Object.assign(new Error('x'), { code: 'ERR_WORKER_OUT_OF_MEMORY' }))).toBe(true);
    expect(isFatalProcessError(new RangeError('Maximum call stack size exceeded'))).toBe(false);
    expect(isFatalProcessError('a string')).toBe(false);
  });

  it('a real process survives an exception thrown from a timer and an unhandled rejection', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'process-faults.fixture.ts')], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { err += d.toString(); });
    try {
      const deadline = Date.now() + 60_000;
      while (!/port \d+/.test(out)) {
        if (child.exitCode !== null || Date.now() > deadline) throw new Error(`fixture did not start: ${out}${err}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      const url = `http://127.0.0.1:${/port (\d+)/.exec(out)![1]}`;
      await fetch(`${url}/throw`);
      await fetch(`${url}/throw`);
      let counts = { uncaughtException: 0, unhandledRejection: 0 };
      const until = Date.now() + 20_000;
      while (Date.now() < until && (counts.uncaughtException < 2 || counts.unhandledRejection < 2)) {
        await new Promise((r) => setTimeout(r, 100));
        counts = await (await fetch(`${url}/`)).json() as typeof counts;
      }
      expect(counts).toEqual({ uncaughtException: 2, unhandledRejection: 2 });
      expect(child.exitCode).toBeNull();
      expect(err).toContain('uncaughtException: logged and counted');
    } finally {
      child.kill('SIGKILL');
    }
  }, 90_000);
});

describe('process faults in /metrics', () => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp(); });
  afterAll(async () => { await t?.close(); });

  it('exports shop_unhandled_errors_total by kind and shop_redis_up', async () => {
    const proc = fakeProcess();
    const remove = installProcessFaultHandlers({ proc: proc.asProcess, log: { error: () => undefined }, exit: () => undefined });
    const before = unhandledErrorCounts().unhandledRejection;
    proc.emit('unhandledRejection', new Error('x'));
    remove();
    const body = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(body).toContain(`shop_unhandled_errors_total{kind="unhandledRejection"} ${before + 1}`);
    expect(body).toMatch(/shop_unhandled_errors_total\{kind="uncaughtException"\} \d+/);
    // No Redis configured: nothing is down.
    expect(body).toMatch(/^shop_redis_up 1$/m);
  });
});
