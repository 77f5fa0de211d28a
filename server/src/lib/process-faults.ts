/**
 * Errors nothing caught: an unhandled promise rejection or an exception thrown from a callback
 * (a timer, a socket event) would end Node's process by default, taking every open request and chat
 * socket with it. The shop logs them, counts them (`shop_unhandled_errors_total` in /metrics) and
 * keeps serving; the request or socket that caused one has its own guard (the error handler, the
 * chat socket's handler guard), so what reaches here is a bug to fix, not a reason to go down.
 *
 * The process still exits (code 1, after logging; the supervisor or cluster primary starts a new
 * one) for the faults after which it cannot be trusted to go on, named in FATAL_ERROR_CODES: the
 * heap or an allocation exhausted. Everything else keeps the process serving.
 */

interface Log { error(obj: object, msg: string): void; fatal?(obj: object, msg: string): void }

/** Error codes after which the process exits rather than serve on. */
export const FATAL_ERROR_CODES: ReadonlySet<string> = new Set([
  'ERR_MEMORY_ALLOCATION_FAILED',
  'ERR_WORKER_OUT_OF_MEMORY',
  'ERR_OUT_OF_MEMORY',
]);

export type ProcessFaultKind = 'unhandledRejection' | 'uncaughtException';

let counts: Record<ProcessFaultKind, number> = { unhandledRejection: 0, uncaughtException: 0 };

/** Unhandled errors counted in this process since it started, by kind (read by /metrics). */
export function unhandledErrorCounts(): Readonly<Record<ProcessFaultKind, number>> {
  return counts;
}

export function isFatalProcessError(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && FATAL_ERROR_CODES.has(code);
}

export interface ProcessFaultOptions {
  log: Log;
  /** How the process ends for a fatal error (tests replace it). */
  exit?: (code: number) => void;
  proc?: NodeJS.Process;
}

/**
 * Installs the process-wide handlers (once per process; a second call replaces the first's).
 * Returns a function that removes them.
 */
export function installProcessFaultHandlers(opts: ProcessFaultOptions): () => void {
  const proc = opts.proc ?? process;
  const exit = opts.exit ?? ((code: number) => proc.exit(code));
  uninstall?.();
  const handle = (kind: ProcessFaultKind) => (reason: unknown) => {
    counts = { ...counts, [kind]: counts[kind] + 1 };
    const err = reason instanceof Error ? reason : new Error(`non-error ${kind}: ${safeString(reason)}`);
    if (isFatalProcessError(reason)) {
      (opts.log.fatal ?? opts.log.error).call(opts.log, { err, kind }, `${kind}: fatal, the process exits`);
      exit(1);
      return;
    }
    opts.log.error({ err, kind }, `${kind}: logged and counted, the shop keeps serving`);
  };
  const onRejection = handle('unhandledRejection');
  const onException = handle('uncaughtException');
  proc.on('unhandledRejection', onRejection);
  proc.on('uncaughtException', onException);
  const remove = () => {
    proc.off('unhandledRejection', onRejection);
    proc.off('uncaughtException', onException);
    if (uninstall === remove) uninstall = undefined;
  };
  uninstall = remove;
  return remove;
}

let uninstall: (() => void) | undefined;

function safeString(value: unknown): string {
  try {
    return typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}
