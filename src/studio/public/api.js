// The Studio's only way to the service: the public /api/v1 routes with the key of this browser session.

const KEY_ITEM = 'reelsmith.studio.key';

export class ApiError extends Error {
  constructor(status, error) {
    super(error?.message ?? `HTTP ${status}`);
    this.status = status;
    this.code = error?.code ?? 'HTTP_ERROR';
    this.details = error?.details;
  }
}

export const session = {
  key: () => sessionStorage.getItem(KEY_ITEM),
  signIn: (key) => sessionStorage.setItem(KEY_ITEM, key),
  signOut: () => sessionStorage.removeItem(KEY_ITEM),
};

/** Calls /api/v1/<path>; a 401 means the key is gone (revoked), so the page signs out. */
export async function api(method, path, { body, headers = {}, key = session.key() } = {}) {
  const init = { method, headers: { ...headers, authorization: `Bearer ${key}` } };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers['content-type'] = 'application/json';
  }
  const response = await fetch(`/api/v1${path}`, init);
  const payload = await response.json().catch(() => undefined);
  if (response.status === 401 && key === session.key()) {
    session.signOut();
    window.dispatchEvent(
      new CustomEvent('studio:signed-out', {
        detail: payload?.error?.message ?? 'The API key is not valid any more.',
      }),
    );
  }
  if (!response.ok || !payload?.success) throw new ApiError(response.status, payload?.error);
  return payload.data;
}

export const usd = (cents) => (cents === null || cents === undefined ? '—' : `$${(cents / 100).toFixed(2)}`);

export function age(iso) {
  const seconds = Math.max(0, (Date.now() - new Date(iso).getTime()) / 1000);
  if (seconds < 60) return `${Math.round(seconds)} s ago`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 86400) return `${Math.round(seconds / 3600)} h ago`;
  return `${Math.round(seconds / 86400)} d ago`;
}

/** Builds an element: h('button', { class: 'x', onclick }, 'text', child…). */
export function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on')) element.addEventListener(name.slice(2), value);
    else if (name in element && name !== 'list' && typeof value !== 'string') element[name] = value;
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

export async function copyText(text, button) {
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = 'Copied';
  } catch {
    button.textContent = 'Select and copy';
  }
  setTimeout(() => (button.textContent = 'Copy'), 1500);
}

export const OPEN_STATUSES = ['queued', 'leased', 'running', 'uploading'];
export const CANCELLABLE_STATUSES = ['queued', 'leased', 'running'];

/** Streams of open jobs, by job id: the receipt and the job list give their websocket_url. */
export const streamUrls = new Map();
