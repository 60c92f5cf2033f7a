import type { ModeDefinition } from '../../src/platform/modes/mode.ts';
import { testMode, type TestRequest } from './test-mode.ts';

/**
 * The test mode, except that `sleep_ms` applies to the first attempt only: a job that hangs (or is cut off)
 * once and then runs normally, so tests can tell a job that was taken over by another worker from one that
 * is still stuck.
 */
export function hangOnceMode(): ModeDefinition<TestRequest> {
  const base = testMode();
  return testMode({
    run: (ctx) =>
      base.run(ctx.job.attempt === 1 ? ctx : { ...ctx, request: { ...ctx.request, sleep_ms: 0 } }),
  });
}
