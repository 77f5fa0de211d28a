import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files measured as the slowest (tens of seconds to minutes each: they start whole shops as child
 * processes, or back up and restore, or fuzz every route). They start first, so that neither worker
 * is left running one of them alone at the end. Without this, a fresh clone (no timings cached)
 * orders by file size, and src/main.test.ts, small and slowest, would start last. A renamed file
 * only loses its place in the queue.
 */
const SLOW_FIRST = [
  'src/main.test.ts',
  'src/ops/restore-safety.test.ts',
  'src/app.fuzz.test.ts',
  'src/ops/backup.test.ts',
  'src/cluster.test.ts',
  'src/ops/rolling-restart.test.ts',
  'src/access-matrix.test.ts',
  'src/modules/payments/payments.test.ts',
  'src/modules/users/auth-rate-limit.test.ts',
  'src/lib/process-faults.test.ts',
  'src/db/migrate.test.ts',
  'src/db/client.test.ts',
];

/** The default order (one project after the other, larger or slower files first), with SLOW_FIRST at the front of each project. */
export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const i = SLOW_FIRST.findIndex((f) => spec.moduleId.endsWith(`/server/${f}`));
      return i === -1 ? SLOW_FIRST.length : i;
    };
    const projects = [...new Set(sorted.map((spec) => spec.project.name))];
    // Array.prototype.sort is stable: files outside SLOW_FIRST keep the default order.
    return projects.flatMap((name) => sorted.filter((spec) => spec.project.name === name).sort((a, b) => rank(a) - rank(b)));
  }
}
