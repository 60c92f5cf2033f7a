// Footage from a stock-footage provider (e.g. Pexels): portrait clips searched for the words of the scenes
// being rendered, downloaded through the URL guard, probed, and registered as `provider` clips so that
// selectFootage can choose them like any other library clip.

import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.ts';
import type { UrlGuard } from '../../platform/net/url-guard.ts';
import { shareLibraryFile } from '../../platform/storage/library-files.ts';
import type { MediaStore } from '../../platform/storage/media-store.ts';
import { isStopWord, tokenize } from '../footage/text-match.ts';
import { mapMetadata, normalizeTags } from './clip-metadata.ts';
import { inspectClip } from './clip-media.ts';
import { newClipId } from './stock-clip-store.ts';

/** One downloadable video a provider offers for a query. */
export interface StockVideoCandidate {
  externalId: string;
  title: string;
  /** The provider's page for the video (credited in attribution). */
  pageUrl: string;
  durationSec: number;
  width: number;
  height: number;
  downloadUrl: string;
  attribution: string;
}

export interface FootageProvider {
  /** Stored as the clips' external_source. */
  readonly name: string;
  /** The terms its footage is offered under (provenance manifests carry them). */
  readonly licence?: string;
  portraitCandidates(
    guard: Pick<UrlGuard, 'request'>,
    query: string,
    options: { perQuery: number; signal?: AbortSignal },
  ): Promise<StockVideoCandidate[]>;
}

export const DEFAULT_MAX_QUERIES = 4;
export const DEFAULT_PER_QUERY = 2;
const MAX_DOWNLOAD_BYTES = 200 * 1024 * 1024;
const DOWNLOAD_TIMEOUT_MS = 3 * 60_000;
const WORDS_PER_QUERY = 3;

/**
 * Search queries for a video: the footage keywords first (the caller's own hint), then each scene's first
 * content words, in scene order, without repeats.
 */
export function providerQueries(
  sceneTexts: readonly string[],
  footageKeywords: readonly string[],
  max = DEFAULT_MAX_QUERIES,
): string[] {
  const contentWords = (text: string) =>
    tokenize(text).filter((w) => w.length >= 3 && !isStopWord(w) && !/^\d+$/.test(w));
  const queries: string[] = [];
  const keywordQuery = contentWords(footageKeywords.join(' ')).slice(0, WORDS_PER_QUERY).join(' ');
  if (keywordQuery) queries.push(keywordQuery);
  for (const text of sceneTexts) {
    const query = contentWords(text).slice(0, WORDS_PER_QUERY).join(' ');
    if (query && !queries.includes(query)) queries.push(query);
  }
  return queries.slice(0, max);
}

export interface ProviderImportInput {
  db: Db;
  libraryDir: string;
  /** A remote media store the imported clips are copied to, for workers of other machines. */
  store?: MediaStore;
  guard: UrlGuard;
  provider: FootageProvider;
  queries: string[];
  perQuery?: number;
  signal?: AbortSignal;
}

export interface ProviderImportResult {
  /** Queries the provider answered. */
  searched: string[];
  /** Clip ids newly added to the library. */
  imported: string[];
  /** Clip ids the provider offered that the library already had. */
  reused: string[];
  /** Searches or downloads that failed; the render goes on with what the library has. */
  warnings: string[];
}

/** Searches the provider for each query and adds the portrait clips it offers that the library lacks. */
export async function importProviderFootage(input: ProviderImportInput): Promise<ProviderImportResult> {
  const { db, guard, provider, signal } = input;
  const result: ProviderImportResult = { searched: [], imported: [], reused: [], warnings: [] };
  const dir = join(input.libraryDir, 'provider');
  await mkdir(join(dir, 'staging'), { recursive: true });
  for (const query of input.queries) {
    let candidates: StockVideoCandidate[];
    try {
      candidates = await provider.portraitCandidates(guard, query, {
        perQuery: input.perQuery ?? DEFAULT_PER_QUERY,
        signal,
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      result.warnings.push(`${provider.name} search "${query}" failed: ${(error as Error).message}`);
      continue;
    }
    result.searched.push(query);
    for (const candidate of candidates) {
      const existing = await db
        .selectFrom('stock_clips')
        .select(['id', 'status'])
        .where('external_source', '=', provider.name)
        .where('external_id', '=', candidate.externalId)
        .executeTakeFirst();
      if (existing?.status === 'ready') {
        if (!result.reused.includes(existing.id)) result.reused.push(existing.id);
        continue;
      }
      const id = await importCandidate(
        db,
        dir,
        guard,
        provider.name,
        query,
        candidate,
        signal,
        input.store,
      ).catch((error: Error) => {
        if (signal?.aborted) throw error;
        result.warnings.push(`${provider.name} video ${candidate.externalId}: ${error.message}`);
        return undefined;
      });
      if (id) result.imported.push(id);
    }
  }
  return result;
}

async function importCandidate(
  db: Db,
  dir: string,
  guard: UrlGuard,
  source: string,
  query: string,
  candidate: StockVideoCandidate,
  signal: AbortSignal | undefined,
  store: MediaStore | undefined,
): Promise<string> {
  const staged = join(dir, 'staging', `${source}-${candidate.externalId}-${Date.now()}`);
  await guard.download(candidate.downloadUrl, staged, {
    maxBytes: MAX_DOWNLOAD_BYTES,
    timeoutMs: DOWNLOAD_TIMEOUT_MS,
    signal,
  });
  const inspection = await inspectClip(staged, signal);
  if (!inspection.ok) {
    await rm(staged, { force: true });
    throw new Error(`the downloaded file ${inspection.problem}`);
  }
  const safeId = candidate.externalId.replace(/[^A-Za-z0-9_-]/g, '_');
  const path = join(dir, `${source}-${safeId}.${inspection.facts.extension}`);
  await rename(staged, path);
  await shareLibraryFile(store, path);
  const sizeBytes = (await stat(path)).size;
  const mapping = mapMetadata({ title: candidate.title, tags: normalizeTags(query.split(' ')) });
  const row = await db
    .insertInto('stock_clips')
    .values({
      id: newClipId(),
      title: mapping.title,
      tags: mapping.tags,
      niches: mapping.niches,
      source: 'provider',
      status: 'ready',
      path,
      origin_url: candidate.pageUrl,
      external_source: source,
      external_id: candidate.externalId,
      attribution: candidate.attribution,
      duration_sec: inspection.facts.durationSec,
      width: inspection.facts.width,
      height: inspection.facts.height,
      size_bytes: sizeBytes,
    })
    .onConflict((oc) =>
      oc
        .columns(['external_source', 'external_id'])
        .where('external_id', 'is not', null)
        .doUpdateSet({
          path,
          status: 'ready',
          duration_sec: inspection.facts.durationSec,
          width: inspection.facts.width,
          height: inspection.facts.height,
          size_bytes: sizeBytes,
          last_error: null,
          updated_at: sql`now()`,
        }),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
