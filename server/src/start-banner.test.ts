import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { startBanner } from './start-banner.ts';

const configWith = (env: Record<string, string>) =>
  loadConfig({ DATA_DIR: mkdtempSync(path.join(tmpdir(), 'shop-banner-')), JWT_SECRET: 'banner-test-secret-banner-test-secret-1', PORT: '3000', ...env });
const demo = [{ role: 'admin' as const, email: 'admin@example.com', password: 'admin1234' }];
const banner = (env: Record<string, string>, printsShared = true) =>
  startBanner({ config: configWith(env), details: 'database: pglite in /data', demoAccounts: demo, printsShared });

describe('the start banner', () => {
  it('outside production, on this machine only: the address, the mailbox and the demo accounts', () => {
    expect(banner({})).toEqual([
      'Shop ready on http://localhost:3000 (listening on 127.0.0.1: this machine only; database: pglite in /data)',
      'Development mailbox (no SMTP_URL, mail is kept, not sent): http://localhost:3000/dev/mailbox',
      'Demo accounts (their demo passwords still work):',
      '  demo admin: admin@example.com / admin1234',
    ]);
  });

  it('exposed on every interface: the mailbox is off for other machines, and links need PUBLIC_URL', () => {
    expect(banner({ HOST: '0.0.0.0' }).slice(0, 3)).toEqual([
      'Shop ready on http://localhost:3000 (listening on 0.0.0.0: reachable from other machines; database: pglite in /data)',
      'Links in e-mails and pages point to http://localhost:3000: set PUBLIC_URL to the address other machines use (see README, "Trying the shop from another device").',
      "Development mailbox: off for other machines (it holds every account's sign-up and password-reset links); on this machine only: http://localhost:3000/dev/mailbox",
    ]);
    // with PUBLIC_URL set, no advice about it
    expect(banner({ HOST: '0.0.0.0', PUBLIC_URL: 'http://192.168.1.20:3000' }).join('\n')).not.toContain('set PUBLIC_URL');
  });

  it('bound to one outside address: the mailbox is off', () => {
    const lines = banner({ HOST: '192.168.1.20', PUBLIC_URL: 'http://192.168.1.20:3000' });
    expect(lines[0]).toBe('Shop ready on http://192.168.1.20:3000 (listening on 192.168.1.20: reachable from other machines; database: pglite in /data)');
    expect(lines[1]).toBe("Development mailbox: off (the shop listens on 192.168.1.20, and the mailbox answers this machine's loopback address only)");
  });

  it('with SMTP_URL there is no mailbox line; in production neither mailbox nor demo accounts; other workers print the address only', () => {
    expect(banner({ SMTP_URL: 'smtp://127.0.0.1:2525' }).join('\n')).not.toContain('mailbox');
    expect(banner({ NODE_ENV: 'production', PUBLIC_URL: 'https://shop.example.com' })).toEqual([
      'Shop ready on http://localhost:3000 (listening on 0.0.0.0: reachable from other machines; database: pglite in /data)',
    ]);
    expect(banner({}, false)).toHaveLength(1);
  });
});
