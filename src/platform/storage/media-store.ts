import { createHmac, timingSafeEqual } from 'node:crypto';
import { copyFile, mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, normalize, sep } from 'node:path';

export interface SignedLink {
  url: string;
  expiresAt: Date;
}

/** Where finished files live. Links are always signed and expire; nothing in the store is public. */
export interface MediaStore {
  put(key: string, sourcePath: string, options?: { move?: boolean }): Promise<{ bytes: number }>;
  /** Absolute path of a stored object, or undefined when the key is not a valid store key. */
  localPath(key: string): string | undefined;
  sign(key: string, ttlSeconds: number, now?: Date): SignedLink;
  verify(key: string, expires: string, signature: string, now?: Date): boolean;
  remove(prefix: string): Promise<void>;
}

const KEY_PATTERN = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_.-]+)*$/;

export class LocalMediaStore implements MediaStore {
  constructor(
    private readonly root: string,
    private readonly publicBaseUrl: string,
    private readonly secret: string,
  ) {}

  localPath(key: string): string | undefined {
    if (!KEY_PATTERN.test(key) || key.split('/').some((part) => part === '..' || part === '.'))
      return undefined;
    const path = normalize(join(this.root, key));
    return path.startsWith(this.root + sep) ? path : undefined;
  }

  async put(key: string, sourcePath: string, options: { move?: boolean } = {}): Promise<{ bytes: number }> {
    const target = this.localPath(key);
    if (!target) throw new Error(`invalid media key ${key}`);
    await mkdir(dirname(target), { recursive: true });
    if (options.move) {
      try {
        await rename(sourcePath, target);
      } catch {
        await copyFile(sourcePath, target);
        await rm(sourcePath, { force: true });
      }
    } else {
      await copyFile(sourcePath, target);
    }
    return { bytes: (await stat(target)).size };
  }

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

  async remove(prefix: string): Promise<void> {
    const path = this.localPath(prefix);
    if (path) await rm(path, { recursive: true, force: true });
  }
}
