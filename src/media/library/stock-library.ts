import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Db } from '../../platform/db/database.ts';
import type { UrlGuard } from '../../platform/net/url-guard.ts';
import {
  fetchLibraryFiles,
  localLibraryFile,
  shareMissingLibraryFiles,
} from '../../platform/storage/library-files.ts';
import type { MediaStore } from '../../platform/storage/media-store.ts';
import type { ComposeMusicBed } from '../compose/compose-spec.ts';
import { closestNiches, type Niche } from '../footage/niches.ts';
import { seedFootageRecipes, type FootageRecipe } from '../footage/procedural.ts';
import { seedLibrary, type SeededClip } from '../footage/seed.ts';
import type { LibraryClip } from '../footage/select.ts';
import { pickMusic } from '../music/folders.ts';
import { seedMusicRecipes, type MusicBedRecipe } from '../music/beds.ts';
import { bedFiles, seedMusicLibrary, type SeededBed } from '../music/seed.ts';
import type { ProcessPriority } from '../process/lower-priority.ts';
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
  /** The file the composition loops: a library bed's loop, or music a user supplied. */
  path: string;
  /** A library bed's intro, outro and section lengths, for the composition to start and end the music. */
  bed?: ComposeMusicBed;
  /** A library bed's licence. */
  licence?: string;
  /** Where music a user supplied was fetched from. */
  sourceUrl?: string;
}

/** Where a library clip came from and under what terms, for provenance manifests. */
export interface ClipOrigin {
  id: string;
  title: string;
  source: 'generated' | 'uploaded' | 'imported' | 'provider';
  path: string | null;
  /** The provider or external library the clip came from, its id there and its page. */
  externalSource: string | null;
  externalId: string | null;
  originUrl: string | null;
  attribution: string | null;
  /** Null when nobody recorded one (footage an operator uploaded). */
  licence: string | null;
}

