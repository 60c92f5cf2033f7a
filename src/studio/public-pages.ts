import { XMLBuilder } from 'fast-xml-parser';
import type { PublicVideo } from './public-videos.ts';

// The public pages of listed videos: a watch page (player, Open Graph tags and schema.org VideoObject so links
// unfurl), the discovery page, sitemap.xml and an Atom feed. Every text a caller wrote is escaped here.

export const SITE_NAME = 'Reelsmith';

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** JSON inside a <script> element: "<" is escaped so no text can close the element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

export const watchPath = (videoId: string) => `/v/${encodeURIComponent(videoId)}`;

/** ISO 8601 duration of schema.org (PT12.5S). */
function isoDuration(seconds: number): string {
  return `PT${Math.round(seconds * 100) / 100}S`;
}

function shell(options: { title: string; head: string; body: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/studio/assets/public.css">
<link rel="alternate" type="application/atom+xml" title="${SITE_NAME} videos" href="/feed.xml">
${options.head}
</head>
<body>
<header class="site"><a href="/discover">${SITE_NAME}</a> <span>public videos</span></header>
<main>
${options.body}
</main>
</body>
</html>
`;
}

export function watchPage(video: PublicVideo, baseUrl: string): string {
  const url = baseUrl + watchPath(video.videoId);
  const description = video.description || video.title;
  const structured = {
    '@context': 'https://schema.org',
    '@type': 'VideoObject',
    name: video.title,
    description,
    uploadDate: video.publishedAt.toISOString(),
    contentUrl: video.videoUrl,
    url,
    ...(video.posterUrl ? { thumbnailUrl: [video.posterUrl] } : {}),
    ...(video.durationSec !== undefined ? { duration: isoDuration(video.durationSec) } : {}),
  };
  const meta = (property: string, content: string) =>
    `<meta property="${property}" content="${escapeHtml(content)}">`;
  const head = [
    `<meta name="description" content="${escapeHtml(description)}">`,
    `<link rel="canonical" href="${escapeHtml(url)}">`,
    meta('og:site_name', SITE_NAME),
    meta('og:type', 'video.other'),
    meta('og:title', video.title),
    meta('og:description', description),
    meta('og:url', url),
    meta('og:video', video.videoUrl),
    meta('og:video:type', 'video/mp4'),
    ...(video.posterUrl ? [meta('og:image', video.posterUrl)] : []),
    `<meta name="twitter:card" content="${video.posterUrl ? 'summary_large_image' : 'summary'}">`,
    `<script type="application/ld+json">${scriptJson(structured)}</script>`,
  ].join('\n');
  const poster = video.posterUrl ? ` poster="${escapeHtml(video.posterUrl)}"` : '';
  const tags = video.hashtags.length
    ? `<p class="tags">${video.hashtags.map((t) => `<span>${escapeHtml(t)}</span>`).join(' ')}</p>`
    : '';
  const body = `<article class="watch">
<video controls playsinline preload="metadata"${poster} src="${escapeHtml(video.videoUrl)}"></video>
<div class="about">
<h1>${escapeHtml(video.title)}</h1>
<p class="published">Published <time datetime="${video.publishedAt.toISOString()}">${video.publishedAt.toISOString().slice(0, 10)}</time></p>
<p class="description">${escapeHtml(video.description)}</p>
${tags}
<p><a href="/discover">More videos</a></p>
</div>
</article>`;
  return shell({ title: `${video.title} · ${SITE_NAME}`, head, body });
}

export function discoveryPage(videos: PublicVideo[]): string {
  const items = videos
    .map((video) => {
      const poster = video.posterUrl
        ? `<img src="${escapeHtml(video.posterUrl)}" alt="" loading="lazy">`
        : '<div class="no-poster" aria-hidden="true"></div>';
      return `<li><a href="${watchPath(video.videoId)}">${poster}<span>${escapeHtml(video.title)}</span></a></li>`;
    })
    .join('\n');
  const body = videos.length
    ? `<h1>Public videos</h1>\n<ul class="grid">\n${items}\n</ul>`
    : '<h1>Public videos</h1>\n<p>No public videos yet.</p>';
  return shell({
    title: `Public videos · ${SITE_NAME}`,
    head: `<meta name="description" content="Videos made with ${SITE_NAME} and listed publicly.">`,
    body,
  });
}

const xml = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@_', format: true });
const declaration = { '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' } };

export function sitemap(videos: PublicVideo[], baseUrl: string): string {
  return xml.build({
    ...declaration,
    urlset: {
      '@_xmlns': 'http://www.sitemaps.org/schemas/sitemap/0.9',
      url: [
        { loc: `${baseUrl}/discover`, changefreq: 'hourly' },
        ...videos.map((video) => ({
          loc: baseUrl + watchPath(video.videoId),
          lastmod: video.publishedAt.toISOString(),
        })),
      ],
    },
  });
}

/** An Atom feed (RFC 4287) of the newest public videos; each entry encloses its signed video link. */
export function atomFeed(videos: PublicVideo[], baseUrl: string, now = new Date()): string {
  return xml.build({
    ...declaration,
    feed: {
      '@_xmlns': 'http://www.w3.org/2005/Atom',
      id: `${baseUrl}/feed.xml`,
      title: `${SITE_NAME} public videos`,
      updated: (videos[0]?.publishedAt ?? now).toISOString(),
      link: [
        { '@_rel': 'self', '@_type': 'application/atom+xml', '@_href': `${baseUrl}/feed.xml` },
        { '@_rel': 'alternate', '@_type': 'text/html', '@_href': `${baseUrl}/discover` },
      ],
      author: { name: SITE_NAME },
      entry: videos.map((video) => ({
        id: baseUrl + watchPath(video.videoId),
        title: video.title,
        updated: video.publishedAt.toISOString(),
        published: video.publishedAt.toISOString(),
        link: [
          { '@_rel': 'alternate', '@_type': 'text/html', '@_href': baseUrl + watchPath(video.videoId) },
          { '@_rel': 'enclosure', '@_type': 'video/mp4', '@_href': video.videoUrl },
        ],
        summary: video.description || video.title,
      })),
    },
  });
}
