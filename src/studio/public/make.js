// Make a video: a form drawn from the served modes' own JSON Schemas (GET /capabilities: enums, defaults,
// limits), a free dry run for the price first, then the paid call with one Idempotency-Key per submission.
import { api, h, streamUrls } from './api.js';

/** Modes the form offers first; the others follow in the service's order. */
const FIRST = ['stock', 'clip', 'transcription'];
/** Fields shown outside "More options" when the schema names them. */
const MAIN_FIELDS = ['topic', 'prompt', 'script', 'video_url', 'url', 'duration_sec', 'language'];

function enumOf(schema) {
  if (Array.isArray(schema.enum)) return schema.enum;
  if (schema.const !== undefined) return [schema.const];
  const options = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(options) && options.every((o) => o.const !== undefined))
    return options.map((o) => o.const);
  if (Array.isArray(options)) {
    const only = options.filter((o) => o.type !== 'null');
    if (only.length === 1) return enumOf(only[0]);
  }
  return undefined;
}

function kindOf(schema) {
  const values = enumOf(schema);
  if (values) return { kind: 'enum', values };
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'boolean') return { kind: 'boolean' };
  if (type === 'number' || type === 'integer') return { kind: 'number', integer: type === 'integer' };
  if (type === 'string') return { kind: 'string' };
  if (
    type === 'array' &&
    schema.items &&
    ['string', 'number'].includes(schema.items.type) &&
    !enumOf(schema.items)
  )
    return { kind: 'list' };
  if (type === 'array' && schema.items && enumOf(schema.items))
    return { kind: 'multi', values: enumOf(schema.items) };
  return { kind: 'json' };
}

const label = (name) => name.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());

/** One form control for one schema property; read() gives the value to send, or undefined for "not set". */
function fieldFor(name, schema, required) {
  const id = `field-${name}`;
  const { kind, values, integer } = kindOf(schema);
  const hint = [];
  if (schema.description) hint.push(schema.description);
  if (schema.default !== undefined && kind !== 'json')
    hint.push(
      `Default: ${typeof schema.default === 'string' ? schema.default : JSON.stringify(schema.default)}`,
    );
  if (schema.minimum !== undefined || schema.maximum !== undefined)
    hint.push(`Range ${schema.minimum ?? '…'}–${schema.maximum ?? '…'}`);
  if (schema.maxLength) hint.push(`Up to ${schema.maxLength} characters`);
  let control;
  let read;
  if (kind === 'enum') {
    control = h(
      'select',
      { id, name },
      h('option', { value: '' }, schema.default !== undefined ? `Default (${schema.default})` : '—'),
      values.map((v) => h('option', { value: String(v) }, String(v))),
    );
    read = () => (control.value === '' ? undefined : values.find((v) => String(v) === control.value));
  } else if (kind === 'boolean') {
    control = h('input', { id, name, type: 'checkbox', checked: schema.default === true });
    read = () => (control.checked === (schema.default === true) ? undefined : control.checked);
  } else if (kind === 'number') {
    control = h('input', {
      id,
      name,
      type: 'number',
      inputmode: 'decimal',
      min: schema.minimum ?? schema.exclusiveMinimum,
      max: schema.maximum ?? schema.exclusiveMaximum,
      step: integer ? '1' : 'any',
      placeholder: schema.default !== undefined ? String(schema.default) : '',
    });
    read = () => (control.value === '' ? undefined : Number(control.value));
  } else if (kind === 'string') {
    const long = (schema.maxLength ?? 0) > 600 || /script|text|markdown/.test(name);
    control = h(long ? 'textarea' : 'input', {
      id,
      name,
      ...(long ? { rows: 4 } : { type: schema.format === 'uri' ? 'url' : 'text' }),
      maxlength: schema.maxLength,
      placeholder: schema.default !== undefined ? String(schema.default) : '',
    });
    read = () => (control.value.trim() === '' ? undefined : control.value);
  } else if (kind === 'list' || kind === 'multi') {
    control = h('input', {
      id,
      name,
      type: 'text',
      placeholder: kind === 'multi' ? values.join(', ') : 'a, b, c',
    });
    hint.unshift('Separate values with commas.');
    read = () => {
      const items = control.value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      return items.length ? items : undefined;
    };
  } else {
    control = h('textarea', {
      id,
      name,
      rows: 2,
      placeholder: schema.default !== undefined ? JSON.stringify(schema.default) : 'JSON',
    });
    hint.unshift('JSON value.');
    read = () => {
      if (control.value.trim() === '') return undefined;
      try {
        return JSON.parse(control.value);
      } catch {
        return control.value;
      }
    };
  }
  if (required) control.required = true;
  const error = h('p', { class: 'field-error', id: `${id}-error` });
  const help = h('p', { class: 'hint', id: `${id}-hint` }, hint.join(' · '));
  control.setAttribute('aria-describedby', `${id}-hint ${id}-error`);
  const wrapper = h(
    'div',
    { class: `field field-${kind}`, 'data-field': name },
    kind === 'boolean'
      ? h('label', { for: id, class: 'check' }, control, ` ${label(name)}`)
      : [
          h('label', { for: id }, label(name), required ? h('span', { 'aria-hidden': 'true' }, ' *') : ''),
          control,
        ],
    help,
    error,
  );
  return { name, wrapper, control, error, read };
}

