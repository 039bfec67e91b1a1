// The page's two tools: h builds elements from data, and api talks to
// elicit. Every string h is given becomes a text node or an attribute's
// value, never HTML: an agent's text can only be text. (The page's
// Content-Security-Policy also refuses to turn any string into HTML.)

// h makes a tag with props (text: its text; onX: a listener for X;
// class; true: an empty attribute; false, null, undefined: none) and
// children (elements, strings, arrays of them; null is skipped).
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'text') el.textContent = String(v);
    else if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false || c === '') continue;
    el.append(typeof c === 'string' ? document.createTextNode(c) : c);
  }
  return el;
}

// api fetches path from elicit (a POST of body, when given) and returns
// {status, ok, data}; a network failure is status 0.
export async function api(path, body) {
  const opts = { credentials: 'same-origin', cache: 'no-store', headers: {} };
  if (body !== undefined) {
    opts.method = 'POST';
    opts.headers['Content-Type'] = 'application/json';
    opts.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, opts);
  } catch (e) {
    return { status: 0, ok: false, data: { message: 'elicit cannot be reached: ' + e.message } };
  }
  let data = {};
  try {
    data = await res.json();
  } catch (e) {
    data = { message: 'elicit answered ' + res.status };
  }
  return { status: res.status, ok: res.ok, data };
}

// confirmBar asks before an action that loses something: a question, the
// button that does it, and Back. It replaces bar's contents until
// answered.
export function confirmBar(bar, question, label, action) {
  const saved = [...bar.childNodes];
  const back = () => { bar.replaceChildren(...saved); saved[0] && saved[0].focus && saved[0].focus(); };
  const yes = h('button', { type: 'button', class: 'danger', text: label, onclick: action });
  bar.replaceChildren(h('p', { class: 'confirm', role: 'alert', text: question }), yes,
    h('button', { type: 'button', text: 'Back', onclick: back }));
  yes.focus();
}

// finish sends an answer that ends the question, and says so once elicit
// took it.
export async function finish(ctx, body, text) {
  const r = await ctx.send(body);
  if (r && r.ok) ctx.done(text);
}
