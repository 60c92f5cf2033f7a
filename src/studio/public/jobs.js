// Jobs: the list (newest first) with live progress from each open job's progress stream, and one job's page:
// player, texts with copy buttons, caption files, clips with their scores, receipt, error and refund, listing.
import { age, api, CANCELLABLE_STATUSES, copyText, h, OPEN_STATUSES, streamUrls, usd } from './api.js';

/** A progress bar fed by a job's WebSocket progress stream (GET /api/v1/jobs/{id}/stream). */
class JobProgress extends HTMLElement {
  connectedCallback() {
    const percent = Number(this.getAttribute('percent') ?? 0);
    this.bar = h('progress', { max: 100, value: percent, 'aria-label': 'Progress' });
    this.stage = h('span', { class: 'stage', 'aria-live': 'polite' }, this.getAttribute('stage') ?? '');
    this.replaceChildren(this.bar, ' ', this.stage);
    const url = this.getAttribute('stream');
    if (url) this.watch(url);
  }

  disconnectedCallback() {
    this.socket?.close();
  }

  watch(url) {
    this.socket = new WebSocket(url);
    this.socket.addEventListener('message', (event) => {
      const message = JSON.parse(event.data);
      this.bar.value = message.progress;
      this.setAttribute('percent', String(message.progress));
      this.stage.textContent = `${message.stage}${message.message ? ` — ${message.message}` : ''}`;
      this.dispatchEvent(new CustomEvent('progress', { detail: message, bubbles: true }));
    });
    this.socket.addEventListener('close', () => {
      this.dispatchEvent(new CustomEvent('stream-closed', { bubbles: true }));
    });
  }
}
customElements.define('rs-progress', JobProgress);

class JobList extends HTMLElement {
  connectedCallback() {
    this.addEventListener('stream-closed', () => this.scheduleRefresh());
    void this.load();
  }

  scheduleRefresh() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.load(), 300);
  }

  disconnectedCallback() {
    clearTimeout(this.timer);
  }

  async load() {
    let data;
    try {
      data = await api('GET', '/jobs?limit=50');
    } catch (error) {
      this.replaceChildren(h('p', { class: 'error', role: 'alert' }, error.message));
      return;
    }
    const refresh = h(
      'button',
      { type: 'button', id: 'refresh-jobs', onclick: () => void this.load() },
      'Refresh',
    );
    if (data.jobs.length === 0) {
      this.replaceChildren(
        h('h1', {}, 'Jobs'),
        h('p', {}, 'No jobs yet. ', h('a', { href: '#make' }, 'Make a video'), '.'),
      );
      return;
    }
    const rows = data.jobs.map((job) => {
      const open = OPEN_STATUSES.includes(job.status);
      if (job.websocket_url) streamUrls.set(job.id, job.websocket_url);
      return h(
        'tr',
        { 'data-job': job.id, 'data-status': job.status },
        h(
          'td',
          { 'data-label': 'Job' },
          h('a', { href: `#job/${encodeURIComponent(job.id)}` }, job.title ?? job.id),
        ),
        h(
          'td',
          { 'data-label': 'Mode' },
          job.operation,
          job.sandbox ? h('span', { class: 'tag' }, 'sandbox') : '',
        ),
        h('td', { 'data-label': 'Status' }, h('span', { class: `status status-${job.status}` }, job.status)),
        h(
          'td',
          { 'data-label': 'Progress' },
          open
            ? h('rs-progress', {
                percent: job.progress?.percent ?? 0,
                stage: job.progress?.stage ?? '',
                stream: job.websocket_url,
              })
            : job.status === 'completed'
              ? '100%'
              : (job.error?.code ?? '—'),
        ),
        h('td', { 'data-label': 'Price' }, usd(job.price_usd_cents)),
        h(
          'td',
          { 'data-label': 'Age' },
          h('time', { datetime: job.created_at, title: job.created_at }, age(job.created_at)),
        ),
        h(
          'td',
          { 'data-label': 'Actions' },
          CANCELLABLE_STATUSES.includes(job.status)
            ? h(
                'button',
                { type: 'button', class: 'cancel', onclick: () => void this.cancel(job.id) },
                'Cancel',
              )
            : '',
        ),
      );
    });
    this.replaceChildren(
      h('div', { class: 'row' }, h('h1', {}, 'Jobs'), refresh),
      h(
        'table',
        { class: 'jobs' },
        h('caption', { class: 'visually-hidden' }, 'Your jobs, newest first'),
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ['Job', 'Mode', 'Status', 'Progress', 'Price', 'Age', ''].map((t) =>
              h('th', { scope: 'col' }, t),
            ),
          ),
        ),
        h('tbody', {}, rows),
      ),
    );
  }

  async cancel(jobId) {
    try {
      await api('POST', `/jobs/${encodeURIComponent(jobId)}/cancel`);
    } catch (error) {
      alert(error.message);
    }
    await this.load();
  }
}
customElements.define('rs-jobs', JobList);