class MakeForm extends HTMLElement {
  async connectedCallback() {
    this.replaceChildren(h('p', { role: 'status' }, 'Loading the modes…'));
    try {
      const caps = await api('GET', '/capabilities');
      this.modes = caps.modes
        .filter((m) => m.input_schema?.type === 'object' && m.dry_run)
        .sort((a, b) => rank(a) - rank(b));
    } catch (error) {
      this.replaceChildren(h('p', { class: 'error', role: 'alert' }, error.message));
      return;
    }
    const select = h(
      'select',
      { id: 'mode', name: 'mode', onchange: () => this.drawFields(select.value) },
      this.modes.map((m) => h('option', { value: m.mode }, `${m.title} (${m.path.replace('/api/v1/', '')})`)),
    );
    this.fieldsBox = h('div', { class: 'fields' });
    this.summary = h('div', { class: 'error-summary', role: 'alert', id: 'form-errors' });
    this.price = h('div', { class: 'price', id: 'price', 'aria-live': 'polite' });
    this.checkButton = h(
      'button',
      { type: 'button', id: 'dry-run', onclick: () => this.dryRun() },
      'Check the price',
    );
    this.makeButton = h(
      'button',
      { type: 'submit', id: 'make', class: 'primary', disabled: true },
      'Make the video',
    );
    this.form = h(
      'form',
      {
        class: 'card make',
        novalidate: true,
        onsubmit: (event) => {
          event.preventDefault();
          void this.make();
        },
        oninput: () => this.invalidate(),
        onchange: (event) => {
          if (event.target !== select) this.invalidate();
        },
      },
      h('h1', {}, 'Make a video'),
      h('label', { for: 'mode' }, 'Mode'),
      select,
      h('p', { class: 'hint', id: 'mode-description' }),
      this.fieldsBox,
      this.summary,
      this.price,
      h('div', { class: 'actions' }, this.checkButton, this.makeButton),
    );
    this.replaceChildren(this.form);
    this.drawFields(this.modes[0]?.mode);
  }

  drawFields(name) {
    this.mode = this.modes.find((m) => m.mode === name);
    if (!this.mode) return;
    this.querySelector('#mode-description').textContent = this.mode.description;
    const schema = this.mode.input_schema;
    const required = new Set(schema.required ?? []);
    const entries = Object.entries(schema.properties ?? {});
    this.fields = entries.map(([field, s]) => fieldFor(field, s, required.has(field)));
    this.fields.push(
      fieldFor(
        'listing',
        {
          enum: ['private', 'public'],
          default: 'private',
          description: 'Public: a watch page, the discovery page, sitemap and feed once finished.',
        },
        false,
      ),
    );
    const main = this.fields.filter(
      (f) => required.has(f.name) || MAIN_FIELDS.includes(f.name) || f.name === 'listing',
    );
    const more = this.fields.filter((f) => !main.includes(f));
    this.fieldsBox.replaceChildren(
      ...main.map((f) => f.wrapper),
      more.length
        ? h(
            'details',
            { class: 'more' },
            h('summary', {}, `More options (${more.length})`),
            more.map((f) => f.wrapper),
          )
        : '',
    );
    this.invalidate();
  }

