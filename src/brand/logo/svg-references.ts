// Which references an SVG may keep. Rasterizing must never reach the network or the disk, so only in-document
// fragments (#id) and inline raster images survive; an inline SVG image is dropped too, since it would be a
// second document with references of its own.

const INLINE_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/jpg', 'image/gif', 'image/webp'];

export function isSafeReference(value: string): boolean {
  const ref = value.trim().toLowerCase();
  if (ref.startsWith('#')) return true;
  if (!ref.startsWith('data:')) return false;
  const mediaType = ref.slice('data:'.length).split(/[;,]/, 1)[0] ?? '';
  return INLINE_IMAGE_TYPES.includes(mediaType);
}