async function filesExist(paths: readonly string[]): Promise<boolean> {
  try {
    await Promise.all(paths.map((path) => access(path)));
    return true;
  } catch {
    return false;
  }
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

/** The generated clips and beds a library makes. */
export interface GeneratedCatalogue {
  footage: FootageRecipe[];
  music: MusicBedRecipe[];
}

/** Renders running on the machine, which background generation steps aside for. */
export interface Foreground {
  /** Resolves once no render runs; rejects when `signal` aborts. */
  idle(signal: AbortSignal): Promise<void>;
}

export interface SeedAllOptions {
  /** Waited for before each item: no new item starts while a render runs. */
  foreground?: Foreground;
  /** After each item of the catalogue, made or found complete (1-based `index`). */
  onProgress?: (progress: { id: string; index: number; total: number }) => void;
}

/** One item being made in this process. */
interface Making {
  priority: ProcessPriority;
  controller: AbortController;
  /** Settles (never rejects) once the item is no longer being made. */
  done: Promise<void>;
}

/**
 * The footage and music a render draws on. Generated clips and beds are made on first need (only the ones a
 * render asks for) or all at once in the background, and generated clips are registered in stock_clips next
 * to the footage operators upload. No item is made twice at once in a process, and a render that needs an
 * item the background is making takes it over at normal priority.
 */
export class StockLibrary {
  private readonly making = new Map<string, Making>();
  private readonly askedAt = new Map<string, number>();
  /** Beds this process found in, or put in, the remote store. */
  private readonly sharedBeds = new Set<string>();
  /** Beds whose files this process found complete, by id. */
  private readonly checkedBeds = new Map<string, SeededBed>();

  constructor(
    private readonly db: Db,
    private readonly dir: string,
    private readonly log: Logger,
    /** A stock-footage provider (e.g. Pexels), when one is configured. */
    private readonly provider?: FootageProvider,
    private readonly catalogue: GeneratedCatalogue = {
      footage: seedFootageRecipes(),
      music: seedMusicRecipes(),
    },
    /** A remote media store (S3) that every machine's workers read the library's clips from. */
    private readonly store?: MediaStore,
  ) {}

  private get footageDir(): string {
    return join(this.dir, 'footage');
  }

  private get musicDir(): string {
    return join(this.dir, 'music');
  }

  /**
   * Runs `make` for the item `key` once no other call is making it. A render ('normal') that finds the
   * background making the item stops that and makes it itself, so it never waits on the lowest priority;
   * a background call stopped so answers undefined (the render makes the item).
   */
  private async exclusive<T>(
    key: string,
    priority: ProcessPriority,
    make: (signal: AbortSignal) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T | undefined> {
    for (let current = this.making.get(key); current; current = this.making.get(key)) {
      if (priority === 'normal' && current.priority === 'background') current.controller.abort();
      await current.done;
    }
    signal?.throwIfAborted();
    const controller = new AbortController();
    const run = make(signal ? AbortSignal.any([signal, controller.signal]) : controller.signal);
    const entry: Making = {
      priority,
      controller,
      done: run.then(
        () => this.release(key, entry),
        () => this.release(key, entry),
      ),
    };
    this.making.set(key, entry);
    try {
      return await run;
    } catch (error) {
      if (controller.signal.aborted && !signal?.aborted) return undefined;
      throw error;
    }
  }

  private release(key: string, entry: Making): void {
    if (this.making.get(key) === entry) this.making.delete(key);
  }

  private makeClip(recipe: FootageRecipe, priority: ProcessPriority, signal?: AbortSignal): Promise<void> {
    return this.exclusive(
      `footage:${recipe.id}`,
      priority,
      async (s) => {
        // A clip another machine made is read from the store rather than made again (seedLibrary keeps a complete file).
        await fetchLibraryFiles(this.store, [join(this.footageDir, `${recipe.id}.mp4`)], s);
        await this.register(await seedLibrary(this.footageDir, { recipes: [recipe], signal: s, priority }));
      },
      signal,
    );
  }

  /** A bed read from the store when another machine made it, else made here and put there (once per process). */
  private async makeBed(recipe: MusicBedRecipe, priority: ProcessPriority, signal?: AbortSignal) {
    // A bed this process checked is not probed again (three ffprobe runs) while its files are still there.
    const checked = this.checkedBeds.get(recipe.id);
    if (checked && (await filesExist([checked.introPath, checked.path, checked.outroPath]))) return [checked];
    const beds = await this.exclusive(
      `music:${recipe.id}`,
      priority,
      async (s) => {
        const shared = this.sharedBeds.has(recipe.id);
        const files = Object.values(bedFiles(this.musicDir, recipe));
        if (!shared) await fetchLibraryFiles(this.store, files, s);
        const beds = await seedMusicLibrary(this.musicDir, { recipes: [recipe], signal: s, priority });
        if (!shared) {
          await shareMissingLibraryFiles(this.store, files);
          this.sharedBeds.add(recipe.id);
        }
        return beds;
      },
      signal,
    );
    for (const bed of beds ?? []) this.checkedBeds.set(bed.id, bed);
    return beds;
  }

  private async register(clips: SeededClip[]): Promise<void> {
    if (clips.length === 0) return;
    await shareMissingLibraryFiles(
      this.store,
      clips.map((clip) => clip.path),
    );
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
    const ranked = this.catalogue.footage
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
    for (const recipe of missing) await this.makeClip(recipe, 'normal', signal);
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
      ...(this.store ? { store: this.store } : {}),
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

  /** Origins and licences of library clips. */
  async clipSources(clipIds: string[]): Promise<ClipOrigin[]> {
    if (clipIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('stock_clips')
      .select([
        'id',
        'title',
        'source',
        'path',
        'external_source',
        'external_id',
        'origin_url',
        'attribution',
      ])
      .where('id', 'in', clipIds)
      .execute();
    return rows.map((row) => ({
      id: row.id,
      title: row.title,
      source: row.source,
      path: row.path,
      externalSource: row.external_source,
      externalId: row.external_id,
      originUrl: row.origin_url,
      attribution: row.attribution,
      licence:
        row.source === 'generated'
          ? (this.catalogue.footage.find((r) => r.id === row.id)?.licence ?? null)
          : row.source === 'provider' && row.external_source === this.provider?.name
            ? (this.provider.licence ?? null)
            : null,
    }));
  }

  /** Points each clip's `path` at a file of this machine, reading the clips other machines added from the store. */
  async localize(clips: LibraryClipFile[], signal?: AbortSignal): Promise<void> {
    for (const clip of clips) clip.path = await localLibraryFile(this.store, clip.path, signal);
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
    const recipe = pickMusic(niche, seed, this.catalogue.music);
    const [bed] = (await this.makeBed(recipe, 'normal', signal))!;
    const { id, title, path, introPath, outroPath, sections } = bed!;
    return { id, title, path, bed: { introPath, outroPath, sections }, licence: recipe.licence };
  }

  /**
   * Generates the whole catalogue (footage, then music) once, in the background after start-up, at the
   * lowest priority and one item at a time, starting no item while a render runs.
   */
  async seedAll(signal: AbortSignal, options: SeedAllOptions = {}): Promise<void> {
    const started = Date.now();
    const items = [
      ...this.catalogue.footage.map((r) => ({
        id: r.id,
        make: () => this.makeClip(r, 'background', signal),
      })),
      ...this.catalogue.music.map((r) => ({ id: r.id, make: () => this.makeBed(r, 'background', signal) })),
    ];
    for (const [i, item] of items.entries()) {
      await options.foreground?.idle(signal);
      await item.make();
      options.onProgress?.({ id: item.id, index: i + 1, total: items.length });
    }
    this.log.info({ ms: Date.now() - started }, 'stock library seeded');
  }
}
