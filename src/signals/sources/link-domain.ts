// The domain a link is credited to: its host without "www.", the way publishers are counted and shown.

export function linkDomain(url: string): string | undefined {
  try {
    const host = new URL(url).hostname.toLowerCase();
    return host === '' ? undefined : host.replace(/^www\./, '');
  } catch {
    return undefined;
  }
}
