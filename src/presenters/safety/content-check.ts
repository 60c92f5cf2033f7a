// The content-safety check of presenter videos (spec 1 §4.5: "scripts and photos pass a content-safety check,
// 422 when blocked, refunded"). A script, sent or written, goes through the local policy (script-policy.ts)
// first; when a moderation provider is configured it then reads the script and the presenter photo too. A
// configured provider that cannot answer never lets content through: the check fails with a retryable error
// instead (ContentCheckUnavailableError), so the job fails and is refunded rather than rendering unchecked
// words or faces.
import sharp from 'sharp';
import { ApiError, JobFailure } from '../../platform/errors.ts';
import { ProviderError } from '../../providers/openai-llm.ts';
import type { ModerationClient, ModerationInput, ModerationResult } from './moderation-client.ts';
import { checkScriptLocally, SCRIPT_POLICY_CATEGORIES, type ScriptPolicyCategory } from './script-policy.ts';

/** The provider's categories (OpenAI's names) in words for API users. */
export const PROVIDER_CATEGORIES: Record<string, { label: string; description: string }> = {
  sexual: { label: 'sexual content', description: 'content meant to arouse, or promoting sexual services' },
  'sexual/minors': {
    label: 'sexual content involving minors',
    description: 'sexual content with anyone under 18',
  },
  hate: { label: 'hate', description: 'hate based on a protected characteristic' },
  'hate/threatening': { label: 'threatening hate', description: 'hate that also threatens violence or harm' },
  harassment: { label: 'harassment', description: 'harassing language towards anyone' },
  'harassment/threatening': { label: 'threats', description: 'harassment that threatens violence or harm' },
  'self-harm': { label: 'self-harm', description: 'promoting or depicting self-harm' },
  'self-harm/intent': {
    label: 'intent to self-harm',
    description: 'the speaker saying they will harm themselves',
  },
  'self-harm/instructions': {
    label: 'self-harm instructions',
    description: 'encouraging self-harm or explaining how',
  },
  violence: { label: 'violence', description: 'depicting death, violence or injury' },
  'violence/graphic': {
    label: 'graphic violence',
    description: 'death, violence or injury in graphic detail',
  },
  illicit: { label: 'instructions for wrongdoing', description: 'advice on committing illicit acts' },
  'illicit/violent': {
    label: 'instructions for violent wrongdoing',
    description: 'advice on violent acts or on getting weapons',
  },
};

/**
 * Categories that do not block on their own: they also cover news, history, true crime and criticism, which
 * presenters read every day. Flagged together with any other category, the content is blocked.
 */
export const NOT_BLOCKING_ALONE = ['harassment', 'violence', 'illicit'] as const;

/** The policy as docs/presenters.md prints it. */
export const CONTENT_POLICY = {
  summary:
    'Presenter videos put words in a real-looking person’s mouth, so every presenter script (sent, or written from a topic) and every presenter photo is checked before anything is rendered. Blocked content fails with HTTP 422 and is not charged, or is refunded when the check runs inside the job.',
  localPolicy: {
    appliesTo: 'scripts',
    always: true,
    how: 'Deterministic phrase rules read one sentence at a time: whole words, any case, singular or plural. A refusal names the category, what the script does and the sentence. Sentences that only discuss a harm pass: a negation just before it ("never share your seed phrase"), or words of reporting, help or warning in the sentence ("police arrested…", "call the 988 lifeline", "beware of…"). The rules read words, not intent, and only English.',
    categories: Object.entries(SCRIPT_POLICY_CATEGORIES).map(([id, c]) => ({ id, ...c })),
  },
  provider: {
    appliesTo: 'scripts and photos',
    when: 'When MODERATION_API_KEY is set: OpenAI’s moderation API (MODERATION_BASE_URL, MODERATION_MODEL, default omni-moderation-latest) reads the script once it passes the local policy, and the presenter photo (downscaled to at most 1024 px and sent as a JPEG data URL, never as the address it came from).',
    adds: 'A model’s judgement of meaning and of images: it catches what phrase rules cannot (paraphrase, context, nudity and gore in photos).',
    blocking: Object.entries(PROVIDER_CATEGORIES)
      .filter(([id]) => !(NOT_BLOCKING_ALONE as readonly string[]).includes(id))
      .map(([id, c]) => ({ id, ...c })),
    notBlockingAlone: NOT_BLOCKING_ALONE.map((id) => ({ id, ...PROVIDER_CATEGORIES[id]! })),
    unavailable:
      'A configured provider that cannot answer (down, timing out, rate limited after its retries, or refusing the service’s key) never lets content through: the request fails with CONTENT_CHECK_UNAVAILABLE and is refunded; it is retryable unless the provider refused the service’s own settings.',
  },
  withoutProvider: 'Scripts are held to the local policy only; photos are not checked for content.',
} as const;

export type ContentCheckName = 'script_policy' | 'script_moderation' | 'photo_moderation';

export type ContentVerdict =
  | { allowed: true; checks: ContentCheckName[] }
  | {
      allowed: false;
      input: 'script';
      blockedBy: 'local_policy';
      category: ScriptPolicyCategory;
      reason: string;
      excerpt: string;
      /** For the API user: what was blocked, by which rule, and what to do. */
      message: string;
      checks: ContentCheckName[];
    }
  | {
      allowed: false;
      input: 'script' | 'photo';
      blockedBy: 'provider';
      provider: string;
      /** The provider's flagged categories, in its names. */
      categories: string[];
      message: string;
      checks: ContentCheckName[];
    };

