// Scene-level revision as a mode of the one registry (reached by POST /api/v1/jobs/{id}/revise, docs/revision.md):
// validated, priced, charged, queued and refunded on failure like every paid job.
import { ApiError, errors } from '../../platform/errors.ts';
import { findAccountJob } from '../../platform/jobs/jobs-repo.ts';
import type { ModeDefinition } from '../../platform/modes/mode.ts';
import { revisionPrice } from '../../platform/pricing/revision-price.ts';
import { runRevision, type ReviseDeps } from './revise-pipeline.ts';
import { reviseRequestSchema, type ReviseRequest } from './revise-request.ts';
import { readRevisionPlan } from './revision-plan.ts';

export const REVISE_MODE = 'revision';

const notRevisable = (message: string) => new ApiError(409, 'JOB_NOT_REVISABLE', message);

/** Scenes a revision renders again, as priced: every scene for a new caption style, else those changed. */
export function scenesToRender(request: ReviseRequest, sceneCount: number): number {
  if (request.caption_style !== undefined) return sceneCount;
  return new Set(request.scenes.map((c) => c.index)).size;
}

export function reviseMode(deps: ReviseDeps): ModeDefinition<ReviseRequest> {
  return {
    name: REVISE_MODE,
    endpoint: 'jobs/{jobId}/revise',
    ownRoute: true,
    title: 'Scene-level revision',
    description:
      'A new video from a finished stock-engine video with some scenes changed (script line, footage, caption style, music): only the changed scenes are rendered again, the others are reused by stream copy, and the audio is remixed whole.',
    schema: reviseRequestSchema,
    receiptStatus: 202,
    idempotencyKey: 'required',
    heavy: true,
    dryRun: true,
    webhooks: true,
    privateDelivery: true,
    identicalRequestProtection: true,
    async validate(request, services) {
      const source = await findAccountJob(services.db, services.accountId, request.source_job_id);
      if (!source) throw errors.jobNotFound(request.source_job_id);
      if (source.status !== 'completed')
        throw notRevisable(`Job ${source.id} is ${source.status}: only a completed video can be revised.`);
      const plan = await readRevisionPlan(services.store, source.id);
      if (!plan)
        throw notRevisable(
          `Job ${source.id} kept no scene segments: only videos of the stock engine (stock, magic, motivational, article, news) rendered by this version can be revised.`,
        );
      const issues = request.scenes.flatMap((change, i) => [
        ...(change.index >= plan.scenes.length
          ? [
              {
                field: `scenes[${i}].index`,
                message: `must be below ${plan.scenes.length} (the video's scenes)`,
              },
            ]
          : []),
        ...(request.scenes.findIndex((c) => c.index === change.index) !== i
          ? [{ field: `scenes[${i}].index`, message: 'names a scene already changed' }]
          : []),
      ]);
      const wanted = request.scenes.flatMap((c, i) =>
        c.clip_id !== undefined ? [{ id: c.clip_id, i }] : [],
      );
      if (wanted.length > 0) {
        const ready = new Set((await deps.library.readyClips()).map((c) => c.id));
        for (const { id, i } of wanted)
          if (!ready.has(id))
            issues.push({ field: `scenes[${i}].clip_id`, message: `no library clip ${id}` });
      }
      if (issues.length > 0) throw errors.inputInvalid(`The revision does not fit job ${source.id}.`, issues);
      if (request.scenes.length === 0 && !request.caption_style && !request.music)
        throw errors.inputInvalid('Nothing to revise: send scenes, caption_style or music.', [
          { field: 'scenes', message: 'name at least one change' },
        ]);
      return {
        ...request,
        planned: { scenes: plan.scenes.length, rendered: scenesToRender(request, plan.scenes.length) },
      };
    },
    price: (request) => revisionPrice(request.planned?.rendered ?? scenesToRender(request, 0)),
    estimate: (request) => ({
      // bench:revise (BENCHMARKS.md): a few seconds for the remix and re-mux, a few more per scene drawn again.
      renderSeconds: {
        min: 2,
        typical: 4 + 2 * (request.planned?.rendered ?? 1),
        max: 30 + 10 * (request.planned?.rendered ?? 1),
      },
      warnings: request.caption_style !== undefined ? ['caption_style renders every scene again.'] : [],
    }),
    run: (ctx) => runRevision(ctx, deps),
  };
}
