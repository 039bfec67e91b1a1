// A link to consent to, and a permission. A link is shown whole, its
// site marked, with every warning elicit found; consenting tells the
// agent yes, and only then does the page offer the link, for this
// phone's own browser to open. A permission shows its full command or
// diff; it is answered here only when elicit was started with
// --web-permissions.
import { h, confirmBar, finish } from './dom.js';

const severities = { high: 'Danger', medium: 'Warning', low: 'Note', info: 'Note' };

export function renderURL(q, ctx) {
  const u = q.url;
  const warnings = u.warnings || [];
  const high = warnings.some((w) => w.severity === 'high');
  const actions = h('div', { class: 'actions' });
  const decline = h('button', {
    type: 'button', text: 'Decline',
    onclick: () => confirmBar(actions, 'Decline this link? The agent is told no.', 'Decline', () => finish(ctx, { action: 'decline' }, 'You declined the link.')),
  });
  const cancel = h('button', {
    type: 'button', text: 'Cancel',
    onclick: () => confirmBar(actions, 'Cancel? Nobody answers the agent.', 'Cancel the link', () => finish(ctx, { action: 'cancel' }, 'You cancelled the link.')),
  });
  const consent = async () => {
    const r = await ctx.send({ action: 'accept' });
    if (!r || !r.ok) return;
    ctx.done('You consented to open ' + u.domain + '. Open it in this phone\'s browser:',
      h('p', {}, h('a', { class: 'open', href: r.url, target: '_blank', rel: 'noopener noreferrer', text: 'Open ' + u.domain })));
  };
  if (u.openable) {
    actions.append(h('button', {
      type: 'button', class: 'primary', text: 'Consent and open',
      onclick: () => (high ? confirmBar(actions, 'This link has serious warnings. Consent anyway?', 'Consent anyway', consent) : consent()),
    }));
  }
  actions.append(decline, cancel);
  return h('section', { class: 'answer link' },
    h('h3', { text: 'The full link' }),
    h('p', { class: 'url' }, h('span', { text: u.before }), h('mark', { text: u.site }), h('span', { text: u.after })),
    h('p', {}, 'It goes to ', h('strong', { class: 'domain', text: u.domain }), '.'),
    u.hostUnicode ? h('p', { class: 'notice', text: 'Its host reads ' + u.hostUnicode + ', but its real name is ' + u.hostAscii + '.' }) : null,
    u.input ? h('p', { text: 'As the agent wrote it: ' + u.input }) : null,
    warnings.length ? h('ul', { class: 'warnings', 'aria-label': 'Warnings' }, warnings.map((w) => h('li', { class: 'warn-' + w.severity, 'data-code': w.code },
      h('strong', { text: (severities[w.severity] || 'Note') + ': ' }), w.message))) : null,
    u.openable ? null : h('p', { class: 'notice', text: 'This link cannot be opened: only http and https links open.' }),
    actions);
}

export function renderPermission(q, ctx) {
  const p = q.permission;
  const body = [h('h3', { text: 'What the agent wants to do' }), h('pre', { class: 'command', tabindex: 0, text: q.message })];
  if (!p.answerable) {
    body.push(h('p', { class: 'notice', role: 'note', text: 'Answer this permission at a terminal: this page was started without --web-permissions, so it shows permissions but does not answer them.' }));
    return h('section', { class: 'answer permission' }, body);
  }
  body.push(h('div', { class: 'actions options', role: 'group', 'aria-label': 'The agent\'s options' },
    (p.options || []).map((o) => h('button', {
      type: 'button', 'data-option': o.value,
      onclick: () => finish(ctx, { action: 'accept', option: o.value }, 'You chose: ' + o.title + '.'),
    }, h('span', { text: o.title }), o.description ? h('small', { text: o.description }) : null))));
  return h('section', { class: 'answer permission' }, body);
}

