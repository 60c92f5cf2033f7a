import { createHmac, timingSafeEqual } from 'node:crypto';
import { copyFile, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, normalize, relative, sep } from 'node:path';

export interface SignedLink {
  url: string;
  expiresAt: Date;
}

/** What GET /media/<key> does with a verified link: stream a file of this machine, or send the caller on. */
export type MediaAnswer = { file: string } | { redirect: string };

/**
 * Where finished files live. Links are always signed and expire; nothing in the store is public. Keys are
 * written once: a key's content never changes (a new file gets a new key), so read-through copies stay valid.
 */
export interface MediaStore {
  /** True when processes of other machines read this store too (S3), so files of this disk are theirs only through it. */
  readonly remote: boolean;
  put(key: string, sourcePath: string, options?: { move?: boolean }): Promise<{ bytes: number }>;
  /**
   * A file on this machine holding the object, for tools that read files (ffmpeg, image decoders, uploads):
   * the stored file itself on disk, or a read-through copy for a remote store. Undefined when there is no such
   * object (or the key is not a valid store key).
   */
  fetchToLocal(key: string, signal?: AbortSignal): Promise<string | undefined>;
  exists(key: string): Promise<boolean>;
  /** The keys of the objects under `prefix/`. */
  list(prefix: string): Promise<string[]>;
  sign(key: string, ttlSeconds: number, now?: Date): SignedLink;
  verify(key: string, expires: string, signature: string, now?: Date): boolean;
  /** The answer to a link `verify` accepted, or undefined when the object is gone. */
  answer(key: string, expiresAt: Date, now?: Date): Promise<MediaAnswer | undefined>;
  /** Deletes the object `prefix` and every object under `prefix/`. */
  remove(prefix: string): Promise<void>;
}

const KEY_PATTERN = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_.-]+)*$/;

export function isMediaKey(key: string): boolean {
  return KEY_PATTERN.test(key) && !key.split('/').some((part) => part === '..' || part === '.');
}

/** The key's path under `root`, or undefined when the key is not a valid store key. */
export function pathUnder(root: string, key: string): string | undefined {
  if (!isMediaKey(key)) return undefined;
  const path = normalize(join(root, key));
  return path.startsWith(root + sep) ? path : undefined;
}

/** Links to the service's own /media/ route, signed with the server's secret (every store links this way). */
export class MediaLinkSigner {
  constructor(
    private readonly publicBaseUrl: string,
    private readonly secret: string,
  ) {}

  private signature(key: string, expires: string): string {
    return createHmac('sha256', this.secret).update(`${key}\n${expires}`).digest('hex');
  }

  sign(key: string, ttlSeconds: number, now = new Date()): SignedLink {
    const expiresAt = new Date(Math.floor(now.getTime() / 1000) * 1000 + ttlSeconds * 1000);
    const expires = String(Math.floor(expiresAt.getTime() / 1000));
    const path = key.split('/').map(encodeURIComponent).join('/');
    return {
      url: `${this.publicBaseUrl}/media/${path}?expires=${expires}&sig=${this.signature(key, expires)}`,
      expiresAt,
    };
  }

  verify(key: string, expires: string, signature: string, now = new Date()): boolean {
    if (!/^\d{1,12}$/.test(expires) || !/^[0-9a-f]{64}$/.test(signature)) return false;
    if (Number(expires) * 1000 < now.getTime()) return false;
    const expected = Buffer.from(this.signature(key, expires), 'hex');
    return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
  }
}

/** The default store: files under DATA_DIR/media of this machine, served by the /media/ route itself. */
export class LocalMediaStore implements MediaStore {
  readonly remote = false;
  private readonly links: MediaLinkSigner;

  constructor(
    private readonly root: string,
    publicBaseUrl: string,
    secret: string,
  ) {
    this.links = new MediaLinkSigner(publicBaseUrl, secret);
  }

  /** Absolute path of a stored object, or undefined when the key is not a valid store key. */
  localPath(key: string): string | undefined {
    return pathUnder(this.root, key);
  }

  async put(key: string, sourcePath: string, options: { move?: boolean } = {}): Promise<{ bytes: number }> {
    const target = this.localPath(key);
    if (!target) throw new Error(`invalid media key ${key}`);
    await mkdir(dirname(target), { recursive: true });
    // Written beside the target and renamed into place, so a reader never sees half a file.
    const partial = `${target}.partial-${process.pid}-${Date.now()}`;
    try {
      if (options.move) {
        try {
          await rename(sourcePath, target);
          return { bytes: (await stat(target)).size };
        } catch {
          await copyFile(sourcePath, partial);
          await rename(partial, target);
          await rm(sourcePath, { force: true });
        }
      } else {
        await copyFile(sourcePath, partial);
        await rename(partial, target);
      }
    } finally {
      await rm(partial, { force: true });
    }
    return { bytes: (await stat(target)).size };
  }

  async fetchToLocal(key: string): Promise<string | undefined> {
    const path = this.localPath(key);
    if (!path) return undefined;
    const info = await stat(path).catch(() => undefined);
    return info?.isFile() ? path : undefined;
  }

  async exists(key: string): Promise<boolean> {
    return (await this.fetchToLocal(key)) !== undefined;
  }

  async list(prefix: string): Promise<string[]> {
    const root = this.localPath(prefix);
    if (!root) return [];
    const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
    return entries
      .filter((entry) => entry.isFile() && !entry.name.includes('.partial-'))
      .map((entry) => `${prefix}/${relative(root, join(entry.parentPath, entry.name)).split(sep).join('/')}`);
  }

  sign(key: string, ttlSeconds: number, now = new Date()): SignedLink {
    return this.links.sign(key, ttlSeconds, now);
  }

  verify(key: string, expires: string, signature: string, now = new Date()): boolean {
    return this.links.verify(key, expires, signature, now);
  }

  async answer(key: string): Promise<MediaAnswer | undefined> {
    const file = await this.fetchToLocal(key);
    return file ? { file } : undefined;
  }

  async remove(prefix: string): Promise<void> {
    const path = this.localPath(prefix);
    if (path) await rm(path, { recursive: true, force: true });
  }
}
