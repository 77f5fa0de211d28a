import type { Config } from './config.ts';
import type { SeededAccount } from './db/seed/users.ts';
import { isLoopbackHost, isWildcardHost } from './lib/local-only.ts';

export interface BannerFacts {
  config: Config;
  /** e.g. "database: pglite in /data" (and the worker, in a cluster). */
  details: string;
  /** The demo accounts that still have their demo passwords (db/seed/users.ts demoAccountsInUse). */
  demoAccounts: SeededAccount[];
  /** Whether this process prints the lines that are the same for every worker (mailbox, demo accounts). */
  printsShared: boolean;
}

/** The address to open in a browser on the machine the shop runs on. */
function localUrl(config: Config): string {
  if (isLoopbackHost(config.host) || isWildcardHost(config.host)) return `http://localhost:${config.port}`;
  return `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
}

/**
 * What a start prints once the server listens: where it is and who can reach it, and outside
 * production the development mailbox (on only for this machine) and the demo accounts still usable.
 */
export function startBanner(facts: BannerFacts): string[] {
  const { config } = facts;
  const url = localUrl(config);
  const reach = isLoopbackHost(config.host)
    ? `listening on ${config.host}: this machine only`
    : `listening on ${config.host}: reachable from other machines`;
  const lines = [`Shop ready on ${url} (${reach}; ${facts.details})`];
  if (!facts.printsShared || config.isProduction) return lines;
  if (!isLoopbackHost(config.host) && config.siteUrl.startsWith('http://localhost:')) {
    lines.push(`Links in e-mails and pages point to ${config.siteUrl}: set PUBLIC_URL to the address other machines use (see README, "Trying the shop from another device").`);
  }
  if (config.devMailbox) {
    if (isLoopbackHost(config.host)) {
      lines.push(`Development mailbox (no SMTP_URL, mail is kept, not sent): ${url}/dev/mailbox`);
    } else if (isWildcardHost(config.host)) {
      lines.push(`Development mailbox: off for other machines (it holds every account's sign-up and password-reset links); on this machine only: http://localhost:${config.port}/dev/mailbox`);
    } else {
      lines.push(`Development mailbox: off (the shop listens on ${config.host}, and the mailbox answers this machine's loopback address only)`);
    }
  }
  if (facts.demoAccounts.length) {
    lines.push('Demo accounts (their demo passwords still work):');
    for (const a of facts.demoAccounts) lines.push(`  demo ${a.role}: ${a.email} / ${a.password}`);
  }
  return lines;
}
