// The Studio shell: sign-in with an API key (kept in sessionStorage only), the sandbox banner, sign-out and
// the views, chosen by the URL hash: #make, #jobs, #job/<id>, #account.
import { api, h, session } from './api.js';
import './make.js';
import './jobs.js';
import './account.js';

const VIEWS = [
  { hash: 'make', label: 'Make a video' },
  { hash: 'jobs', label: 'Jobs' },
  { hash: 'account', label: 'Account' },
];

class StudioApp extends HTMLElement {
  connectedCallback() {
    window.addEventListener('hashchange', () => {
      this.route();
      // A new view is announced from its start, as after a page load.
      this.main?.focus({ preventScroll: true });
    });
    window.addEventListener('studio:signed-out', (event) => this.showSignIn(event.detail));
    if (session.key()) void this.start();
    else this.showSignIn();
  }

  showSignIn(notice) {
    this.account = undefined;
    const input = h('input', {
      id: 'api-key',
      name: 'api-key',
      type: 'password',
      autocomplete: 'off',
      required: true,
      spellcheck: 'false',
      placeholder: 'svc_…',
    });
    const error = h('p', { class: 'error', role: 'alert', id: 'signin-error' }, notice ?? '');
    const form = h(
      'form',
      {
        class: 'card signin',
        onsubmit: async (event) => {
          event.preventDefault();
          error.textContent = '';
          const key = input.value.trim();
          try {
            await api('GET', '/usage', { key });
            session.signIn(key);
            await this.start();
          } catch (failure) {
            error.textContent = failure.message;
            input.focus();
          }
        },
      },
      h('h1', {}, 'Reelsmith Studio'),
      h('p', {}, 'Sign in with an API key of your account. It stays in this browser tab only.'),
      h('label', { for: 'api-key' }, 'API key'),
      input,
      error,
      h('button', { type: 'submit', class: 'primary' }, 'Sign in'),
      h(
        'p',
        { class: 'muted' },
        'No key? ',
        h('code', {}, 'npm start'),
        ' prints the first account’s keys; ',
        h('code', {}, 'npm run admin'),
        ' makes more. API reference: ',
        h('a', { href: '/docs' }, '/docs'),
        '.',
      ),
    );
    this.replaceChildren(h('main', { id: 'main' }, form));
    input.focus();
  }

  async start() {
    this.account = await api('GET', '/usage');
    const sandbox = this.account.key_mode === 'sandbox';
    this.nav = h(
      'nav',
      { 'aria-label': 'Studio' },
      VIEWS.map((view) => h('a', { href: `#${view.hash}`, 'data-view': view.hash }, view.label)),
    );
    this.main = h('main', { id: 'main', tabindex: '-1' });
    this.replaceChildren(
      h(
        'header',
        { class: 'top' },
        h('span', { class: 'brand' }, 'Reelsmith Studio'),
        this.nav,
        h(
          'span',
          { class: 'who' },
          h('span', { id: 'account-name' }, this.account.account_name ?? this.account.account_id),
          ' · ',
          h('span', { id: 'balance' }, this.account.balance_display),
          ' ',
          h('button', { type: 'button', id: 'sign-out', onclick: () => this.signOut() }, 'Sign out'),
        ),
      ),
      sandbox
        ? h(
            'p',
            { class: 'sandbox-banner', role: 'status', id: 'sandbox-banner' },
            'Sandbox key: jobs are free placeholder videos; nothing is rendered or charged.',
          )
        : '',
      this.main,
    );
    this.route();
  }

  signOut() {
    session.signOut();
    this.showSignIn('Signed out.');
  }

  route() {
    if (!this.main || !session.key()) return;
    const [view, id] = (location.hash.slice(1) || 'make').split('/');
    for (const link of this.nav.querySelectorAll('a')) {
      const current = link.dataset.view === view || (view === 'job' && link.dataset.view === 'jobs');
      if (current) link.setAttribute('aria-current', 'page');
      else link.removeAttribute('aria-current');
    }
    // The balance in the header follows charges and refunds made since sign-in.
    api('GET', '/usage').then(
      (usage) => {
        const balance = this.querySelector('#balance');
        if (balance) balance.textContent = usage.balance_display;
      },
      () => undefined,
    );
    const sandbox = this.account.key_mode === 'sandbox';
    let element;
    if (view === 'jobs') element = h('rs-jobs');
    else if (view === 'job' && id) element = h('rs-job', { 'job-id': decodeURIComponent(id) });
    else if (view === 'account') element = h('rs-account', { sandbox });
    else element = h('rs-make', { sandbox });
    this.main.replaceChildren(element);
  }
}

customElements.define('rs-studio', StudioApp);
