// A form: one control a field, named by the field's property key (so a
// script can fill it), labelled and described for a screen reader. elicit
// checks the values as the terminal does, then the review step lists
// them before they are sent.
import { h, confirmBar, finish } from './dom.js';

let seq = 0;

export function renderForm(q, ctx) {
  const fields = q.form.fields.map(field);
  const summary = h('div', { class: 'errors', role: 'alert', tabindex: -1, hidden: true });
  const actions = h('div', { class: 'actions' },
    h('button', { type: 'submit', class: 'primary', text: 'Accept' }),
    h('button', {
      type: 'button', text: 'Decline',
      onclick: () => confirmBar(actions, 'Decline this form? The agent is told no.', 'Decline', () => finish(ctx, { action: 'decline' }, 'You declined the form.')),
    }),
    h('button', {
      type: 'button', text: 'Cancel',
      onclick: () => confirmBar(actions, 'Cancel this form? Nobody answers it, and what you typed is dropped.', 'Cancel the form', () => finish(ctx, { action: 'cancel' }, 'You cancelled the form.')),
    }));
  const form = h('form', { class: 'form', novalidate: true, 'aria-labelledby': 'q-title' }, summary, fields.map((f) => f.el), actions);
  const section = h('section', { class: 'answer' }, form);
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const content = collect(fields);
    const r = await ctx.send({ action: 'accept', review: true, content });
    if (!r) return;
    if (!r.ok) return showErrors(fields, summary, r);
    review(section, form, fields, summary, r.review || [], content, ctx);
  });
  return section;
}


// collect is every field's value, as typed.
function collect(fields) {
  const content = {};
  for (const f of fields) if (f.get) content[f.key] = f.get();
  return content;
}

function showErrors(fields, summary, r) {
  const errs = r.errors || {};
  let first = null;
  for (const f of fields) {
    f.setError(errs[f.key] || '');
    if (errs[f.key] && !first) first = f;
  }
  const n = Object.keys(errs).length;
  summary.replaceChildren(h('p', { text: r.message || 'Not sent.' }),
    n ? h('ul', {}, fields.filter((f) => errs[f.key]).map((f) => h('li', { text: f.label + ': ' + errs[f.key] }))) : null);
  summary.hidden = false;
  (first ? first.focusable : summary).focus();
}

// review lists the answers elicit read, with Send and Edit.
function review(section, form, fields, summary, lines, content, ctx) {
  for (const f of fields) f.setError('');
  summary.hidden = true;
  form.hidden = true;
  const secret = lines.some((l) => l.secret);
  const edit = () => { panel.remove(); form.hidden = false; (fields[0] ? fields[0].focusable : form).focus(); };
  const panel = h('div', { class: 'review' },
    h('h3', { tabindex: -1, text: 'Review your answers' }),
    lines.length ? h('dl', {}, lines.map((l) => [h('dt', { text: l.label }), h('dd', { 'data-key': l.key, text: l.value })]))
      : h('p', { text: 'No answers: the form is sent empty.' }),
    secret ? h('p', { class: 'secret', role: 'note', text: '⚠ An answer looks like a secret. Forms go to the agent and its model: never send passwords, tokens or keys.' }) : null,
    h('div', { class: 'actions' },
      h('button', {
        type: 'button', class: 'primary', text: 'Send',
        onclick: async () => {
          const r = await ctx.send({ action: 'accept', content });
          if (!r) return;
          if (r.ok) return ctx.done('The agent has your answers.');
          edit();
          showErrors(fields, summary, r);
        },
      }),
      h('button', { type: 'button', text: 'Edit', onclick: edit })));
  section.append(panel);
  panel.querySelector('h3').focus();
}

