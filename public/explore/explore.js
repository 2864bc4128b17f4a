// The rates explorer: a time series from /v1/timeseries drawn as an SVG chart with a table under
// it; where the server or the plan has no time series, the latest rates instead, and the page says
// so. It opens on the newest 30 days the server has for its currencies (the page carries each
// currency's newest figure day), and says so when a range has none. The key lives in localStorage
// (typed, or handed over as `#key=…` in the address) and is sent only to this page's own server.
'use strict';
const $ = (id) => document.getElementById(id);
const KEY_STORE = 'kurs-explorer-key';
const COLOURS = ['#0969da', '#cf222e', '#1a7f37', '#8250df', '#bc4c00', '#1b7c83', '#bf3989', '#6e7781'];
const DAY_MS = 86400000;

/** JSON with numbers kept as their exact text, so the table shows the server's own digits. */
function parseExact(text) {
  let out = '', from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') { for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++; }
    else if (c === '-' || (c >= '0' && c <= '9')) {
      const m = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i));
      if (!m) continue;
      out += text.slice(from, i) + '"' + m[0] + '"';
      i += m[0].length - 1;
      from = i + 1;
    }
  }
  return JSON.parse(out + text.slice(from));
}

const isoDay = (d) => d.toISOString().slice(0, 10);
const symbols = () => $('symbols').value.split(',').map((s) => s.trim().toUpperCase()).filter(Boolean);
const rangeDays = () => Math.round((Date.parse($('end').value) - Date.parse($('start').value)) / DAY_MS) + 1;
/** D16: 1 point per started RANGE_DAYS days of start..end; the server writes the number into the page
 *  from its one definition (src/http/charged.ts). */
const RANGE_DAYS = Number($('query').dataset.rangeDays);
const rangeCost = () => Math.ceil(rangeDays() / RANGE_DAYS);

function showCost() {
  const days = rangeDays();
  $('cost').textContent = !(days > 0)
    ? 'Pick a start day on or before the end day.'
    : `This query costs ${rangeCost()} point${rangeCost() === 1 ? '' : 's'} (${days} day${days === 1 ? '' : 's'}: 1 point per started ${RANGE_DAYS} days). If this server has no time series for your key, it shows the latest rates for 1 point instead.`;
}

function message(el, text) {
  el.textContent = text;
  el.hidden = !text;
}

/** Each currency's newest figure day on this server, from the page itself (no key needed). */
const NEWEST = Object.fromEntries($('query').dataset.newest.split(' ').filter(Boolean).map((pair) => pair.split('=')));
const newestOf = (codes) => codes.filter((c) => NEWEST[c]).map((c) => `${c} ${NEWEST[c]}`).join(', ');

/** The newest 30 days that the base and every chosen currency have figures for, up to today. */
function defaultRange() {
  const today = isoDay(new Date());
  const days = [$('base').value.trim().toUpperCase(), ...symbols()].map((c) => NEWEST[c]).filter(Boolean).sort();
  const end = days.length > 0 && days[0] < today ? days[0] : today;
  $('end').value = end;
  $('start').value = isoDay(new Date(Date.parse(end) - 29 * DAY_MS));
  message($('notice'), end < today ? `This server's figures for these currencies end on ${end}, so the range is the 30 days up to then.` : '');
  showCost();
}

async function call(path) {
  const res = await fetch(path, { headers: { Authorization: $('key').value.trim() } });
  const text = await res.text();
  let body;
  try {
    body = parseExact(text);
  } catch {
    // Not Kurs's envelope (a proxy's error page, say): the status speaks for itself.
    body = { error: `http_${res.status}`, message: `HTTP ${res.status} ${res.statusText}`.trim() };
  }
  return { ok: res.ok, status: res.status, body, remaining: res.headers.get('x-points-remaining'), cost: res.headers.get('x-points-cost') };
}

function svg(tag, attrs, text) {
  const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

/** Round axis values around lo..hi: a step of 1, 2 or 5 times a power of ten, about four of them,
 *  and the axis widened to whole steps, so every label is a round number (0.5%, not 0.37%). */
function niceTicks(lo, hi) {
  const raw = (hi - lo) / 4;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].find((m) => m * power >= raw) * power;
  const decimals = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
  const first = Math.floor(lo / step + 1e-9), last = Math.ceil(hi / step - 1e-9);
  const values = [];
  for (let i = first; i <= last; i++) values.push(Number((i * step).toFixed(decimals)));
  return { values, decimals };
}