export interface ContentToCheck {
  /** The script the presenter will speak, as sent or as written. */
  text?: string;
  /** The presenter photo on local disk (JPEG or PNG). */
  imagePath?: string;
}

export interface ContentCheckOptions {
  /** A moderation provider, when configured. */
  moderation?: ModerationClient;
  signal?: AbortSignal;
}

/**
 * The moderation provider could not give a verdict, so the content was not passed. Thrown as a JobFailure
 * (the job fails, refunded); `toApiError()` gives the same refusal for a check made while a request is
 * handled.
 */
export class ContentCheckUnavailableError extends JobFailure {
  constructor(
    readonly provider: string,
    cause: ProviderError,
  ) {
    const message = cause.retryable
      ? `The content-safety check could not be completed: the moderation provider gave no verdict (${cause.code}). Nothing was rendered; try again in a few minutes with a new Idempotency-Key.`
      : `The content-safety check could not be completed: the moderation provider refused this service's request (${cause.code}${cause.status ? `, HTTP ${cause.status}` : ''}). Nothing was rendered; the service's operator must fix its moderation settings.`;
    super({ code: 'CONTENT_CHECK_UNAVAILABLE', category: 'provider', message, retryable: cause.retryable });
    this.name = 'ContentCheckUnavailableError';
    this.cause = cause;
  }

  toApiError(): ApiError {
    return new ApiError(503, this.jobError.code, this.jobError.message, {
      retryable: this.jobError.retryable,
    });
  }
}

/** The provider's verdict blocks when it flags anything but the categories that do not block alone. */
function blocks(result: ModerationResult): boolean {
  if (!result.flagged) return false;
  const alone: readonly string[] = NOT_BLOCKING_ALONE;
  return result.categories.length === 0 || result.categories.some((c) => !alone.includes(c));
}

function labelOf(category: string): string {
  return PROVIDER_CATEGORIES[category]?.label ?? category.replace(/[/_-]+/g, ' ');
}

/** The photo as the provider reads it: upright, at most 1024 px, JPEG (the API takes up to 20 MB). */
async function photoDataUrl(path: string): Promise<string> {
  const jpeg = await sharp(path)
    .rotate()
    .resize({ width: 1024, height: 1024, fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 85 })
    .toBuffer();
  return `data:image/jpeg;base64,${jpeg.toString('base64')}`;
}

/**
 * Checks a presenter's script and photo: the local policy on the script, then, with a provider, the script
 * and the photo in parallel. Resolves with the verdict; throws ContentCheckUnavailableError when a configured
 * provider cannot judge and nothing it did judge was blocked.
 */
export async function checkContent(
  content: ContentToCheck,
  options: ContentCheckOptions = {},
): Promise<ContentVerdict> {
  const { moderation, signal } = options;
  signal?.throwIfAborted();
  const text = content.text?.trim() ? content.text : undefined;
  const checks: ContentCheckName[] = [];

  if (text !== undefined) {
    checks.push('script_policy');
    const local = checkScriptLocally(text);
    if (!local.allowed) {
      const { title } = SCRIPT_POLICY_CATEGORIES[local.category];
      return {
        allowed: false,
        input: 'script',
        blockedBy: 'local_policy',
        category: local.category,
        reason: local.reason,
        excerpt: local.excerpt,
        message: `The script breaks the content policy on ${title.toLowerCase()}: ${local.reason}, in "${local.excerpt}". Rephrase it and send the request again.`,
        checks,
      };
    }
  }
  if (!moderation) return { allowed: true, checks };

  const asked: { input: 'script' | 'photo'; check: ContentCheckName; request: Promise<ModerationResult> }[] =
    [];
  const ask = (input: ModerationInput) => moderation.moderate(input, { signal });
  if (text !== undefined)
    asked.push({ input: 'script', check: 'script_moderation', request: ask({ kind: 'text', text }) });
  if (content.imagePath !== undefined) {
    const imagePath = content.imagePath;
    asked.push({
      input: 'photo',
      check: 'photo_moderation',
      request: photoDataUrl(imagePath).then((url) => ask({ kind: 'image', url })),
    });
  }
  const settled = await Promise.allSettled(asked.map((a) => a.request));
  signal?.throwIfAborted();
  checks.push(...asked.map((a) => a.check));

  // A blocked input decides, even when the provider could not judge the other.
  for (const [i, outcome] of settled.entries()) {
    const { input } = asked[i]!;
    if (outcome.status === 'fulfilled' && blocks(outcome.value)) {
      // What blocked it first; the categories that do not block alone after.
      const alone: readonly string[] = NOT_BLOCKING_ALONE;
      const categories = [...outcome.value.categories].sort(
        (x, y) => +alone.includes(x) - +alone.includes(y),
      );
      const labels = categories.length > 0 ? categories.map(labelOf).join(', ') : 'flagged content';
      return {
        allowed: false,
        input,
        blockedBy: 'provider',
        provider: moderation.name,
        categories,
        message: `The ${input} was blocked by the moderation check (${labels}). ${input === 'photo' ? 'Use another photo' : 'Rephrase the script'} and send the request again.`,
        checks,
      };
    }
  }
  for (const outcome of settled) {
    if (outcome.status === 'rejected') {
      if (outcome.reason instanceof ProviderError)
        throw new ContentCheckUnavailableError(moderation.name, outcome.reason);
      throw outcome.reason;
    }
  }
  return { allowed: true, checks };
}