// field builds one field's control, with get (its value for elicit),
// setError and focusable.
function field(f) {
  const id = 'f' + ++seq;
  const helpId = id + '-help';
  const errId = id + '-err';
  const help = h('div', { id: helpId, class: 'help' },
    f.description ? h('p', { class: 'desc', text: f.description }) : null,
    (f.hints || []).map((t) => h('p', { class: 'hint', text: t })),
    f.secret ? h('p', { class: 'secret', role: 'note', text: '⚠ ' + f.secret }) : null);
  const err = h('p', { id: errId, class: 'error', hidden: true });
  const req = f.required ? [h('span', { class: 'req', 'aria-hidden': 'true', text: ' *' }), h('span', { class: 'sr', text: ' (required)' })] : null;
  const out = { key: f.key, label: f.label, focusable: null, get: null, controls: [] };
  const described = helpId + ' ' + errId;
  let el;
  switch (f.kind) {
    case 'boolean': {
      const choices = [['true', 'Yes'], ['false', 'No']];
      if (!f.required) choices.push(['', 'No answer']);
      const now = f.value === true ? 'true' : f.value === false ? 'false' : '';
      out.controls = choices.map(([v, t]) => h('input', { type: 'radio', name: f.key, value: v, id: id + '-' + (v || 'none'), checked: v === now && (v !== '' || !f.required) }));
      el = h('fieldset', { class: 'field', 'aria-describedby': described },
        h('legend', {}, f.label, req), help,
        h('div', { class: 'choices' }, out.controls.map((c, i) => h('label', { class: 'check', for: c.id }, c, h('span', { text: choices[i][1] })))), err);
      out.get = () => {
        const c = out.controls.find((x) => x.checked);
        return !c || c.value === '' ? null : c.value === 'true';
      };
      break;
    }
    case 'multiselect': {
      const held = Array.isArray(f.value) ? f.value : [];
      out.controls = (f.options || []).map((o, i) => h('input', { type: 'checkbox', name: f.key, value: o.value, id: id + '-' + i, checked: held.includes(o.value) }));
      el = h('fieldset', { class: 'field', 'aria-describedby': described },
        h('legend', {}, f.label, req), help,
        h('div', { class: 'choices' }, out.controls.map((c, i) => h('label', { class: 'check', for: c.id }, c,
          h('span', { text: f.options[i].title }), f.options[i].description ? h('small', { text: f.options[i].description }) : null))), err);
      out.get = () => out.controls.filter((c) => c.checked).map((c) => c.value);
      break;
    }
    case 'const':
      el = h('div', { class: 'field' }, h('span', { class: 'label', text: f.label }), help,
        h('output', { name: f.key, id, text: typeof f.value === 'string' ? f.value : JSON.stringify(f.value) }), err);
      break;
    default: {
      const c = control(f, id, described);
      out.controls = [c.el];
      el = h('div', { class: 'field' }, h('label', { class: 'label', for: id }, f.label, req), help, c.el, c.after || null, err);
      out.get = () => c.el.value;
    }
  }
  out.el = el;
  out.focusable = out.controls[0] || el;
  out.setError = (msg) => {
    err.textContent = msg;
    err.hidden = !msg;
    for (const c of out.controls) {
      if (msg) c.setAttribute('aria-invalid', 'true');
      else c.removeAttribute('aria-invalid');
    }
    el.classList.toggle('invalid', !!msg);
  };
  return out;
}

// control is the input of a text, number, select or list field.
function control(f, id, described) {
  const common = { id, name: f.key, 'aria-describedby': described, 'aria-required': f.required ? 'true' : null };
  if (f.kind === 'select') {
    const held = typeof f.value === 'string' ? f.value : '';
    const el = h('select', common,
      h('option', { value: '', text: f.required ? 'Choose one' : 'No answer', selected: held === '' }),
      (f.options || []).map((o) => h('option', { value: o.value, text: o.title, selected: o.value === held })));
    const about = h('p', { class: 'opt-desc', 'aria-live': 'polite' });
    const describe = () => {
      const o = (f.options || []).find((x) => x.value === el.value);
      about.textContent = o && o.description ? o.description : '';
    };
    el.addEventListener('change', describe);
    describe();
    return { el, after: about };
  }
  const value = typeof f.value === 'string' ? f.value : f.value == null ? '' : String(f.value);
  if (f.kind === 'list' || (f.kind === 'string' && !f.format && value.includes('\n'))) {
    const el = h('textarea', Object.assign({ rows: 4, spellcheck: 'false' }, common));
    el.value = value;
    return { el };
  }
  const attrs = Object.assign({ type: 'text', autocomplete: 'off', value }, common);
  if (f.kind === 'number' || f.kind === 'integer') {
    const nonNegative = f.min !== undefined && Number(f.min) >= 0;
    attrs.inputmode = nonNegative ? (f.kind === 'integer' ? 'numeric' : 'decimal') : 'text';
  } else if (f.format === 'email') {
    Object.assign(attrs, { type: 'email', autocapitalize: 'off', spellcheck: 'false' });
  } else if (f.format === 'uri') {
    Object.assign(attrs, { type: 'url', autocapitalize: 'off', spellcheck: 'false' });
  } else if (f.format === 'date') {
    attrs.type = 'date';
  } else if (f.format === 'date-time') {
    Object.assign(attrs, { placeholder: '2026-05-01T09:30:00Z', autocapitalize: 'off', spellcheck: 'false' });
  }
  return { el: h('input', attrs) };
}