/** Lines of each currency's change in percent since the first day, on one shared axis. */
function drawSeries(series, codes) {
  const chart = $('chart');
  chart.replaceChildren();
  const days = Object.keys(series).sort();
  const W = 1000, H = 360, L = 56, R = 12, T = 12, B = 28;
  const first = Object.fromEntries(codes.map((c) => [c, Number(days.map((d) => series[d][c]).find((v) => v !== undefined))]));
  const points = codes.map((c) => days.filter((d) => series[d][c] !== undefined).map((d) => [d, (Number(series[d][c]) / first[c] - 1) * 100]));
  const values = points.flat().map((p) => p[1]);
  let lo = Math.min(0, ...values), hi = Math.max(0, ...values);
  if (hi - lo < 0.5) { lo -= 0.25; hi += 0.25; }
  const ticks = niceTicks(lo, hi);
  lo = ticks.values[0];
  hi = ticks.values[ticks.values.length - 1];
  const x = (d) => L + (days.length === 1 ? (W - L - R) / 2 : (days.indexOf(d) / (days.length - 1)) * (W - L - R));
  const y = (v) => T + ((hi - v) / (hi - lo)) * (H - T - B);
  for (const v of ticks.values) {
    chart.append(svg('line', { x1: L, x2: W - R, y1: y(v), y2: y(v), stroke: '#e5e8eb' }), svg('text', { class: 'tick', x: L - 6, y: y(v) + 4, 'text-anchor': 'end' }, `${v.toFixed(ticks.decimals)}%`));
  }
  chart.append(svg('line', { x1: L, x2: W - R, y1: y(0), y2: y(0), stroke: '#8c959f' }));
  chart.append(svg('text', { x: L, y: H - 8 }, days[0]), svg('text', { x: W - R, y: H - 8, 'text-anchor': 'end' }, days[days.length - 1]));
  points.forEach((pts, i) => {
    if (pts.length === 0) return;
    chart.append(svg('polyline', { class: 'series', 'data-currency': codes[i], fill: 'none', stroke: COLOURS[i % COLOURS.length], 'stroke-width': 2, points: pts.map(([d, v]) => `${x(d).toFixed(1)},${y(v).toFixed(1)}`).join(' ') }));
  });
  $('chart-title').textContent = `Change since ${days[0]}, in percent, against ${$('base').value.toUpperCase()}`;
  legend(codes);
}

/** Without a series: one bar per currency, on a log scale so that JPY and GBP fit one chart. */
function drawLatest(rates, codes) {
  const chart = $('chart');
  chart.replaceChildren();
  const W = 1000, L = 56, gap = 12;
  const shown = codes.filter((c) => rates[c] !== undefined);
  const logs = shown.map((c) => Math.log10(Number(rates[c])));
  const lo = Math.min(0, ...logs) - 0.5, hi = Math.max(0, ...logs) + 0.5;
  const width = (W - L) / Math.max(shown.length, 1) - gap;
  const y = (v) => 12 + ((hi - v) / (hi - lo)) * 310;
  shown.forEach((c, i) => {
    const x0 = L + i * (width + gap);
    const top = Math.min(y(logs[i]), y(lo));
    chart.append(svg('rect', { class: 'bar', 'data-currency': c, x: x0, y: top, width, height: Math.max(2, y(lo) - top), fill: COLOURS[i % COLOURS.length] }));
    chart.append(svg('text', { x: x0 + width / 2, y: top - 4, 'text-anchor': 'middle' }, `${c} ${rates[c]}`));
  });
  $('chart-title').textContent = `Latest rates against ${$('base').value.toUpperCase()} (log scale)`;
  legend(shown);
}

function legend(codes) {
  $('legend').replaceChildren(...codes.map((c, i) => {
    const li = document.createElement('li');
    const swatch = document.createElement('i');
    swatch.style.background = COLOURS[i % COLOURS.length];
    li.append(swatch, c);
    return li;
  }));
  $('chart-box').hidden = false;
}

function table(head, rows, id = 'table') {
  const tr = (cells, tag) => {
    const row = document.createElement('tr');
    cells.forEach((text, i) => {
      const cell = document.createElement(tag);
      cell.textContent = text;
      if (i > 0) cell.className = 'num';
      row.append(cell);
    });
    return row;
  };
  $(id).tHead.replaceChildren(tr(head, 'th'));
  $(id).tBodies[0].replaceChildren(...rows.map((r) => tr(r, 'td')));
  $(id).hidden = false;
}

