// The one rule of which mode a POST /jobs body runs, shared by the route and by schedules that submit such
// bodies: with `platforms`, a fan-out publish job (when this build serves publishing); otherwise the mode
// named by `operation` (default: stock video), which is taken out of the body.
import { errors } from '../errors.ts';
import type { ModeDefinition, ModeRegistry } from '../modes/mode.ts';
import { isPlainObject } from './parse-request.ts';

export const JOBS_DEFAULT_OPERATION = 'stock';

export function modeForJobsBody(
  registry: ModeRegistry,
  raw: unknown,
): { mode: ModeDefinition; body: unknown } {
  const body = isPlainObject(raw) ? { ...raw } : raw;
  const fanout = registry.get('fanout');
  if (fanout && isPlainObject(body) && 'platforms' in body) return { mode: fanout, body };
  let operation = JOBS_DEFAULT_OPERATION;
  if (isPlainObject(body) && 'operation' in body) {
    operation = String(body.operation);
    delete body.operation;
  }
  const mode = registry.get(operation);
  if (!mode) {
    const valid = registry.all().map((m) => m.name);
    throw errors.inputInvalid(`operation must be one of: ${valid.join(', ') || '(no modes installed)'}`, [
      { field: 'operation', message: `must be one of: ${valid.join(', ')}`, valid_values: valid },
    ]);
  }
  return { mode, body };
}