function copyBlock(title, text, id) {
  if (!text) return '';
  const button = h(
    'button',
    { type: 'button', class: 'copy', 'aria-label': `Copy the ${title.toLowerCase()}` },
    'Copy',
  );
  button.addEventListener('click', () => void copyText(text, button));
  return h(
    'section',
    { class: 'text-block' },
    h('div', { class: 'row' }, h('h2', {}, title), button),
    h('p', { id }, text),
  );
}

/** What the page shows of a clip (spec 2 clips: viralScore and its scoreBreakdown are the reasons). */
function clipFacts(clip) {
  const facts = [];
  if (typeof clip.viralScore === 'number') facts.push(['Score', clip.viralScore.toFixed(2)]);
  if (clip.scoreBreakdown && typeof clip.scoreBreakdown === 'object') {
    const reasons = Object.entries(clip.scoreBreakdown)
      .filter(([, value]) => typeof value === 'number')
      .sort((a, b) => b[1] - a[1])
      .map(([name, value]) => `${name.replace(/_/g, ' ')} ${value.toFixed(2)}`);
    if (reasons.length) facts.push(['Why', reasons.join(' · ')]);
  }
  if (typeof clip.startSec === 'number' && typeof clip.endSec === 'number')
    facts.push(['From the source', `${clip.startSec.toFixed(1)}–${clip.endSec.toFixed(1)} s`]);
  if (typeof clip.durationSec === 'number') facts.push(['Length', `${clip.durationSec.toFixed(1)} s`]);
  if (clip.framing) facts.push(['Framing', String(clip.framing)]);
  if (clip.transcript) facts.push(['Transcript', String(clip.transcript)]);
  return facts;
}

class JobView extends HTMLElement {
  connectedCallback() {
    this.jobId = this.getAttribute('job-id');
    this.addEventListener('stream-closed', () => setTimeout(() => void this.load(), 200));
    void this.load();
  }

  disconnectedCallback() {
    clearTimeout(this.timer);
  }

