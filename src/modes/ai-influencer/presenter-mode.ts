import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import { expectedScriptSource, scriptProvenance } from '../../media/script/writer.ts';
import { invalidInputError } from '../../platform/generation/parse-request.ts';
import type { ModeDefinition, Price, ValidationServices } from '../../platform/modes/mode.ts';
import { accountBrand } from '../shared/account-brand.ts';
import { brandKitHeaders, brandKitWarnings, isKitSnapshot } from '../shared/brand-kit-selection.ts';
import { resolveKitForBrief, videoBranding, videoLanguage } from '../shared/kit-branding.ts';
import { resolveVoiceToken } from '../shared/voice-token.ts';
import {
  analysePhoto,
  fetchPhoto,
  loadPersonaForRender,
  normalisePhoto,
  PhotoRefusedError,
} from '../../presenters/personas/index.ts';
import {
  ContentCheckUnavailableError,
  type ContentToCheck,
  type ContentVerdict,
} from '../../presenters/safety/content-check.ts';
import { unconfiguredEngineMessage } from '../../providers/avatars/avatar-providers.ts';
import { IMAGE_MODEL_SETTINGS } from '../../providers/image-models/image-model.ts';
import { errors } from '../../platform/errors.ts';
import { runPresenter, type PresenterDeps } from './presenter-pipeline.ts';
import {
  PRESENTER_ALIASES,
  PresenterRuleError,
  presenterSchema,
  presenterWarnings,
  priceOfPresenter,
  pricedStills,
  resolvePresenterRequest,
  type PresenterRequest,
} from './presenter-request.ts';
import { claimSeriesVideo, readSeries } from './series.ts';
import { presenterVariants, variationDistinctness } from './variations.ts';

// POST /videos/ai-influencer (spec 1 §4.5): a presenter speaking a script, alone (talking_head) or with B-roll
// (presenter_broll: creator, split or cutaway layout), or a logo host in the presenter's place.

export function presenterPriceOf(request: PresenterRequest): Price {
  const price = priceOfPresenter(request);
  // A variations request (before it is split into its jobs) costs its count times one video.
  const count = request.variant ? 1 : (request.variations?.count ?? 1);
  return {
    usdCents: price.usdCents * count,
    breakdown: price.breakdown.map((line) =>
      count === 1
        ? line
        : { ...line, item: `${line.item}, × ${count} variations`, usd_cents: line.usd_cents * count },
    ),
    tool: 'videos/ai-influencer',
    model: request.priced_as,
    tier: request.format,
    engine: request.priced_as,
  };
}

/** A logo the host can show: the host's own, the video brand's, the kit's, or the account brand's. */
async function hostHasLogo(request: PresenterRequest, services: ValidationServices): Promise<boolean> {
  if (request.host.type !== 'logo') return true;
  if (request.host.logo_url || request.brand?.logo_url) return true;
  if (isKitSnapshot(request.brand_kit)) return request.brand_kit.logo;
  if (request.brand_kit) return true; // a kit a dry run would build: its logo is not known yet
  const saved = await accountBrand(services);
  return Boolean(saved?.logo_url);
}

/** A series' first video fixed engine and voice; a later one that leaves them out inherits them. */
async function inheritSeries(
  request: PresenterRequest,
  services: ValidationServices,
): Promise<PresenterRequest> {
  if (!request.series_id || !request.brand_id) return request;
  const series = await readSeries(services.db, services.accountId, request.brand_id, request.series_id);
  if (!series) return request;
  let inherited = request;
  if (
    !request.engine_sent &&
    request.engine &&
    series.engine !== request.engine &&
    series.engine !== 'logo_host'
  )
    inherited = {
      ...inherited,
      engine: series.engine as PresenterRequest['priced_as'] & PresenterRequest['engine'],
      priced_as: series.engine as PresenterRequest['priced_as'],
    };
  if (request.voice_id === undefined && series.voiceId)
    inherited = { ...inherited, voice_id: series.voiceId };
  return inherited;
}

/** The content check while a request is handled: a moderation provider that cannot answer refuses it (503). */
async function contentVerdict(deps: PresenterDeps, input: ContentToCheck): Promise<ContentVerdict> {
  try {
    return await deps.content.check(input);
  } catch (error) {
    if (error instanceof ContentCheckUnavailableError) throw error.toApiError();
    throw error;
  }
}

/** Fetches and checks a photo-only presenter (image_url) before billing: one face, the photo policy, moderation. */
async function checkPhoto(
  request: PresenterRequest,
  services: ValidationServices,
  deps: PresenterDeps,
): Promise<PresenterRequest> {
  const dir = services.stagingDir ?? join(services.config.dataDir, 'tmp', `presenter-${randomUUID()}`);
  const fetched = await fetchPhoto(services.urlGuard, request.image_url!, dir);
  try {
    await analysePhoto(await normalisePhoto(fetched.path));
  } catch (error) {
    if (error instanceof PhotoRefusedError) throw error.error;
    throw error;
  }
  const verdict = await contentVerdict(deps, { imagePath: fetched.path });
  if (!verdict.allowed) throw errors.contentBlocked(verdict.message);
  return services.stagingDir ? request : { ...request, photo_path: fetched.path };
}

