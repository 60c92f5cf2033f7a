import type { z } from 'zod';
import { ApiError, errors, type FieldIssue } from '../errors.ts';
import type { ModeDefinition } from '../modes/mode.ts';
import type { UrlGuard } from '../net/url-guard.ts';
import { UrlRejectedError } from '../net/url-guard.ts';

/** Field aliases of spec 1 §4.1: alias → canonical. The canonical name wins when both are sent. */
export const SHARED_ALIASES: Record<string, string> = {
  include_captions: 'captions',
  include_music: 'music',
  duration_target_sec: 'duration_sec',
  duration: 'duration_sec',
  aspectRatio: 'aspect_ratio',
  voice: 'voice_id',
  voiceId: 'voice_id',
  webhookUrl: 'webhook_url',
};

/** Platform-level options every Generate body may carry; modes never see these fields. */
export interface DeliveryOptions {
  dryRun: boolean;
  webhookUrl: string | null;
  privateDelivery: boolean;
  agentRunId: string | null;
  listing: 'private' | 'public';
}

export interface ParsedGenerateRequest<R> {
  request: R;
  options: DeliveryOptions;
  warnings: string[];
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads just the dry_run flag, before anything else: dry runs are never cached and never need a key. */
export function isDryRun(body: unknown): boolean {
  return isPlainObject(body) && body.dry_run === true;
}

function foldAliases(body: Record<string, unknown>, aliases: Record<string, string>, warnings: string[]) {
  for (const [alias, canonical] of Object.entries(aliases)) {
    if (!(alias in body)) continue;
    warnings.push(
      canonical in body
        ? `"${alias}" is a deprecated alias of "${canonical}"; both were sent and "${canonical}" was used.`
        : `"${alias}" is a deprecated alias; send "${canonical}" instead.`,
    );
    if (!(canonical in body)) body[canonical] = body[alias];
    delete body[alias];
  }
}

function issuePath(path: readonly PropertyKey[]): string {
  return (
    path
      .map((p) => (typeof p === 'number' ? `[${p}]` : String(p)))
      .join('.')
      .replace(/\.\[/g, '[') || '(body)'
  );
}

/** Turns zod's issues into field issues that name every offending field and, for enums, the valid values. */
export function fieldIssues(error: z.ZodError, prefix = ''): FieldIssue[] {
  const out: FieldIssue[] = [];
  for (const issue of error.issues) {
    const field = prefix + issuePath(issue.path);
    if (issue.code === 'invalid_value') {
      out.push({
        field,
        message: `must be one of: ${issue.values.map(String).join(', ')}`,
        valid_values: issue.values.map(String),
      });
    } else if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys)
        out.push({ field: prefix + issuePath([...issue.path, key]), message: 'is not a known field' });
    } else if (issue.code === 'invalid_union') {
      out.push({
        field,
        message: issue.message === 'Invalid input' ? 'has an invalid value or type' : issue.message,
      });
    } else {
      out.push({ field, message: issue.message });
    }
  }
  return out;
}

