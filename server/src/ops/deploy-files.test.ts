import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.ts';
import { TEST_DB } from '../test/test-app.ts';

const DEPLOY = path.resolve(import.meta.dirname, '../../../deploy');
const envExample = readFileSync(path.join(DEPLOY, 'shop.env.example'), 'utf8');

/** The variables loadConfig reads, found by handing it an environment that records every lookup. */
function variablesReadByConfig(): string[] {
  const read = new Set<string>();
  const env = new Proxy({ NODE_ENV: 'test', DATA_DIR: mkdtempSync(path.join(tmpdir(), 'shop-env-')), JWT_SECRET: 'x'.repeat(40) } as Record<string, string>, {
    get(target, key) {
      if (typeof key === 'string' && /^[A-Z][A-Z0-9_]*$/.test(key)) read.add(key);
      return target[key as string];
    },
  });
  loadConfig(env);
  return [...read].sort();
}

/** `NAME=value` lines (what systemd's EnvironmentFile sets) and `# NAME=value` lines (documented options). */
function parseEnvFile(text: string) {
  const active: Record<string, string> = {};
  const documented = new Set<string>();
  for (const line of text.split('\n')) {
    const set = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (set) {
      active[set[1]!] = set[2]!;
      documented.add(set[1]!);
    }
    const option = /^# ([A-Z][A-Z0-9_]*)=/.exec(line);
    if (option) documented.add(option[1]!);
  }
  return { active, documented };
}

describe.runIf(TEST_DB === 'pglite')('deploy/ files', () => {
  it('the example environment file names every setting the server reads', () => {
    const read = variablesReadByConfig();
    expect(read.length).toBeGreaterThanOrEqual(40);
    const { documented } = parseEnvFile(envExample);
    expect(read.filter((name) => !documented.has(name))).toEqual([]);
    expect([...documented].filter((name) => !read.includes(name))).toEqual([]);
  });

  it('as shipped it refuses to start until the secrets are filled in, then is a valid production fleet configuration', () => {
    const { active } = parseEnvFile(envExample);
    let problems: string[] = [];
    try {
      loadConfig(active);
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      problems = (err as ConfigError).problems;
    }
    expect(problems.map((p) => p.split(':')[0])).toEqual(['JWT_SECRET', 'ADMIN_PASSWORD']);

    const config = loadConfig({ ...active, JWT_SECRET: 'k'.repeat(48), ADMIN_PASSWORD: 'a-long-admin-password', DATA_DIR: tmpdir() });
    expect(config).toMatchObject({
      isProduction: true,
      trustProxy: true,
      cookieSecure: true,
      allowDemoPayments: false,
      publicUrl: 'https://shop.example.com',
      databaseUrl: 'postgres://shop:change-me@10.0.0.5:5432/shop',
      redisUrl: 'redis://10.0.0.6:6379/0',
      shutdown: { drainSeconds: 5, timeoutSeconds: 30 },
    });
  });

  it('the systemd unit runs the server with its own port and data directory and stops it with SIGTERM in time', () => {
    const unit = readFileSync(path.join(DEPLOY, 'systemd/shop@.service'), 'utf8');
    expect(unit).toContain('ExecStart=/usr/bin/node dist/main.js');
    expect(unit).toContain('EnvironmentFile=/etc/shop/shop.env');
    expect(unit).toContain('Environment=PORT=%i');
    expect(unit).toContain('Environment=DATA_DIR=/var/lib/shop/%i');
    expect(unit).toContain('KillSignal=SIGTERM');
    const stopSeconds = Number(/TimeoutStopSec=(\d+)/.exec(unit)?.[1]);
    const { active } = parseEnvFile(envExample);
    // systemd must not kill an instance that is still draining and finishing its requests.
    expect(stopSeconds).toBeGreaterThan(Number(active.SHUTDOWN_DRAIN_SECONDS) + Number(active.SHUTDOWN_TIMEOUT_SECONDS));
    if (spawnSync('systemd-analyze', ['--version'], { stdio: 'ignore' }).status === 0) {
      const dir = mkdtempSync(path.join(tmpdir(), 'shop-unit-'));
      copyFileSync(path.join(DEPLOY, 'systemd/shop@.service'), path.join(dir, 'shop@.service'));
      const verify = spawnSync('systemd-analyze', ['verify', path.join(dir, 'shop@3001.service')], { encoding: 'utf8' });
      rmSync(dir, { recursive: true, force: true });
      expect(verify.stderr).toBe('');
      expect(verify.status).toBe(0);
    } else {
      console.info('systemd-analyze not installed: the unit file was checked by its contents only');
    }
  });
});
