const D = JSON.parse(document.getElementById('data').textContent);
const T = D.topics.length, K = D.depth;
const fmt = (x, d = 4) => x === null ? '–' : x.toFixed(d);
const esc = s => String(s).replace(/[&<>"]/g, c => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;'}[c]));
const delta = i => D.values[1][i] - D.values[0][i];
const decided = i => D.low[0][i] > D.high[1][i] || D.low[1][i] > D.high[0][i];
const KEYS = {
  delta: i => delta(i), absdelta: i => Math.abs(delta(i)), rbo: i => D.rbo[i],
  tau: i => D.tau[i] === null ? -2 : D.tau[i], topic: i => D.topics[i],
  a: i => D.values[0][i], b: i => D.values[1][i], decided: i => decided(i) ? 1 : 0
};
const ORDER = ['delta', 'absdelta', 'rbo', 'tau', 'topic'];
let sortKey = 'delta', desc = false, shown = [], cur = -1;
const maxAbs = D.values[0].reduce((m, a, i) => Math.max(m, Math.abs(D.values[1][i] - a)), 1e-12);

function order() {
  const q = document.getElementById('filter').value.trim().toLowerCase();
  let idx = [...Array(T).keys()];
  if (q) idx = idx.filter(i => D.topics[i].toLowerCase().includes(q) ||
                               (D.queries && (D.queries[i] || '').toLowerCase().includes(q)));
  const f = KEYS[sortKey];
  idx.sort((x, y) => { const a = f(x), b = f(y);
    const c = typeof a === 'string' ? a.localeCompare(b, undefined, {numeric: true}) : a - b;
    return (desc ? -c : c) || x - y; });
  return idx;
}

// The topics list draws only the rows in view (a fixed row height, spacers above and
// below), so that a page of 10,000 topics opens and filters at once.
const ROW = 25, PAD = 15;
let drawn = [-1, -1];

function row(i) {
  const d = delta(i), w = Math.round(32 * Math.abs(d) / maxAbs);
  const cls = d > 0 ? 'pos' : d < 0 ? 'neg' : '';
  const colour = d >= 0 ? 'var(--up)' : 'var(--down)';
  const query = D.queries ? (D.queries[i] || '') : '';
  return `<tr data-i="${i}" id="t${i}" class="${i === cur ? 'sel' : ''}">` +
    `<td title="${esc(query)}">${esc(D.topics[i])}</td>` +
    `<td class="n">${fmt(D.values[0][i])}</td><td class="n">${fmt(D.values[1][i])}</td>` +
    `<td class="n ${cls}">${d > 0 ? '+' : ''}${fmt(d)} ` +
    `<span class="bar" style="width:${w}px;background:${colour}"></span></td>` +
    `<td class="n">${fmt(D.rbo[i], 3)}</td><td class="n">${fmt(D.tau[i], 3)}</td>` +
    `<td class="dec">${decided(i) ? '✓' : '·'}</td></tr>`;
}

function drawRows(force) {
  const list = document.querySelector('.list');
  const first = Math.max(0, Math.floor(list.scrollTop / ROW) - PAD);
  const last = Math.min(shown.length, first + Math.ceil(list.clientHeight / ROW) + 2 * PAD);
  if (!force && first === drawn[0] && last === drawn[1]) return;
  drawn = [first, last];
  const cols = 7;
  const spacer = h => h ? `<tr class="spacer" style="height:${h}px"><td colspan="${cols}"></td></tr>` : '';
  document.getElementById('tbody').innerHTML = spacer(first * ROW) +
    shown.slice(first, last).map(row).join('') + spacer((shown.length - last) * ROW);
}

function drawList() {
  shown = order();
  for (const th of document.querySelectorAll('#topics th')) {
    const on = th.dataset.k === sortKey;
    th.setAttribute('aria-sort', on ? (desc ? 'descending' : 'ascending') : 'none');
  }
  document.getElementById('sort').value = sortKey + (desc ? ':d' : ':a');
  document.getElementById('count').textContent = `${shown.length} of ${T} topics`;
  drawRows(true);
  if (shown.length && !shown.includes(cur)) open(shown[0]);
  else if (cur >= 0) mark(cur);
}

function mark(i) {
  const list = document.querySelector('.list');
  const at = shown.indexOf(i), head = document.querySelector('#topics thead').offsetHeight;
  if (at >= 0) {
    const top = at * ROW, view = list.clientHeight - head;
    if (top < list.scrollTop) list.scrollTop = top;
    else if (top + ROW > list.scrollTop + view) list.scrollTop = top + ROW - view;
  }
  drawRows(false);
  for (const r of document.querySelectorAll('#tbody tr.sel')) r.classList.remove('sel');
  const tr = document.getElementById('t' + i);
  if (tr) tr.classList.add('sel');
}

function label(v) {
  if (v === null) return '<span class="lab lu" title="unjudged">?</span>';
  const c = v < 0 ? 'lneg' : v === 0 ? 'l0' : v === 1 ? 'l1' : v === 2 ? 'l2' : 'l3';
  return `<span class="lab ${c}">${v}</span>`;
}

function ranking(side, i) {
  const other = D.runs[1 - side], rows = [];
  const cmax = Math.max(1e-12, ...D.contrib[0].slice(i * K, i * K + K).map(Math.abs),
                        ...D.contrib[1].slice(i * K, i * K + K).map(Math.abs));
  for (let r = 0; r < K; r++) {
    const j = i * K + r, doc = D.docs[side][j];
    if (doc === null) break;
    const o = D.other[side][j];
    const mv = o === 0 ? `<span class="only" title="not retrieved by ${esc(other)}">only</span>`
      : o === r + 1 ? '<span class="mv">=</span>'
      : `<span class="mv" title="rank ${o} in ${esc(other)}">${o < r + 1 ? '▲' : '▼'} ${o}</span>`;
    const c = D.contrib[side][j], w = Math.round(30 * Math.abs(c) / cmax);
    const text = D.texts && D.texts[doc];
    rows.push(`<tr class="${text ? 'has-text' : ''}" data-doc="${esc(doc)}"><td class="n">${r + 1}</td>` +
      `<td class="doc" title="${esc(doc)}">${esc(doc)}</td><td>${label(D.labels[side][j])}</td>` +
      `<td class="n">${mv}</td><td class="n">${fmt(c)} <span class="bar" style="width:${w}px;background:${side ? 'var(--b)' : 'var(--a)'}"></span></td></tr>`);
  }
  if (!rows.length) rows.push('<tr><td colspan="5" class="empty">no documents</td></tr>');
  return `<div><h3><span class="${side ? 'rb' : 'ra'}">${esc(D.runs[side])}</span></h3>` +
    `<table class="rank"><colgroup><col class="r"><col><col class="l"><col class="m"><col class="c"></colgroup>` +
    `<thead><tr><th title="rank">#</th><th class="l">document</th><th class="l">label</th>` +
    `<th title="rank in ${esc(other)}">in ${esc(other.length > 14 ? (side ? 'A' : 'B') : other)}</th>` +
    `<th title="${esc(D.contribution)}">contrib.</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
}

function intervals(i) {
  const hi = Math.max(1e-12, D.high[0][i], D.high[1][i]), W = 440, x = v => 70 + (W - 130) * v / hi;
  const bar = (side, y) => {
    const lo = D.low[side][i], h = D.high[side][i], v = D.values[side][i];
    const col = side ? 'var(--b)' : 'var(--a)';
    return `<line x1="${x(lo)}" x2="${Math.max(x(h), x(lo) + 1)}" y1="${y}" y2="${y}" stroke="${col}" stroke-width="6" stroke-opacity="0.35"/>` +
      `<circle cx="${x(v)}" cy="${y}" r="4" fill="${col}"/>` +
      `<text x="0" y="${y + 4}">${side ? 'B' : 'A'} ${fmt(v, 3)}</text>` +
      `<text x="${Math.max(x(h), x(lo) + 1) + 8}" y="${y + 4}">${fmt(h, 3)}</text>`;
  };
  return `<svg class="iv" width="${W}" height="44" role="img" aria-label="intervals">${bar(0, 12)}${bar(1, 32)}</svg>`;
}

function open(i) {
  cur = i; mark(i);
  const d = delta(i), dec = decided(i);
  const q = D.queries && D.queries[i] ? `<p class="query">${esc(D.queries[i])}</p>` : '';
  document.getElementById('detail').innerHTML =
    `<h2>Topic ${esc(D.topics[i])}</h2>${q}` +
    `<div class="summary"><span><span class="ra">A</span> ${fmt(D.values[0][i])}</span>` +
    `<span><span class="rb">B</span> ${fmt(D.values[1][i])}</span>` +
    `<span>B − A <b class="${d > 0 ? 'pos' : d < 0 ? 'neg' : ''}">${d > 0 ? '+' : ''}${fmt(d)}</b></span>` +
    `<span>RBO ${fmt(D.rbo[i], 3)}</span><span>τ<sub>AP</sub> ${fmt(D.tau[i], 3)}</span></div>` +
    intervals(i) + `<br><span class="verdict ${dec ? 'yes' : 'no'}">` +
    (dec ? 'Decided by the judgements: the intervals do not overlap.'
         : 'Not decided by the judgements: the intervals overlap.') + '</span>' +
    `<div class="side">${ranking(0, i)}${ranking(1, i)}</div>`;
}

function move(step) {
  if (!shown.length) return;
  const at = shown.indexOf(cur);
  open(shown[Math.max(0, Math.min(shown.length - 1, (at < 0 ? 0 : at + step)))]);
}

document.getElementById('tbody').addEventListener('click', e => {
  const tr = e.target.closest('tr[data-i]'); if (tr) open(+tr.dataset.i);
});
document.querySelector('#topics thead').addEventListener('click', e => {
  const th = e.target.closest('th[data-k]'); if (!th) return;
  if (sortKey === th.dataset.k) desc = !desc; else { sortKey = th.dataset.k; desc = th.dataset.k !== 'topic'; }
  // report.html links a topic as diff.html#topic=ID: open it
const wanted = decodeURIComponent((location.hash.match(/^#topic=(.*)$/) || [])[1] || '');
if (wanted && D.topics.includes(wanted)) cur = D.topics.indexOf(wanted);
drawList();
if (cur >= 0) open(cur);
});
document.getElementById('sort').addEventListener('change', e => {
  [sortKey, desc] = [e.target.value.split(':')[0], e.target.value.endsWith(':d')]; // report.html links a topic as diff.html#topic=ID: open it
const wanted = decodeURIComponent((location.hash.match(/^#topic=(.*)$/) || [])[1] || '');
if (wanted && D.topics.includes(wanted)) cur = D.topics.indexOf(wanted);
drawList();
if (cur >= 0) open(cur);
});
document.getElementById('filter').addEventListener('input', drawList);
document.querySelector('.list').addEventListener('scroll', () => drawRows(false));
window.addEventListener('resize', () => drawRows(true));
document.getElementById('detail').addEventListener('click', e => {
  const tr = e.target.closest('tr.has-text'); if (!tr) return;
  const next = tr.nextElementSibling;
  if (next && next.classList.contains('text')) { next.remove(); return; }
  const row = document.createElement('tr'); row.className = 'text';
  row.innerHTML = `<td></td><td colspan="4">${esc(D.texts[tr.dataset.doc])}</td>`;
  tr.after(row);
});
document.addEventListener('keydown', e => {
  const f = document.getElementById('filter');
  if (document.activeElement === f) { if (e.key === 'Escape' || e.key === 'Enter') f.blur(); return; }
  if (e.key === '/') { e.preventDefault(); f.focus(); }
  else if (e.key === 'j' || e.key === 'ArrowDown') { e.preventDefault(); move(1); }
  else if (e.key === 'k' || e.key === 'ArrowUp') { e.preventDefault(); move(-1); }
  else if (e.key === 'Home') { e.preventDefault(); move(-T); }
  else if (e.key === 'End') { e.preventDefault(); move(T); }
  else if (e.key === 's') { sortKey = ORDER[(ORDER.indexOf(sortKey) + 1) % ORDER.length];
                            desc = sortKey !== 'topic'; drawList(); }
});
// report.html links a topic as diff.html#topic=ID: open it
const wanted = decodeURIComponent((location.hash.match(/^#topic=(.*)$/) || [])[1] || '');
if (wanted && D.topics.includes(wanted)) cur = D.topics.indexOf(wanted);
drawList();
if (cur >= 0) open(cur);
