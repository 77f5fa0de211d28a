import { readFileSync } from 'node:fs';

/** A field of /proc/<pid>/status in MB (VmRSS, VmHWM, RssAnon, RssFile), NaN once the process is gone. */
export function procMb(pid: number, field: string): number {
  try {
    const kb = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? NaN : Number(kb) / 1024;
  } catch {
    return NaN;
  }
}