  body() {
    const body = {};
    for (const field of this.fields) {
      const value = field.read();
      if (value !== undefined) body[field.name] = value;
    }
    return body;
  }

  /** Any change makes a new submission: the price must be checked again and a new Idempotency-Key is used. */
  invalidate() {
    this.priced = undefined;
    this.idempotencyKey = undefined;
    this.makeButton.disabled = true;
    this.makeButton.textContent = 'Make the video';
    this.price.replaceChildren();
  }

  showErrors(error) {
    for (const field of this.fields) {
      field.error.textContent = '';
      field.control.removeAttribute('aria-invalid');
    }
    const loose = [];
    for (const issue of error?.details?.fields ?? []) {
      const top = String(issue.field).split(/[.[]/)[0];
      const field = this.fields.find((f) => f.name === top);
      const text = `${issue.message}${issue.valid_values ? ` (valid: ${issue.valid_values.slice(0, 12).join(', ')}${issue.valid_values.length > 12 ? '…' : ''})` : ''}`;
      if (field) {
        field.error.textContent = issue.field === top ? text : `${issue.field}: ${text}`;
        field.control.setAttribute('aria-invalid', 'true');
        field.wrapper.closest('details')?.setAttribute('open', '');
      } else loose.push(`${issue.field}: ${text}`);
    }
    this.summary.replaceChildren(
      ...(error
        ? [
            h('p', {}, error.message),
            loose.length
              ? h(
                  'ul',
                  {},
                  loose.map((t) => h('li', {}, t)),
                )
              : '',
          ]
        : []),
    );
  }

  async dryRun() {
    this.checkButton.disabled = true;
    this.showErrors();
    const body = this.body();
    try {
      const data = await api('POST', this.mode.path.replace('/api/v1', ''), {
        body: { ...body, dry_run: true },
      });
      this.priced = JSON.stringify(body);
      this.idempotencyKey = `studio-${crypto.randomUUID()}`;
      const seconds = data.estimated_render_seconds;
      this.price.replaceChildren(
        h('p', {}, 'Price: ', h('strong', { id: 'price-display' }, data.price.display)),
        seconds
          ? h(
              'p',
              { class: 'hint' },
              `Render time about ${seconds.typical ?? seconds.min} s (${seconds.min}–${seconds.max} s).`,
            )
          : '',
        data.warnings?.length
          ? h(
              'ul',
              { class: 'warnings' },
              data.warnings.map((w) => h('li', {}, w)),
            )
          : '',
      );
      this.makeButton.disabled = false;
      this.makeButton.textContent = `Make the video for ${data.price.display}`;
      this.makeButton.focus();
    } catch (error) {
      this.showErrors(error);
    } finally {
      this.checkButton.disabled = false;
    }
  }

  async make() {
    if (!this.priced || this.busy) return;
    this.busy = true;
    this.makeButton.disabled = true;
    const body = JSON.parse(this.priced);
    try {
      const receipt = await api('POST', this.mode.path.replace('/api/v1', ''), {
        body,
        headers: { 'idempotency-key': this.idempotencyKey },
      });
      if (receipt.websocket_url) streamUrls.set(receipt.job_id, receipt.websocket_url);
      location.hash = `#job/${encodeURIComponent(receipt.job_id ?? receipt.job_ids?.[0])}`;
    } catch (error) {
      this.showErrors(error);
      this.makeButton.disabled = false;
    } finally {
      this.busy = false;
    }
  }
}

function rank(mode) {
  const index = FIRST.indexOf(mode.mode);
  return index === -1 ? FIRST.length : index;
}

customElements.define('rs-make', MakeForm);
