import { join } from 'node:path';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Db } from '../../platform/db/database.ts';
import type { UrlGuard } from '../../platform/net/url-guard.ts';
import { closestNiches, type Niche } from '../footage/niches.ts';
import { seedFootageRecipes, type FootageRecipe } from '../footage/procedural.ts';
import { seedLibrary, type SeededClip } from '../footage/seed.ts';
import type { LibraryClip } from '../footage/select.ts';
import { pickMusic } from '../music/folders.ts';
import { seedMusicRecipes } from '../music/beds.ts';
import { seedMusicLibrary } from '../music/seed.ts';
import {
  importProviderFootage,
  providerQueries,
  type FootageProvider,
  type ProviderImportResult,
} from './provider-footage.ts';

export interface LibraryClipFile extends LibraryClip {
  path: string;
}

export interface MusicBedFile {
  id: string;
  title: string;
  path: string;
}

/** How many clips of a niche's neighbourhood a render wants to choose from before it starts. */
const CLIPS_WANTED = 6;
/** A provider query answered this recently is not asked again (its clips are in the library by then). */
const PROVIDER_QUERY_TTL_MS = 60 * 60_000;

export interface ProviderFootageRequest {
  /** The narration sentences of the video, in order. */
  sceneTexts: string[];
  footageKeywords: string[];
  urlGuard: UrlGuard;
  signal?: AbortSignal;
}

/**
 * The footage and music a render draws on. Generated clips and beds are made on first need (only the ones a
 * render asks for) or all at once in the background, and generated clips are registered in stock_clips next
 * to the footage operators upload. Generation is serialized per process so no file is made twice at once.
 */
export class StockLibrary {
  private chain: Promise<unknown> = Promise.resolve();
  private readonly askedAt = new Map<string, number>();

  constructor(
    private readonly db: Db,
    private readonly dir: string,
    private readonly log: Logger,
    /** A stock-footage provider (e.g. Pexels), when one is configured. */
    private readonly provider?: FootageProvider,
  ) {}

  private get footageDir(): string {
    return join(this.dir, 'footage');
  }

  private get musicDir(): string {
    return join(this.dir, 'music');
  }

  private serialized<T>(task: () => Promise<T>): Promise<T> {
    const run = this.chain.then(task, task);
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async register(clips: SeededClip[]): Promise<void> {
    if (clips.length === 0) return;
    await this.db
      .insertInto('stock_clips')
      .values(
        clips.map((clip) => ({
          id: clip.id,
          title: clip.title,
          tags: clip.tags,
          niches: clip.niches,
          duration_sec: clip.durationSec,
          width: 1080,
          height: 1920,
          size_bytes: clip.sizeBytes,
          source: 'generated' as const,
          status: 'ready' as const,
          path: clip.path,
        })),
      )
      .onConflict((oc) =>
        oc.column('id').doUpdateSet((eb) => ({
          path: eb.ref('excluded.path'),
          duration_sec: eb.ref('excluded.duration_sec'),
          size_bytes: eb.ref('excluded.size_bytes'),
          status: 'ready',
          updated_at: sql`now()`,
        })),
      )
      .execute();
  }

  /** Makes sure a few generated clips of the niche's neighbourhood exist, generating only what is missing. */
  async ensureFootage(niche: Niche, signal?: AbortSignal): Promise<void> {
    const chain = closestNiches(niche);
    const recipes = seedFootageRecipes();
    const ranked = recipes
      .map((recipe) => ({
        recipe,
        rank: Math.min(...recipe.niches.map((n) => chain.indexOf(n)).filter((i) => i >= 0), Infinity),
      }))
      .filter((r) => r.rank !== Infinity)
      .sort((a, b) => a.rank - b.rank)
      .map((r) => r.recipe);
    const wanted: FootageRecipe[] = ranked.slice(0, CLIPS_WANTED);
    const ready = await this.db
      .selectFrom('stock_clips')
      .select('id')
      .where('id', 'in', wanted.length > 0 ? wanted.map((r) => r.id) : [''])
      .where('status', '=', 'ready')
      .execute();
    const have = new Set(ready.map((r) => r.id));
    const missing = wanted.filter((r) => !have.has(r.id));
    if (missing.length === 0) return;
    await this.serialized(async () =>
      this.register(await seedLibrary(this.footageDir, { recipes: missing, signal })),
    );
  }

  /**
   * With a footage provider configured: adds the provider's portrait clips for the scenes' words (and the
   * footage keywords) to the library before a render chooses its footage. A provider failure never fails
   * the render; it is logged and reported in the result. Without a provider: undefined.
   */
  async ensureProviderFootage(request: ProviderFootageRequest): Promise<ProviderImportResult | undefined> {
    if (!this.provider) return undefined;
    const now = Date.now();
    for (const [query, at] of this.askedAt) if (now - at > PROVIDER_QUERY_TTL_MS) this.askedAt.delete(query);
    const queries = providerQueries(request.sceneTexts, request.footageKeywords).filter(
      (q) => !this.askedAt.has(q),
    );
    if (queries.length === 0) return { searched: [], imported: [], reused: [], warnings: [] };
    const result = await importProviderFootage({
      db: this.db,
      libraryDir: this.dir,
      guard: request.urlGuard,
      provider: this.provider,
      queries,
      signal: request.signal,
    });
    // Failed searches are not remembered: the next render asks again.
    for (const query of result.searched) this.askedAt.set(query, now);
    if (result.warnings.length > 0) this.log.warn({ warnings: result.warnings }, 'footage provider problems');
    return result;
  }

  /** Every clip a render may use (generated, operator and provider footage). */
  async readyClips(): Promise<LibraryClipFile[]> {
    const rows = await this.db
      .selectFrom('stock_clips')
      .select(['id', 'title', 'tags', 'niches', 'duration_sec', 'source', 'path'])
      .where('status', '=', 'ready')
      .where('path', 'is not', null)
      .execute();
    return rows.map((row) => ({
      id: row.id,
      title: row.title,
      tags: row.tags,
      niches: row.niches,
      durationSec: row.duration_sec ?? 0,
      source: row.source === 'imported' ? 'uploaded' : row.source,
      path: row.path!,
    }));
  }

  async markUsed(clipIds: string[]): Promise<void> {
    if (clipIds.length === 0) return;
    await this.db
      .updateTable('stock_clips')
      .set({ usage_count: sql`usage_count + 1` })
      .where('id', 'in', clipIds)
      .execute();
  }

  /** The music bed for a niche (the same one for the same seed), generated on first need. */
  async musicFor(niche: Niche, seed: string, signal?: AbortSignal): Promise<MusicBedFile> {
    const recipe = pickMusic(niche, seed);
    const [bed] = await this.serialized(() => seedMusicLibrary(this.musicDir, { recipes: [recipe], signal }));
    return { id: bed!.id, title: bed!.title, path: bed!.path };
  }

  /** Generates the whole catalogue (footage and music) once, in the background after start-up. */
  async seedAll(signal?: AbortSignal): Promise<void> {
    const started = Date.now();
    // One item per turn, so a render that needs a clip or bed meanwhile waits for one item, not the catalogue.
    for (const recipe of seedFootageRecipes()) {
      await this.serialized(async () =>
        this.register(await seedLibrary(this.footageDir, { recipes: [recipe], signal })),
      );
    }
    for (const recipe of seedMusicRecipes()) {
      await this.serialized(() => seedMusicLibrary(this.musicDir, { recipes: [recipe], signal }));
    }
    this.log.info({ ms: Date.now() - started }, 'stock library seeded');
  }
}
