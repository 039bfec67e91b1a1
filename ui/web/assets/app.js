// The web inbox: pairs this browser (a one-time link's token, from the
// address's fragment), follows the inbox over the live channel, lists the
// questions and opens one. Each question has one kind of answer: a form,
// a link to consent to, or a permission.
import { h, api } from './dom.js';
import { renderForm } from './form.js';
import { renderURL, renderPermission } from './question.js';

const main = document.getElementById('main');
const status = document.getElementById('status');
const state = {
  items: [], gone: {}, permissions: false,
  mode: 'list', open: null, // the question on screen, in mode 'question'
  sending: null, // the question whose answer is on its way: its leaving the list is that answer's doing, until elicit says
  socket: null, retry: 0,
};

function say(text) { status.textContent = text; }

function setMode(mode) {
  state.mode = mode;
  main.dataset.state = mode;
}

async function start() {
  const m = /^#pair=([A-Za-z0-9_-]{1,64})$/.exec(location.hash);
  if (location.hash) history.replaceState(null, '', location.pathname); // the token leaves the address bar and history
  if (m) {
    say('Pairing…');
    const r = await api('/api/pair', { token: m[1] });
    if (!r.ok) return unpaired(r.data.message || 'Pairing failed.');
    say('Paired as ' + r.data.device + '.');
  }
  const me = await api('/api/me');
  if (!me.ok) return unpaired(me.data.message || 'This browser is not paired.');
  state.permissions = me.data.permissions;
  connect();
}

function unpaired(message) {
  setMode('unpaired');
  say('Not paired');
  main.replaceChildren(
    h('h2', { tabindex: -1, text: 'Not paired' }),
    h('p', { class: 'notice', text: message }),
    h('p', { text: 'On the computer that runs your agents, run elicit inbox pair, then scan its code or open the link it prints in this browser. A link works once, for five minutes.' }));
  main.querySelector('h2').focus();
}

function connect() {
  const ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/api/live');
  state.socket = ws;
  ws.onopen = () => { state.retry = 0; document.body.dataset.live = 'yes'; say('Live: new questions appear as they are asked.'); };
  ws.onmessage = (ev) => {
    let msg;
    try { msg = JSON.parse(ev.data); } catch (e) { return; }
    if (msg.type === 'list') onList(msg);
  };
  ws.onclose = () => {
    if (state.socket !== ws) return;
    state.socket = null;
    document.body.dataset.live = 'no';
    const wait = Math.min(30000, 1000 * 2 ** state.retry++);
    say('Connection lost: trying again in ' + Math.round(wait / 1000) + ' s.');
    setTimeout(reconnect, wait);
  };
}

async function reconnect() {
  if (state.socket) return;
  const me = await api('/api/me');
  if (me.status === 401) return unpaired(me.data.message);
  connect();
}

document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible' && !state.socket && state.mode !== 'unpaired') reconnect();
});

function onList(msg) {
  state.items = msg.items || [];
  state.gone = msg.gone || {};
  state.permissions = msg.permissions;
  if (state.mode === 'list') renderList();
  if (state.mode === 'question' && state.sending !== state.open && !state.items.some((i) => i.id === state.open)) {
    gone(state.gone[state.open] ? 'Answered elsewhere (' + state.gone[state.open] + ').' : 'No longer waiting: answered elsewhere, or withdrawn by the agent.');
  }
}

const kindNames = { form: 'Form', choice: 'Choice', url: 'Link', permission: 'Permission' };

function renderList() {
  setMode('list');
  const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.id : null;
  const n = state.items.length;
  const title = h('h2', { id: 'list-title', tabindex: -1, text: n === 0 ? 'No question is waiting' : n === 1 ? '1 question waiting' : n + ' questions waiting' });
  const list = n === 0
    ? h('p', { class: 'quiet', text: 'Questions your agents ask appear here as they are asked.' })
    : h('ul', { class: 'items', 'aria-labelledby': 'list-title' }, state.items.map((it) => h('li', {},
      h('button', { type: 'button', class: 'item', 'data-id': it.id, onclick: () => openQuestion(it.id) },
        h('span', { class: 'kind kind-' + it.kind, text: kindNames[it.kind] || it.kind }),
        h('span', { class: 'agent', text: it.agent || 'an agent' }),
        h('span', { class: 'summary', text: it.kind === 'permission' && it.tool ? it.tool : it.summary }),
        h('span', { class: 'meta', text: [shortDir(it.cwd), 'asked ' + timeOf(it.since)].filter(Boolean).join(' · ') })))));
  main.replaceChildren(title, list);
  const again = focused && main.querySelector('[data-id="' + CSS.escape(focused) + '"]');
  if (again) again.focus();
}