async function checkPresenter(
  request: PresenterRequest,
  services: ValidationServices,
  deps: PresenterDeps,
): Promise<PresenterRequest> {
  const engine = request.engine;
  if (!engine) return request;
  if (request.image_url !== undefined && engine !== 'avatar_iv')
    throw errors.engineNotSupported(
      `a photo (image_url) renders on avatar_iv only; send engine avatar_iv, or make a persona (POST /avatars) for ${engine}`,
    );
  if (engine !== 'avatar_iii' && !deps.avatarProviders[engine])
    throw errors.engineNotSupported(unconfiguredEngineMessage(engine));
  if (request.avatar_id === undefined) return checkPhoto(request, services, deps);
  const persona = await loadPersonaForRender(
    services.db,
    services.store,
    services.accountId,
    request.avatar_id,
  );
  if (!persona.supportedEngines.includes(engine))
    throw errors.engineNotSupported(
      `persona ${request.avatar_id} supports ${persona.supportedEngines.join(', ')}; ${engine} is not among them`,
    );
  return {
    ...request,
    presenter: {
      name: persona.name,
      ...(persona.suggestedVoiceGender ? { voiceGender: persona.suggestedVoiceGender } : {}),
    },
  };
}

function checkVoice(request: PresenterRequest, deps: PresenterDeps, language: string): PresenterRequest {
  const gender = request.voice_gender ?? request.presenter?.voiceGender ?? 'female';
  const { voice_id } = resolveVoiceToken(
    { ...(request.voice_id ? { voice_id: request.voice_id } : {}), voice_gender: gender, language },
    deps.narrator,
  );
  return { ...request, ...(voice_id ? { voice_id } : {}), voice_gender: gender };
}

export function presenterMode(deps: PresenterDeps): ModeDefinition<PresenterRequest> {
  const schema = presenterSchema.transform((body, ctx) => {
    try {
      return resolvePresenterRequest(body);
    } catch (error) {
      if (!(error instanceof PresenterRuleError)) throw error;
      for (const issue of error.issues)
        ctx.addIssue({ code: 'custom', path: issue.field.split('.'), message: issue.message });
      return z.NEVER;
    }
  });
  return {
    name: 'ai_influencer',
    endpoint: 'videos/ai-influencer',
    title: 'AI influencer',
    description:
      'A presenter speaking your script or a hook-first script on a topic: a talking head, or the presenter with B-roll per sentence (creator, split or cutaway layout), or your logo as the host; captions, music, brand and an outro card.',
    schema,
    aliases: PRESENTER_ALIASES,
    receiptStatus: 200,
    idempotencyKey: 'required',
    heavy: true,
    dryRun: true,
    webhooks: true,
    privateDelivery: true,
    identicalRequestProtection: true,
    // Each AI still may take its provider a minute or two, retries included.
    lifetimeSeconds: (request) =>
      (request.engine === 'avatar_iii' || !request.engine ? 1200 : 2700) + pricedStills(request) * 60,
    async validate(request, services) {
      if (request.broll.visuals !== 'stock' && !deps.imageModel)
        throw invalidInputError([
          {
            field: 'broll.visuals',
            message: `${request.broll.visuals} B-roll needs a hosted image model, and this service has none configured: ${IMAGE_MODEL_SETTINGS}; or send stock`,
            valid_values: ['stock'],
          },
        ]);
      const kit = await resolveKitForBrief(request, services, {
        topic: request.topic,
        script: request.script,
        instructions: request.instructions,
      });
      let checked: PresenterRequest = kit ? { ...request, brand_kit: kit } : request;
      checked = await inheritSeries(checked, services);
      if (!(await hostHasLogo(checked, services))) throw errors.logoHostNoLogo();
      checked = await checkPresenter(checked, services, deps);
      checked = checkVoice(checked, deps, videoLanguage(undefined, kit));
      if (checked.script) {
        const verdict = await contentVerdict(deps, { text: checked.script });
        if (!verdict.allowed) throw errors.contentBlocked(`The script was blocked: ${verdict.message}`);
      }
      return checked;
    },
    onAccepted: (tx, request, job) => claimSeriesVideo(tx, request, job),
    variants: presenterVariants,
    variantSetExtras: variationDistinctness,
    answerHeaders: (request) => brandKitHeaders(request.brand_kit),
    price: presenterPriceOf,
    estimate: (request) => {
      const seconds = Math.round(request.speech_sec + (request.layout === 'creator' ? 3 : 1));
      const hosted = request.engine === 'avatar_iv' || request.engine === 'avatar_v';
      // AI stills are made three at a time, 10–60 s each.
      const stillRounds = Math.ceil(pricedStills(request) / 3);
      const base = hosted
        ? { min: 60, typical: 210, max: 2400 }
        : { min: Math.round(10 + seconds * 0.5), typical: Math.round(20 + seconds), max: 60 + seconds * 4 };
      return {
        renderSeconds: {
          min: base.min + stillRounds * 10,
          typical: base.typical + stillRounds * 25,
          max: base.max + stillRounds * 180,
        },
        durationSec: seconds,
        script: scriptProvenance(expectedScriptSource(request.script, deps.llmConfigured ?? false)),
        warnings: [...presenterWarnings(request), ...brandKitWarnings(request)],
      };
    },
    async run(ctx) {
      const r = ctx.request;
      const branding = await videoBranding(r, ctx);
      return runPresenter(ctx, branding, deps);
    },
  };
}
