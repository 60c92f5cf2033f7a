// Account: balance and ledger with running totals, spending per mode over time (uPlot, from node_modules),
// API keys (create, shown once, revoke) and the webhook secret with a verification example.
import uPlot from '/studio/vendor/uplot/uPlot.esm.js';
import { api, copyText, h, session, usd } from './api.js';

const DAY = 86_400;
const PALETTE = ['#1d4ed8', '#b45309', '#047857', '#b91c1c', '#6d28d9', '#0e7490', '#a21caf', '#4d7c0f'];

/** Net spending (charges minus refunds) per mode per day, in dollars, for the chart. */
export function usageSeries(entries) {
  const byDay = new Map();
  const modes = new Set();
  for (const entry of entries) {
    if (entry.kind === 'top_up') continue;
    const mode = entry.mode ?? 'other';
    modes.add(mode);
    const day = Math.floor(new Date(entry.created_at).getTime() / 1000 / DAY) * DAY;
    const row = byDay.get(day) ?? {};
    row[mode] = (row[mode] ?? 0) - entry.amount_usd_cents / 100;
    byDay.set(day, row);
  }
  const charged = [...byDay.keys()];
  if (charged.length === 0) return { days: [], names: [], values: [] };
  // Every day from the one before the first charge to the one after the last (at most a year): a day
  // without charges is a real zero, and one day of data still draws as a line.
  const last = Math.max(...charged) + DAY;
  const first = Math.max(Math.min(...charged) - DAY, last - 366 * DAY);
  const days = [];
  for (let day = first; day <= last; day += DAY) days.push(day);
  const names = [...modes].sort();
  return {
    days,
    names,
    values: names.map((name) => days.map((day) => byDay.get(day)?.[name] ?? 0)),
  };
}

const VERIFY_EXAMPLE = (header) => `import { createHmac, timingSafeEqual } from 'node:crypto';

// rawBody: the request body exactly as received (a string), before any JSON parsing.
function verify(rawBody, signatureHeader, secret) {
  const { t, v1 } = Object.fromEntries(signatureHeader.split(',').map((part) => part.split('=')));
  if (Math.abs(Date.now() / 1000 - Number(t)) > 300) return false; // refuse replays older than 5 minutes
  const expected = createHmac('sha256', secret).update(\`\${t}.\${rawBody}\`).digest();
  const given = Buffer.from(v1 ?? '', 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
// verify(rawBody, request.headers['${header.toLowerCase()}'], process.env.REELSMITH_WEBHOOK_SECRET)`;

class AccountView extends HTMLElement {
  connectedCallback() {
    this.sandbox = this.hasAttribute('sandbox');
    this.keysBox = h('section', { class: 'card', id: 'keys', 'aria-labelledby': 'keys-title' });
    this.ledgerBox = h('section', { class: 'card', id: 'ledger', 'aria-labelledby': 'ledger-title' });
    this.usageBox = h('section', { class: 'card', id: 'usage', 'aria-labelledby': 'usage-title' });
    this.secretBox = h('section', { class: 'card', id: 'webhook-secret', 'aria-labelledby': 'secret-title' });
    this.replaceChildren(h('h1', {}, 'Account'), this.ledgerBox, this.usageBox, this.keysBox, this.secretBox);
    void this.loadLedger();
    void this.loadKeys();
    void this.loadSecret();
  }

  disconnectedCallback() {
    this.resizer?.disconnect();
    this.chart?.destroy();
  }

