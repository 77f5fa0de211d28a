import type { FastifyBaseLogger } from 'fastify';

/**
 * Work done after the response has gone: the answer cannot depend on it, so neither its result nor
 * its duration can be observed by the caller (sign-up, forgot-password and the newsletter answer the
 * same, equally fast, whether or not an account exists). A failure is logged; nothing is retried
 * here, and work queued here is lost with the process: only for work that may be lost (those routes
 * ask the database whether it answers before they answer). Work that must happen (a lead update, a
 * mail, a supplier order) is a job (lib/jobs.ts), written with the change that causes it.
 */
export interface BackgroundTasks {
  /** Queues `task` to start after the current response has been written. */
  run(name: string, task: () => Promise<void>): void;
  /** Resolves when every task queued so far has finished (tests, shutdown). */
  flush(): Promise<void>;
}

type ErrorLog = Pick<FastifyBaseLogger, 'error'>;

export function createBackgroundTasks(log: ErrorLog): BackgroundTasks {
  const pending = new Set<Promise<void>>();
  return {
    run(name, task) {
      // setImmediate: after the reply has been handed to the socket in this turn of the event loop.
      const done: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
        .then(task)
        .catch((err: unknown) => log.error({ err, task: name }, 'background task failed'))
        .finally(() => pending.delete(done));
      pending.add(done);
    },
    async flush() {
      while (pending.size) await Promise.all([...pending]);
    },
  };
}

/**
 * Background tasks held until released: lets a test prove that a response was sent before any of
 * the work behind it started.
 */
export function createHeldBackgroundTasks(log: ErrorLog = { error: () => undefined } as unknown as ErrorLog): BackgroundTasks & { queued(): string[]; release(): Promise<void> } {
  const inner = createBackgroundTasks(log);
  let held: Array<{ name: string; task: () => Promise<void> }> = [];
  return {
    run(name, task) {
      held.push({ name, task });
    },
    flush: () => inner.flush(),
    queued: () => held.map((h) => h.name),
    async release() {
      const tasks = held;
      held = [];
      for (const h of tasks) inner.run(h.name, h.task);
      await inner.flush();
    },
  };
}
