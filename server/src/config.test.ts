import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEMO_ADMIN, DEMO_CUSTOMER, loadConfig } from './config.ts';

const tempDir = () => mkdtempSync(path.join(tmpdir(), 'shop-config-'));
const SECRET = 's'.repeat(40);
const PRODUCTION_OK = {
  NODE_ENV: 'production', JWT_SECRET: SECRET, PUBLIC_URL: 'https://shop.example.com',
  ADMIN_EMAIL: 'owner@shop.example.com', ADMIN_PASSWORD: 'a-long-admin-password',
};

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig({ DATA_DIR: tempDir(), ...env });
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

describe('loadConfig in production', () => {
  it('accepts a complete configuration, with Secure cookies and no demo accounts', () => {
    const config = loadConfig({ DATA_DIR: tempDir(), ...PRODUCTION_OK });
    expect(config.isProduction).toBe(true);
    expect(config.jwtSecret).toBe(SECRET);
    expect(config.cookieSecure).toBe(true);
    expect(config.seed.admin).toEqual({ name: 'Admin', email: 'owner@shop.example.com', password: 'a-long-admin-password' });
    expect(config.seed.customer).toBeUndefined();
    expect(config.allowDemoPayments).toBe(false);
  });

  it('refuses a missing JWT_SECRET', () => {
    expect(problemsOf({ ...PRODUCTION_OK, JWT_SECRET: '' })).toEqual(expect.arrayContaining([expect.stringMatching(/^JWT_SECRET/)]));
    const { JWT_SECRET: _omit, ...rest } = PRODUCTION_OK;
    expect(problemsOf(rest)).toEqual(['JWT_SECRET: required in production']);
  });

  it('seeds no demo data unless asked, and wants both administrator credentials or neither', () => {
    expect(loadConfig({ DATA_DIR: tempDir(), ...PRODUCTION_OK }).seed.demoData).toBe(false);
    expect(loadConfig({ DATA_DIR: tempDir(), ...PRODUCTION_OK, SEED_DEMO_DATA: 'true' }).seed.demoData).toBe(true);
    const { ADMIN_EMAIL: _e, ADMIN_PASSWORD: _p, ...rest } = PRODUCTION_OK;
    // An existing shop restarts without them (its administrator is in the database).
    expect(loadConfig({ DATA_DIR: tempDir(), ...rest }).seed).toEqual({ demoData: false, admin: undefined, customer: undefined });
    expect(problemsOf({ ...rest, ADMIN_EMAIL: 'owner@shop.example.com' })).toEqual(['ADMIN_EMAIL and ADMIN_PASSWORD: set both to create the administrator']);
    expect(problemsOf({ ...rest, ADMIN_PASSWORD: 'a-long-admin-password' })).toEqual(['ADMIN_EMAIL and ADMIN_PASSWORD: set both to create the administrator']);
  });

  it('refuses a missing PUBLIC_URL (reset links must not come from the Host header)', () => {
    const { PUBLIC_URL: _omit, ...rest } = PRODUCTION_OK;
    expect(problemsOf(rest)).toEqual(['PUBLIC_URL: required in production (links in e-mails, allowed Origin)']);
  });

  it('lists every problem at once and never writes a generated secret', () => {
    const dataDir = tempDir();
    let problems: string[] = [];
    try {
      loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir });
    } catch (err) {
      problems = (err as ConfigError).problems;
    }
    expect(problems).toHaveLength(2);
    expect(() => statSync(path.join(dataDir, 'jwt-secret'))).toThrow();
  });
});