function takeDeliveryOptions(
  body: Record<string, unknown>,
  mode: ModeDefinition,
  urlGuard: UrlGuard,
  issues: FieldIssue[],
  warnings: string[],
): DeliveryOptions {
  const options: DeliveryOptions = {
    dryRun: false,
    webhookUrl: null,
    privateDelivery: false,
    agentRunId: null,
    listing: 'private',
  };

  if ('dry_run' in body) {
    if (typeof body.dry_run !== 'boolean') issues.push({ field: 'dry_run', message: 'must be a boolean' });
    else options.dryRun = body.dry_run;
    delete body.dry_run;
  }

  let visibility: unknown;
  const delivery = body.delivery;
  if (delivery !== undefined) {
    if (!isPlainObject(delivery))
      issues.push({ field: 'delivery', message: 'must be an object like {"visibility":"private"}' });
    else visibility = delivery.visibility;
  }
  if (visibility === undefined && 'visibility' in body) {
    visibility = body.visibility;
    warnings.push('"visibility" is a deprecated alias; send "delivery.visibility" instead.');
  }
  if (visibility === undefined && body.private_cdn === true) {
    visibility = 'private';
    warnings.push('"private_cdn" is a deprecated alias; send "delivery.visibility": "private" instead.');
  }
  if (visibility === undefined && isPlainObject(body.options) && 'visibility' in body.options) {
    visibility = body.options.visibility;
    warnings.push('"options.visibility" is a deprecated alias; send "delivery.visibility" instead.');
  }
  for (const field of ['delivery', 'visibility', 'private_cdn']) delete body[field];
  if (visibility !== undefined) {
    if (visibility !== 'private') {
      issues.push({
        field: 'delivery.visibility',
        message: 'must be one of: private',
        valid_values: ['private'],
      });
    } else if (!mode.privateDelivery) {
      throw errors.privateDeliveryUnavailable(`/${mode.endpoint}`);
    } else {
      options.privateDelivery = true;
    }
  }

  if ('webhook_url' in body) {
    const url = body.webhook_url;
    delete body.webhook_url;
    if (url !== null && url !== undefined) {
      if (!mode.webhooks) {
        issues.push({
          field: 'webhook_url',
          message: `is not supported on /${mode.endpoint}; poll the job instead`,
        });
      } else if (typeof url !== 'string') {
        issues.push({ field: 'webhook_url', message: 'must be a public https URL' });
      } else {
        try {
          options.webhookUrl = urlGuard.checkUrlSyntax(url).toString();
        } catch (error) {
          if (!(error instanceof UrlRejectedError)) throw error;
          issues.push({ field: 'webhook_url', message: error.message });
        }
      }
    }
  }

  if ('agent_run_id' in body) {
    const id = body.agent_run_id;
    delete body.agent_run_id;
    if (typeof id !== 'string' || id.length < 1 || id.length > 200) {
      issues.push({ field: 'agent_run_id', message: 'must be a string of 1-200 characters' });
    } else {
      options.agentRunId = id;
    }
  }

  if ('listing' in body) {
    const listing = body.listing;
    delete body.listing;
    if (listing !== 'private' && listing !== 'public') {
      issues.push({
        field: 'listing',
        message: 'must be one of: private, public',
        valid_values: ['private', 'public'],
      });
    } else {
      options.listing = listing;
    }
  }
  return options;
}

/**
 * The one validation path of every Generate body: aliases folded (with a warning each), platform options
 * taken out, then the mode's schema. Real calls and dry runs both go through here, so they refuse alike.
 */
export function parseGenerateRequest<R>(
  mode: ModeDefinition<R>,
  raw: unknown,
  urlGuard: UrlGuard,
): ParsedGenerateRequest<R> {
  if (!isPlainObject(raw)) {
    throw errors.inputInvalid('The request body must be a JSON object.', [
      { field: '(body)', message: 'must be a JSON object' },
    ]);
  }
  const body: Record<string, unknown> = structuredClone(raw);
  const warnings: string[] = [];
  const keep = new Set(mode.keepFields ?? []);
  const aliases = Object.fromEntries(
    Object.entries({ ...SHARED_ALIASES, ...mode.aliases }).filter(([alias]) => !keep.has(alias)),
  );
  foldAliases(body, aliases, warnings);
  mode.prepare?.(body, warnings);
  const issues: FieldIssue[] = [];
  const options = takeDeliveryOptions(body, mode, urlGuard, issues, warnings);
  const parsed = urlGuard.validating(() => mode.schema.safeParse(body));
  if (!parsed.success) issues.push(...fieldIssues(parsed.error));
  if (issues.length > 0 || !parsed.success) throw invalidInputError(issues);
  return { request: parsed.data, options, warnings };
}

export function invalidInputError(issues: FieldIssue[]): ApiError {
  const summary = issues.map((i) => `${i.field} ${i.message}`).join('; ');
  return errors.inputInvalid(`Invalid request: ${summary}.`, issues);
}
