import { join } from 'node:path';
import type { Config } from '../config.ts';
import { LocalMediaStore, type MediaStore } from './media-store.ts';
import { S3MediaStore } from './s3-media-store.ts';

/** The configured store: the S3 bucket when S3_BUCKET is set, else DATA_DIR/media of this machine. */
export function createMediaStore(
  config: Pick<Config, 's3' | 'mediaDir' | 'dataDir' | 'publicBaseUrl'>,
  secret: string,
): MediaStore & { close?(): void } {
  if (config.s3)
    return new S3MediaStore(config.s3, config.publicBaseUrl, secret, join(config.dataDir, 'cache', 'store'));
  return new LocalMediaStore(config.mediaDir, config.publicBaseUrl, secret);
}
