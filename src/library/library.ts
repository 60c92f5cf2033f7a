// The account library (spec 2 §2.5, §4.4; docs/library.md): every generated video of the account, read from
// the jobs that make them. Free reads; another account's video is a 404 like a missing one.
import type pg from 'pg';
import { errors } from '../platform/errors.ts';
import type { Caller } from '../platform/generation/submit.ts';
import type { MediaStore } from '../platform/storage/media-store.ts';
import { jobLibraryId } from './library-ids.ts';
import type { LibraryListQuery } from './library-query.ts';
import { presentLibraryVideo } from './library-presenter.ts';
import { findLibraryRow, listLibraryRows } from './library-repo.ts';
import type { LibraryVideo } from './library-video.ts';

export interface LibraryPage {
  items: LibraryVideo[];
  next_cursor: string | null;
}

export class Library {
  constructor(
    private readonly pool: pg.Pool,
    private readonly store: MediaStore,
  ) {}

  /** A page, newest first; `next_cursor` is the last item's id when more follow. */
  async list(caller: Caller, query: LibraryListQuery): Promise<LibraryPage> {
    const rows = await listLibraryRows(this.pool, {
      accountId: caller.accountId,
      sandbox: caller.sandbox,
      limit: query.limit + 1,
      before: query.cursor,
      customerId: query.customer_id,
      brandId: query.brand_id,
    });
    const page = rows.slice(0, query.limit);
    const now = new Date();
    return {
      items: page.map((row) => presentLibraryVideo(row, this.store, { links: true, now })),
      next_cursor: rows.length > query.limit ? page[page.length - 1]!.video_id : null,
    };
  }

  /** One video of the caller's account, without media links (spec 2 §4.4). */
  async read(caller: Caller, videoId: string): Promise<LibraryVideo> {
    const row = await findLibraryRow(
      this.pool,
      caller.accountId,
      caller.sandbox,
      videoId,
      jobLibraryId(videoId),
    );
    if (!row) throw errors.videoNotFound('video_id', videoId);
    return presentLibraryVideo(row, this.store, { links: false });
  }
}