  async loadLedger() {
    const [usage, ledger] = await Promise.all([api('GET', '/usage'), api('GET', '/ledger?limit=1000')]);
    const totals = usage.ledger;
    this.ledgerBox.replaceChildren(
      h('h2', { id: 'ledger-title' }, 'Balance and ledger'),
      h(
        'p',
        { class: 'balance' },
        'Balance ',
        h('strong', { id: 'account-balance' }, usage.balance_display),
        ` · topped up ${usd(totals.topped_up_usd_cents)} · charged ${usd(totals.charged_usd_cents)} · refunded ${usd(totals.refunded_usd_cents)}`,
      ),
      h(
        'div',
        { class: 'scroll', tabindex: '0', role: 'region', 'aria-label': 'Ledger entries' },
        h(
          'table',
          { class: 'ledger' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              ['When', 'Kind', 'Amount', 'Balance after', 'Mode', 'Job', 'Reason'].map((t) =>
                h('th', { scope: 'col' }, t),
              ),
            ),
          ),
          h(
            'tbody',
            {},
            ledger.entries.map((e) =>
              h(
                'tr',
                { class: `kind-${e.kind}` },
                h('td', {}, h('time', { datetime: e.created_at }, new Date(e.created_at).toLocaleString())),
                h('td', {}, e.kind.replace('_', ' ')),
                h(
                  'td',
                  { class: 'num' },
                  `${e.amount_usd_cents > 0 ? '+' : ''}${usd(e.amount_usd_cents).replace('$-', '−$')}`,
                ),
                h('td', { class: 'num' }, usd(e.balance_after_usd_cents)),
                h('td', {}, e.mode ?? '—'),
                h(
                  'td',
                  {},
                  e.job_id
                    ? h('a', { href: `#job/${encodeURIComponent(e.job_id)}` }, e.job_id.slice(0, 14) + '…')
                    : '—',
                ),
                h('td', {}, e.reason),
              ),
            ),
          ),
        ),
      ),
    );
    this.drawUsage(ledger.entries);
  }

  drawUsage(entries) {
    const { days, names, values } = usageSeries(entries);
    const chart = h('div', { id: 'usage-chart', role: 'img', 'aria-label': 'Spending per mode per day' });
    const table = h(
      'details',
      {},
      h('summary', {}, 'The numbers'),
      h(
        'table',
        {},
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', { scope: 'col' }, 'Day'),
            names.map((n) => h('th', { scope: 'col' }, n)),
          ),
        ),
        h(
          'tbody',
          {},
          days.map((d, i) =>
            values.some((v) => v[i] !== 0)
              ? h(
                  'tr',
                  {},
                  h('td', {}, new Date(d * 1000).toISOString().slice(0, 10)),
                  values.map((v) => h('td', { class: 'num' }, `$${v[i].toFixed(2)}`)),
                )
              : '',
          ),
        ),
      ),
    );
    this.usageBox.replaceChildren(
      h('h2', { id: 'usage-title' }, 'Usage per mode'),
      ...(days.length ? [chart, table] : [h('p', {}, 'No charges yet.')]),
    );
    if (!days.length) return;
    const widthOf = () => Math.max(240, Math.min(900, chart.clientWidth));
    this.chart?.destroy();
    this.chart = new uPlot(
      {
        width: widthOf(),
        height: 220,
        scales: { x: { time: true } },
        axes: [{}, { values: (_u, ticks) => ticks.map((v) => `$${v.toFixed(2)}`) }],
        series: [
          {},
          ...names.map((name, i) => ({
            label: name,
            stroke: PALETTE[i % PALETTE.length],
            width: 2,
            points: { show: true },
          })),
        ],
      },
      [days, ...values],
      chart,
    );
    // The chart follows its box, e.g. a phone turned sideways.
    this.resizer?.disconnect();
    this.resizer = new ResizeObserver(() => this.chart?.setSize({ width: widthOf(), height: 220 }));
    this.resizer.observe(chart);
  }

  async loadKeys() {
    let keys;
    try {
      keys = (await api('GET', '/keys')).keys;
    } catch (error) {
      this.keysBox.replaceChildren(
        h('h2', { id: 'keys-title' }, 'API keys'),
        h('p', { class: 'error' }, error.message),
      );
      return;
    }
    const current = session.key();
    const kind = h(
      'select',
      { id: 'new-key-kind' },
      h('option', { value: 'live' }, 'Live key'),
      h('option', { value: 'sandbox' }, 'Sandbox key'),
    );
    const reveal = h('div', { id: 'new-key', 'aria-live': 'polite' });
    const create = h(
      'button',
      {
        type: 'button',
        id: 'create-key',
        disabled: this.sandbox,
        onclick: () => void this.createKey(kind.value === 'sandbox', reveal),
      },
      'Create a key',
    );
    this.keysBox.replaceChildren(
      h('h2', { id: 'keys-title' }, 'API keys'),
      this.sandbox ? h('p', { class: 'hint' }, 'Keys are managed with a live key.') : '',
      h(
        'div',
        { class: 'scroll', tabindex: '0', role: 'region', 'aria-label': 'API keys' },
        h(
          'table',
          { class: 'keys' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              ['Key', 'Kind', 'Created', 'State', ''].map((t) => h('th', { scope: 'col' }, t)),
            ),
          ),
          h(
            'tbody',
            {},
            keys.map((key) =>
              h(
                'tr',
                { 'data-key': key.id },
                h(
                  'td',
                  {},
                  h('code', {}, `${key.prefix}…`),
                  current?.startsWith(key.prefix) ? h('span', { class: 'tag' }, 'this session') : '',
                ),
                h('td', {}, key.sandbox ? 'sandbox' : 'live'),
                h('td', {}, new Date(key.created_at).toLocaleDateString()),
                h(
                  'td',
                  {},
                  key.revoked_at ? `revoked ${new Date(key.revoked_at).toLocaleDateString()}` : 'active',
                ),
                h(
                  'td',
                  {},
                  key.revoked_at || this.sandbox
                    ? ''
                    : h(
                        'button',
                        {
                          type: 'button',
                          class: 'revoke',
                          'aria-label': `Revoke ${key.prefix}`,
                          onclick: () => void this.revoke(key),
                        },
                        'Revoke',
                      ),
                ),
              ),
            ),
          ),
        ),
      ),
      h('div', { class: 'row' }, h('label', { for: 'new-key-kind' }, 'New key'), kind, create),
      reveal,
    );
  }

  async createKey(sandbox, reveal) {
    try {
      const { key } = await api('POST', '/keys', { body: { sandbox } });
      const field = h('input', {
        id: 'new-key-value',
        readonly: true,
        value: key.key,
        'aria-label': 'The new key',
      });
      const copy = h('button', { type: 'button', onclick: () => void copyText(key.key, copy) }, 'Copy');
      await this.loadKeys();
      this.querySelector('#new-key').replaceChildren(
        h('p', { role: 'status' }, 'Store this key now: it is shown only this once.'),
        h('div', { class: 'row' }, field, copy),
      );
    } catch (error) {
      reveal.replaceChildren(h('p', { class: 'error', role: 'alert' }, error.message));
    }
  }

  async revoke(key) {
    if (!confirm(`Revoke ${key.prefix}…? Anything using it stops working at once.`)) return;
    await api('DELETE', `/keys/${encodeURIComponent(key.id)}`);
    // Revoking this session's own key signs the page out on the next call.
    await this.loadKeys();
  }

  async loadSecret() {
    const data = await api('GET', '/webhook-secret');
    const value = h('input', {
      id: 'secret-value',
      type: 'password',
      readonly: true,
      value: data.secret,
      'aria-label': 'Webhook secret',
    });
    const show = h(
      'button',
      {
        type: 'button',
        'aria-pressed': 'false',
        onclick: () => {
          const shown = value.type === 'text';
          value.type = shown ? 'password' : 'text';
          show.setAttribute('aria-pressed', String(!shown));
          show.textContent = shown ? 'Show' : 'Hide';
        },
      },
      'Show',
    );
    const copy = h('button', { type: 'button', onclick: () => void copyText(data.secret, copy) }, 'Copy');
    this.secretBox.replaceChildren(
      h('h2', { id: 'secret-title' }, 'Webhook secret'),
      h('p', {}, `Each webhook carries ${data.signature_header}: ${data.signature_format}.`),
      h('div', { class: 'row' }, value, show, copy),
      h('h3', {}, 'Verifying a webhook (Node.js)'),
      h('pre', { tabindex: '0' }, h('code', {}, VERIFY_EXAMPLE(data.signature_header))),
    );
  }
}

customElements.define('rs-account', AccountView);