describe('loadConfig outside production', () => {
  it('generates a JWT secret, persists it in DATA_DIR and reuses it on the next start', () => {
    const dataDir = tempDir();
    const first = loadConfig({ NODE_ENV: 'development', DATA_DIR: dataDir });
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32);
    const file = path.join(dataDir, 'jwt-secret');
    expect(readFileSync(file, 'utf8').trim()).toBe(first.jwtSecret);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const second = loadConfig({ NODE_ENV: 'development', DATA_DIR: dataDir });
    expect(second.jwtSecret).toBe(first.jwtSecret);
    // another data dir gets its own secret
    expect(loadConfig({ NODE_ENV: 'development', DATA_DIR: tempDir() }).jwtSecret).not.toBe(first.jwtSecret);
  });

  it('creates DATA_DIR when it does not exist yet', () => {
    const dataDir = path.join(tempDir(), 'nested', 'data');
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(readFileSync(path.join(dataDir, 'jwt-secret'), 'utf8').trim()).toBe(config.jwtSecret);
  });

  it('uses a given JWT_SECRET without writing one', () => {
    const dataDir = tempDir();
    expect(loadConfig({ DATA_DIR: dataDir, JWT_SECRET: SECRET }).jwtSecret).toBe(SECRET);
    expect(() => statSync(path.join(dataDir, 'jwt-secret'))).toThrow();
  });

  it('has safe embedded defaults: demo accounts, rate limits, non-Secure cookies', () => {
    const config = loadConfig({ DATA_DIR: tempDir() });
    expect(config.env).toBe('development');
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.cookieSecure).toBe(false);
    expect(config.authRateLimit).toEqual({ max: 10, windowSeconds: 900 });
    expect(config.seed.admin).toEqual({ ...DEMO_ADMIN });
    expect(config.seed.customer).toEqual({ ...DEMO_CUSTOMER });
    expect(config.seed.demoData).toBe(true);
    expect(config.publicUrl).toBeUndefined();
  });

  it('normalises PUBLIC_URL and treats empty DATABASE_URL/REDIS_URL as unset', () => {
    const config = loadConfig({ DATA_DIR: tempDir(), PUBLIC_URL: 'https://shop.example.com/', DATABASE_URL: '', REDIS_URL: '' });
    expect(config.publicUrl).toBe('https://shop.example.com');
    expect(config.databaseUrl).toBeUndefined();
    expect(config.redisUrl).toBeUndefined();
  });

  it('HOST: 127.0.0.1 outside production (this machine only) unless set; every interface in production', () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).host).toBe('127.0.0.1');
    expect(loadConfig({ DATA_DIR: tempDir(), NODE_ENV: 'test', HOST: '' }).host).toBe('127.0.0.1');
    expect(loadConfig({ DATA_DIR: tempDir(), HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(loadConfig({ DATA_DIR: tempDir(), ...PRODUCTION_OK }).host).toBe('0.0.0.0');
    expect(loadConfig({ DATA_DIR: tempDir(), ...PRODUCTION_OK, HOST: '10.0.0.5' }).host).toBe('10.0.0.5');
  });

  it('siteUrl, the origin of every absolute link: PUBLIC_URL, else http://localhost:PORT outside production', () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).siteUrl).toBe('http://localhost:3000');
    expect(loadConfig({ DATA_DIR: tempDir(), PORT: '8123', HOST: '0.0.0.0' }).siteUrl).toBe('http://localhost:8123');
    expect(loadConfig({ DATA_DIR: tempDir(), PUBLIC_URL: 'http://192.168.1.20:3000/' }).siteUrl).toBe('http://192.168.1.20:3000');
    expect(loadConfig({ DATA_DIR: tempDir(), ...PRODUCTION_OK }).siteUrl).toBe('https://shop.example.com');
    expect(problemsOf({ PUBLIC_URL: 'javascript:alert(1)' })).toEqual(['PUBLIC_URL: an http(s) address such as https://shop.example.com']);
  });

  it('lists every invalid variable', () => {
    const problems = problemsOf({ PORT: 'eighty', JWT_SECRET: 'short', AUTH_RATE_LIMIT_MAX: '0', COOKIE_SECURE: 'maybe' });
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual(['AUTH_RATE_LIMIT_MAX', 'COOKIE_SECURE', 'JWT_SECRET', 'PORT']);
    expect(problems).toContain('JWT_SECRET: JWT_SECRET must be at least 32 characters');
  });

  it('/metrics and /api/docs: public outside production, protected in production, configurable', () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).ops).toEqual({ metrics: 'public', apiDocs: 'public', token: undefined });
    expect(loadConfig({ DATA_DIR: tempDir(), ...PRODUCTION_OK }).ops).toEqual({ metrics: 'protected', apiDocs: 'protected', token: undefined });
    const custom = loadConfig({ DATA_DIR: tempDir(), ...PRODUCTION_OK, METRICS_ACCESS: 'public', API_DOCS_ACCESS: 'off', METRICS_TOKEN: 't'.repeat(20) });
    expect(custom.ops).toEqual({ metrics: 'public', apiDocs: 'off', token: 't'.repeat(20) });
    expect(problemsOf({ METRICS_ACCESS: 'open', METRICS_TOKEN: 'short' }).map((p) => p.split(':')[0]).sort()).toEqual(['METRICS_ACCESS', 'METRICS_TOKEN']);
  });
});

describe('LOG_FORMAT', () => {
  it('pretty or json as asked; auto is json in production and whenever stdout is not a terminal', () => {
    expect(loadConfig({ DATA_DIR: tempDir(), LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(loadConfig({ DATA_DIR: tempDir(), LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(loadConfig({ DATA_DIR: tempDir(), ...PRODUCTION_OK }).logFormat).toBe('json');
    expect(loadConfig({ DATA_DIR: tempDir() }).logFormat).toBe(process.stdout.isTTY ? 'pretty' : 'json');
    expect(() => loadConfig({ DATA_DIR: tempDir(), LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT/);
  });
});