/** The sources this server uses (GET /v1/banks?format=full): cadence, period or not, terms, status. */
async function listSources() {
  localStorage.setItem(KEY_STORE, $('key').value.trim());
  message($('error'), '');
  try {
    const reply = await call('/v1/banks?format=full');
    if (!reply.ok) throw new Error(`${reply.body.error}: ${reply.body.message}`);
    const newest = (b) => (b.newest_valid_to ? `${b.newest_date} to ${b.newest_valid_to}` : b.newest_date ?? '–');
    table(['Code', 'Name', 'Cadence', 'Terms', 'Status', 'Newest'], reply.body.banks.map((b) => [b.bank_code, b.bank_name, b.period_rates ? `${b.cadence} period` : b.cadence, b.terms, b.status, newest(b)]), 'sources');
    message($('notice'), `${reply.body.banks.length} sources.${costText(reply)}`);
  } catch (err) {
    message($('error'), err instanceof Error ? err.message : String(err));
  }
}

/** What a range without figures says: which range, and where this server's figures end. */
function noRates(codes, cost) {
  const newest = newestOf([$('base').value.trim().toUpperCase(), ...codes]);
  return `No rates for ${codes.join(', ')} against ${$('base').value.trim().toUpperCase()} from ${$('start').value} to ${$('end').value}. ${newest ? `This server's newest figures: ${newest}.` : 'This server has no figures for these currencies.'}${cost}`;
}

const costText = (reply) => (reply.cost === null ? '' : ` Cost ${reply.cost} point${reply.cost === '1' ? '' : 's'}; ${reply.remaining} left.`);

async function run(event) {
  event.preventDefault();
  localStorage.setItem(KEY_STORE, $('key').value.trim());
  message($('notice'), '');
  message($('error'), '');
  $('chart-box').hidden = true;
  $('table').hidden = true;
  const base = encodeURIComponent($('base').value.trim().toUpperCase());
  const codes = symbols();
  try {
    const series = await call(`/v1/timeseries/${base}?start=${$('start').value}&end=${$('end').value}&symbols=${codes.join(',')}`);
    const rates = series.ok ? series.body.rates ?? {} : {};
    const days = Object.keys(rates).sort().reverse();
    if (series.ok && days.length > 0) {
      drawSeries(rates, codes);
      table(['Date', ...codes], days.map((d) => [d, ...codes.map((c) => rates[d][c] ?? '–')]));
      const without = codes.filter((c) => days.every((d) => rates[d][c] === undefined));
      message($('notice'), `${without.length > 0 ? `No figures for ${without.join(', ')} in this range. ` : ''}${costText(series).trim()}`);
      return;
    }
    // A range with no figures: an empty answer, or a 404 no_fresh_rate.
    if (series.ok || series.body.error === 'no_fresh_rate') {
      message($('notice'), noRates(codes, costText(series)));
      return;
    }
    // No time series here: not on this server yet (404) or not in this key's plan (403).
    if (series.body.error !== 'not_found' && series.body.error !== 'plan_forbidden') throw new Error(`${series.body.error}: ${series.body.message}`);
    const why = series.body.error === 'not_found' ? 'This server has no history yet' : 'Your plan does not include time series';
    const latest = await call(`/v1/${base}/latest`);
    if (!latest.ok) throw new Error(`${latest.body.error}: ${latest.body.message}`);
    drawLatest(latest.body.rates, codes);
    table(['Currency', `Rate (per 1 ${decodeURIComponent(base)})`], codes.map((c) => [c, latest.body.rates[c] ?? 'not quoted']));
    message($('notice'), `${why}: showing the latest rates instead. Cost ${latest.cost} point; ${latest.remaining} left.`);
  } catch (err) {
    message($('error'), err instanceof Error ? err.message : String(err));
  }
}

/** A key handed over in the page address (`/explore#key=kurs_…`, as the first start prints it): a
 *  fragment never reaches a server; it is kept like a typed key and taken out of the address bar,
 *  so it does not stay in the history or on the screen. */
function keyFromAddress() {
  const key = new URLSearchParams(location.hash.slice(1)).get('key');
  if (!key) return;
  localStorage.setItem(KEY_STORE, key.trim());
  history.replaceState(null, '', location.pathname + location.search);
}

// The range follows the currencies until the reader picks days of their own.
let picked = false;
keyFromAddress();
$('key').value = localStorage.getItem(KEY_STORE) ?? '';
for (const id of ['start', 'end']) $(id).addEventListener('input', () => ((picked = true), showCost()));
for (const id of ['base', 'symbols']) $(id).addEventListener('change', () => picked || defaultRange());
$('query').addEventListener('submit', run);
$('list-sources').addEventListener('click', listSources);
defaultRange();