function shortDir(dir) {
  if (!dir) return '';
  const parts = dir.split('/').filter(Boolean);
  return parts.length > 3 ? '…/' + parts.slice(-3).join('/') : dir;
}

function timeOf(iso) {
  const d = new Date(iso);
  if (isNaN(d)) return '';
  const same = d.toDateString() === new Date().toDateString();
  return same ? d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }) : d.toLocaleString();
}

async function openQuestion(id) {
  setMode('question');
  state.open = id;
  say('Opening…');
  const r = await api('/api/question?id=' + encodeURIComponent(id));
  if (state.open !== id) return;
  if (!r.ok) {
    main.replaceChildren(backButton());
    return gone(r.data.message || 'This question cannot be opened.');
  }
  const q = r.data;
  const ctx = { send: (body) => send(q, body), done: (text, extra) => done(text, extra) };
  let body;
  if (q.permission) body = renderPermission(q, ctx);
  else if (q.url) body = renderURL(q, ctx);
  else if (q.form) body = renderForm(q, ctx);
  main.replaceChildren(...[backButton(), header(q), (q.notes || []).map((n) => h('p', { class: 'notice', text: n })), body].flat().filter(Boolean));
  say('');
  main.querySelector('#q-title').focus();
}

function backButton() {
  return h('button', { type: 'button', class: 'back', text: '← All questions', onclick: () => { state.open = null; renderList(); main.querySelector('#list-title').focus(); } });
}

function header(q) {
  const title = q.permission ? 'Permission: ' + (q.tool || 'a tool call')
    : q.url ? (q.agent || 'An agent') + ' asks you to open a link'
      : (q.agent || 'An agent') + ' asks';
  const facts = [['Agent', q.agent], ['Directory', q.cwd], ['Session', q.title !== q.agent ? q.title : ''], ['Asked', timeOf(q.since)]];
  return [
    h('h2', { id: 'q-title', tabindex: -1, text: title }),
    h('dl', { class: 'facts' }, facts.filter(([, v]) => v).map(([k, v]) => [h('dt', { text: k }), h('dd', { class: 'fact-' + k.toLowerCase(), text: v })])),
    q.permission || !q.message ? null : h('p', { class: 'message', text: q.message }),
  ];
}

// send posts an answer to the open question; it reports what happened
// and returns elicit's reply (null once the question is gone).
async function send(q, body) {
  say('Sending…');
  if (!body.review) state.sending = q.id;
  const r = await api('/api/answer', Object.assign({ id: q.id }, body));
  state.sending = null;
  if (state.open !== q.id) return null;
  if (r.data.gone) { gone(r.data.message); return null; }
  say(r.ok && r.data.ok ? '' : r.data.message || 'Not sent.');
  if (!r.data.ok && !body.review && !state.items.some((i) => i.id === q.id)) {
    gone('No longer waiting: answered elsewhere, or withdrawn by the agent.');
    return null;
  }
  return r.data;
}

// done says the answer went, with what else there is to do (a link to
// open), and leaves the question.
function done(text, extra) {
  setMode('done');
  state.open = null;
  const back = backButton();
  main.replaceChildren(h('section', { class: 'banner ok', role: 'alert' }, h('h2', { tabindex: -1, text: 'Sent' }), h('p', { text }), extra || null), back);
  main.querySelector('h2').focus();
}

// gone says the question no longer waits, and keeps what was typed in
// view (read-only).
function gone(text) {
  setMode('gone');
  state.open = null;
  for (const el of main.querySelectorAll('input, select, textarea, button')) el.disabled = true;
  const back = backButton();
  const title = /^Answered elsewhere/.test(text) ? 'Answered elsewhere' : 'No longer waiting';
  const banner = h('section', { class: 'banner gone', role: 'alert' }, h('h2', { tabindex: -1, text: title }), h('p', { text }), back);
  main.prepend(banner);
  banner.querySelector('h2').focus();
}

start();