  async load() {
    let job;
    try {
      job = (await api('GET', `/jobs/${encodeURIComponent(this.jobId)}`)).job;
    } catch (error) {
      this.replaceChildren(h('p', { class: 'error', role: 'alert' }, error.message));
      return;
    }
    this.job = job;
    const a = job.artifacts ?? {};
    const open = OPEN_STATUSES.includes(job.status);
    const last = job.progress.at(-1);
    const parts = [
      h('p', {}, h('a', { href: '#jobs' }, '← Jobs')),
      h('h1', {}, a.title ?? `Job ${job.id}`),
      h(
        'p',
        { class: 'summary' },
        h('span', { class: `status status-${job.status}`, id: 'job-status' }, job.status),
        ` · ${job.operation} · ${usd(job.price_usd_cents)} · `,
        h('time', { datetime: job.createdAt }, age(job.createdAt)),
      ),
    ];
    if (open) {
      const stream = streamUrls.get(job.id);
      parts.push(
        h('rs-progress', {
          percent: last?.percent ?? 0,
          stage: last?.stage ?? '',
          ...(stream ? { stream } : {}),
        }),
      );
      if (!stream) this.timer = setTimeout(() => void this.load(), 1500);
      if (CANCELLABLE_STATUSES.includes(job.status))
        parts.push(
          h(
            'button',
            { type: 'button', class: 'cancel', onclick: () => void this.cancel() },
            'Cancel the job',
          ),
        );
    }
    const media = [];
    if (a.videoUrl) {
      media.push(
        h('video', {
          id: 'player',
          controls: true,
          playsinline: true,
          preload: 'metadata',
          poster: a.thumbnailUrl,
          src: a.videoUrl,
          'aria-label': a.title ?? 'Video',
        }),
        h(
          'p',
          { class: 'downloads' },
          h('a', { href: a.videoUrl, download: '' }, 'Download the MP4'),
          a.thumbnailUrl ? [' · ', h('a', { href: a.thumbnailUrl, download: '' }, 'Poster')] : '',
        ),
      );
    }
    const info = [];
    info.push(copyBlock('Title', a.title, 'job-title'));
    info.push(copyBlock('Description', a.description, 'job-description'));
    const hashtags = Array.isArray(a.hashtags)
      ? a.hashtags.join(' ')
      : (a.description?.match(/#[\p{L}\p{N}_]+/gu) ?? []).join(' ');
    info.push(copyBlock('Hashtags', hashtags, 'job-hashtags'));
    info.push(copyBlock('Script', a.script, 'job-script'));
    if (a.output_files?.length) {
      info.push(
        h(
          'section',
          {},
          h('h2', {}, 'Caption and transcript files'),
          h(
            'ul',
            {},
            a.output_files.map((f) =>
              h('li', {}, h('a', { href: f.url, download: f.name }, f.name), ` (${f.format})`),
            ),
          ),
        ),
      );
    }
    const clips = [];
    if (a.clips?.length) {
      clips.push(
        h(
          'section',
          { class: 'clips' },
          h('h2', {}, `Clips (${a.clips.length})`),
          a.clips.map((clip, index) =>
            h(
              'article',
              { class: 'clip' },
              h('h3', {}, clip.title ?? `Clip ${index + 1}`),
              clip.videoUrl
                ? h('video', {
                    controls: true,
                    preload: 'metadata',
                    poster: clip.thumbnailUrl,
                    src: clip.videoUrl,
                    'aria-label': clip.title ?? `Clip ${index + 1}`,
                  })
                : '',
              h(
                'dl',
                {},
                clipFacts(clip).map(([name, value]) => [h('dt', {}, name), h('dd', {}, value)]),
              ),
            ),
          ),
        ),
      );
    }
    if (job.error) {
      info.unshift(
        h(
          'section',
          { class: 'failure', role: 'alert' },
          h('h2', {}, 'Error'),
          h('p', {}, h('code', {}, job.error.code), ' ', job.error.message),
          h('p', { id: 'refund' }, 'Checking the refund…'),
        ),
      );
    }
    info.push(this.receipt(job));
    if (!job.sandbox) info.push(this.listing(job));
    this.replaceChildren(
      h(
        'article',
        { class: 'card job' },
        parts,
        h(
          'div',
          { class: 'job-body' },
          media.length ? h('div', { class: 'job-media' }, media) : '',
          h('div', { class: 'job-info' }, info),
        ),
        clips,
      ),
    );
    if (job.error) void this.showRefund(job);
  }

  receipt(job) {
    const rows = [
      ['Job id', job.id],
      ['Video id', job.video_id],
      ['Mode', job.operation],
      ['Price', usd(job.price_usd_cents)],
      ['Sandbox', job.sandbox ? 'yes' : 'no'],
      ['Created', job.createdAt],
      ['Updated', job.updatedAt],
      ['Attempts', job.attempts],
    ];
    return h(
      'section',
      { class: 'receipt' },
      h('h2', {}, 'Receipt'),
      h(
        'dl',
        {},
        rows.map(([k, v]) => [h('dt', {}, k), h('dd', {}, String(v))]),
      ),
    );
  }

  listing(job) {
    const select = h(
      'select',
      { id: 'listing' },
      ['private', 'public'].map((v) => h('option', { value: v, selected: job.listing === v }, v)),
    );
    const note = h('span', { role: 'status', id: 'listing-status' });
    const link =
      job.listing === 'public' && job.status === 'completed'
        ? h('a', { href: `/v/${encodeURIComponent(job.video_id)}`, id: 'public-link' }, 'Public page')
        : '';
    return h(
      'section',
      { class: 'listing' },
      h('h2', {}, 'Listing'),
      h('label', { for: 'listing' }, 'Who can find this video'),
      select,
      ' ',
      h(
        'button',
        {
          type: 'button',
          id: 'save-listing',
          onclick: async () => {
            try {
              await api('PATCH', `/jobs/${encodeURIComponent(job.id)}`, { body: { listing: select.value } });
              await this.load();
              this.querySelector('#listing-status').textContent = `Saved: ${select.value}.`;
            } catch (error) {
              note.textContent = error.message;
            }
          },
        },
        'Save',
      ),
      ' ',
      note,
      ' ',
      link,
    );
  }

  async showRefund(job) {
    const data = await api('GET', '/ledger?limit=1000').catch(() => undefined);
    const refunds = (data?.entries ?? []).filter((e) => e.job_id === job.id && e.kind === 'refund');
    const total = refunds.reduce((sum, e) => sum + e.amount_usd_cents, 0);
    const target = this.querySelector('#refund');
    if (target)
      target.textContent = refunds.length
        ? `Refunded ${usd(total)}.`
        : job.price_usd_cents > 0
          ? 'No refund yet.'
          : 'Nothing was charged.';
  }

  async cancel() {
    try {
      await api('POST', `/jobs/${encodeURIComponent(this.jobId)}/cancel`);
    } catch (error) {
      alert(error.message);
    }
    await this.load();
  }
}
customElements.define('rs-job', JobView);
