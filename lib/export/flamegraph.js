// flamegraph.js — draws the pmukit flame graph from the JSON in #pk-data (embedded by
// lib/export/embed.awk). Click a frame to zoom to it, click an ancestor (or Reset, or Esc)
// to zoom out; the search box takes a regular expression, highlights the matching frames
// and shows the share of samples under them; hovering shows counts and percentages.
// Clicking a frame also opens its function's annotation (#pk-ann, written through the
// annotate library: instructions and source lines with their percents of the function's
// period), or says why the page holds none for it; Close (or Esc) closes it.
// The URL hash "#zoom=ID&search=TEXT&annotate=ID" is applied on load and when it changes,
// and kept up to date; body[data-zoom], body[data-matched] and body[data-annotate] say what
// is shown.
(function () {
	'use strict';
	var D = JSON.parse(document.getElementById('pk-data').textContent);
	var N = D.name.length, FH = 17;
	var parent = new Int32Array(N), end = new Int32Array(N);
	var path = [];	// frames are in preorder: a frame's subtree is [i, end[i])
	for (var i = 0; i < N; i++) {
		var d = D.depth[i];
		while (path.length > d)
			end[path.pop()] = i;
		parent[i] = path.length ? path[path.length - 1] : -1;
		path.push(i);
	}
	while (path.length)
		end[path.pop()] = N;

	var graph = document.getElementById('graph'), tip = document.getElementById('tip');
	var details = document.getElementById('details'), matchedEl = document.getElementById('matched');
	var searchEl = document.getElementById('search');
	var total = N ? D.total[0] : 0, zoom = 0, query = '', matches = null;

	function label(i) { return D.names[D.name[i]]; }

	function num(n) {	// 1234567 -> "1,234,567", the same in every locale
		var s = String(n), out = '';
		while (s.length > 3) {
			out = ',' + s.slice(-3) + out;
			s = s.slice(0, -3);
		}
		return s + out;
	}

	function pct(v, of) { return (of ? 100 * v / of : 0).toFixed(2) + '%'; }

	function hash(s) {
		var h = 2166136261;
		for (var k = 0; k < s.length; k++)
			h = Math.imul(h ^ s.charCodeAt(k), 16777619) >>> 0;
		return h;
	}

	// user: red-orange, kernel: orange-yellow, JIT: green, inlined: aqua, processes: grey
	function colour(i) {
		var h = hash(label(i)), a = h % 20, b = (h >>> 8) % 20;
		switch (D.kind[i]) {
		case 1: return 'hsl(' + (32 + a) + ',85%,' + (55 + b / 2) + '%)';
		case 2: return 'hsl(' + (95 + 2 * a) + ',55%,' + (50 + b / 2) + '%)';
		case 3: return 'hsl(' + (180 + a / 2) + ',60%,' + (60 + b / 2) + '%)';
		case 4: return 'hsl(220,10%,' + (72 + b / 2) + '%)';
		default: return 'hsl(' + (2 + a) + ',80%,' + (58 + b / 2) + '%)';
		}
	}

	function box(i, left, width, ancestor, top) {
		var e = document.createElement('div');
		e.className = 'f' + (ancestor ? ' anc' : '') + (matches && matches[i] ? ' match' : '');
		e.setAttribute('data-id', i);
		e.style.left = left + '%';
		e.style.width = width + '%';
		e.style.top = (D.inverted ? D.depth[i] : top - D.depth[i]) * FH + 'px';
		e.style.background = colour(i);
		e.textContent = label(i);
		return e;
	}

	// The zoomed frame, its ancestors, and its descendants at least half a pixel wide; the
	// graph is as tall as the deepest of those (a hairline tower does not stretch it).
	function render() {
		var z = zoom, zx = D.x[z], zw = D.total[z] || 1, drawn = [], top = 0;
		var minFrac = 0.5 / (graph.clientWidth || 1200);
		for (var i = z; i < end[z];) {
			if (D.total[i] / zw < minFrac) {
				i = end[i];
				continue;
			}
			drawn.push(i);
			if (D.depth[i] > top)
				top = D.depth[i];
			i++;
		}
		var frag = document.createDocumentFragment();
		for (var a = parent[z]; a >= 0; a = parent[a])
			frag.appendChild(box(a, 0, 100, true, top));
		for (var k = 0; k < drawn.length; k++) {
			var j = drawn[k];
			frag.appendChild(box(j, (D.x[j] - zx) / zw * 100, D.total[j] / zw * 100, false, top));
		}
		graph.textContent = '';
		graph.style.height = (top + 1) * FH + 'px';
		graph.appendChild(frag);
		document.body.setAttribute('data-zoom', String(z));
		details.textContent = label(z) + ': ' + num(D.total[z]) + ' ' + D.unit + ' (' +
			pct(D.total[z], total) + ')' + (D.event ? ' of ' + D.event : '');
	}

	function setSearch(text) {
		query = text;
		matches = null;
		var sum = 0;
		if (text) {
			var re;
			try {
				re = new RegExp(text);
			} catch (e) {
				re = new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
			}
			matches = new Uint8Array(N);
			for (var i = 1; i < N; i++)
				matches[i] = re.test(label(i)) ? 1 : 0;
			for (var j = 1; j < N;) {	// a match's matching descendants count once
				if (matches[j]) {
					sum += D.total[j];
					j = end[j];
				} else {
					j++;
				}
			}
		}
		var share = text ? pct(sum, total) : '';
		matchedEl.textContent = text ? 'Matched: ' + share : '';
		document.body.setAttribute('data-matched', share);
	}

	// ---- annotations ----
	var annEl = document.getElementById('ann'), annTitle = document.getElementById('ann-title');
	var annNote = document.getElementById('ann-note'), annBody = document.getElementById('ann-body');
	var A = null, annId = -1;

	function annData() {	// parsed on first use
		if (!A) {
			var el = document.getElementById('pk-ann');
			try {
				A = JSON.parse(el.textContent);
			} catch (e) {
				A = { max: 0, cap: 0, bytes: 0, nr: 0, why: [], fn: [] };
			}
		}
		return A;
	}

	function kib(n) { return (n / 1024).toFixed(1) + ' KiB'; }

	function row(cls, p, addr, text) {
		var tr = document.createElement('tr'), cells = [['p', p ? p.toFixed(2) : ''], ['a', addr], ['t', text]];
		tr.className = cls;
		for (var c = 0; c < 3; c++) {
			var td = document.createElement('td');
			td.className = cells[c][0];
			td.textContent = cells[c][1];
			tr.appendChild(td);
		}
		if (p >= 0.5)
			tr.style.background = 'hsla(4,90%,60%,' + Math.min(0.12 + p / 80, 0.85).toFixed(2) + ')';
		return tr;
	}

	// The function's rows: instructions [percent, address, text], source and other text lines
	// as strings, or [percent, text] for the line the instructions below it came from.
	function annTable(f) {
		var table = document.createElement('table'), hot = -1, hotRow = null, started = false;
		for (var r = 0; r < f.rows.length; r++) {
			var x = f.rows[r], tr;
			if (typeof x === 'string') {
				if (!started && !x)
					continue;	// objdump's blank lines before the section header
				tr = row('s', 0, '', x);
			} else if (x.length === 2) {
				tr = row('s', x[0], '', x[1]);
			} else {
				tr = row('i', x[0], x[1] + ':', x[2]);
				if (x[0] > hot) {
					hot = x[0];
					hotRow = tr;
				}
			}
			started = true;
			table.appendChild(tr);
		}
		if (hotRow)
			hotRow.className = 'i top';
		annEl.setAttribute('data-hottest', hot >= 0 ? hot.toFixed(2) : '');
		return { table: table, hot: hotRow };
	}

	function openAnn(i) {
		var a = annData(), v = D.ann ? D.ann[i] : -1, f = v >= 0 ? a.fn[v] : null;
		annId = i;
		annBody.textContent = '';
		annEl.setAttribute('data-symbol', f ? f.sym : label(i));
		annEl.setAttribute('data-annotated', f ? 'yes' : 'no');
		annEl.removeAttribute('data-hottest');
		var bounds = 'The page embeds the annotations of the ' + a.max + ' hottest functions by self ' +
			'samples, at most ' + kib(a.cap) + ' of them (here ' + a.nr + ', ' + kib(a.bytes) +
			'): pmukit flamegraph --annotate N --annotate-size KIB.';
		if (f) {
			annTitle.textContent = f.sym + '  ' + f.dso;
			annNote.textContent = num(f.samples) + ' samples of its own, ' + f.share.toFixed(2) + '% of ' +
				(a.event || 'the event') + "'s period. Percents: of the function's period, as pmukit " +
				'annotate --stdio prints them; on a source line, the sum of the instructions under it.\n' +
				bounds;
			var t = annTable(f);
			annBody.appendChild(t.table);
			annEl.hidden = false;
			if (t.hot)	// the hottest instruction a third of the way down the panel
				annBody.scrollTop += t.hot.getBoundingClientRect().top -
					annBody.getBoundingClientRect().top - annBody.clientHeight / 3;
		} else {
			annTitle.textContent = label(i);
			var why = v < 0 && a.why[-v - 1] ? a.why[-v - 1] : 'no annotation in this page';
			annNote.textContent = 'No annotation: ' + why + (v === -5 || v === -6 ? '\n' + bounds : '');
		}
		annEl.hidden = false;
		document.body.classList.add('ann-open');
		document.body.setAttribute('data-annotate', String(i));
	}

	function closeAnn() {
		annId = -1;
		annEl.hidden = true;
		annBody.textContent = '';
		document.body.classList.remove('ann-open');
		document.body.removeAttribute('data-annotate');
	}

	function keepHash() {
		var parts = [];
		if (zoom)
			parts.push('zoom=' + zoom);
		if (query)
			parts.push('search=' + encodeURIComponent(query));
		if (annId >= 0)
			parts.push('annotate=' + annId);
		var h = parts.length ? '#' + parts.join('&') : ' ';
		if (h !== location.hash && !(h === ' ' && !location.hash))
			history.replaceState(null, '', h === ' ' ? location.pathname + location.search : h);
	}

	function applyHash() {
		var z = 0, s = '', an = -1;
		location.hash.slice(1).split('&').forEach(function (kv) {
			var k = kv.indexOf('=');
			if (k < 0)
				return;
			var key = kv.slice(0, k), val = decodeURIComponent(kv.slice(k + 1));
			if (key === 'zoom' && /^[0-9]+$/.test(val) && +val < N)
				z = +val;
			else if (key === 'search')
				s = val;
			else if (key === 'annotate' && /^[0-9]+$/.test(val) && +val < N)
				an = +val;
		});
		zoom = z;
		searchEl.value = s;
		setSearch(s);
		render();
		if (an >= 0)
			openAnn(an);
		else
			closeAnn();
	}

	function frameOf(ev) {
		var e = ev.target;
		return e && e.classList && e.classList.contains('f') ? +e.getAttribute('data-id') : -1;
	}

	graph.addEventListener('click', function (ev) {
		var i = frameOf(ev);
		if (i < 0)
			return;
		zoom = i;
		render();
		if (D.kind[i] !== 4)	// a function (not the whole profile, a process): its annotation
			openAnn(i);
		keepHash();
	});
	graph.addEventListener('mousemove', function (ev) {
		var i = frameOf(ev);
		if (i < 0) {
			tip.hidden = true;
			return;
		}
		var zt = D.total[zoom];
		tip.textContent = label(i) + '\n' + num(D.total[i]) + ' ' + D.unit + ' (' + pct(D.total[i], total) +
			(zoom ? ', ' + pct(D.total[i], zt) + ' of the zoomed frame' : '') + ')\nself: ' +
			num(D.self[i]) + ' ' + D.unit + ' (' + pct(D.self[i], total) + ')' +
			(D.kind[i] !== 4 ? '\nclick: zoom, and show its annotation' : '');
		tip.hidden = false;
		var x = ev.clientX + 14, y = ev.clientY + 14;
		if (x + tip.offsetWidth > window.innerWidth)
			x = Math.max(0, ev.clientX - tip.offsetWidth - 8);
		if (y + tip.offsetHeight > window.innerHeight)
			y = Math.max(0, ev.clientY - tip.offsetHeight - 8);
		tip.style.left = x + 'px';
		tip.style.top = y + 'px';
	});
	graph.addEventListener('mouseleave', function () { tip.hidden = true; });
	document.getElementById('reset').addEventListener('click', function () {
		zoom = 0;
		render();
		keepHash();
	});
	searchEl.addEventListener('input', function () {
		setSearch(searchEl.value);
		render();
		keepHash();
	});
	document.getElementById('ann-close').addEventListener('click', function () {
		closeAnn();
		keepHash();
	});
	document.addEventListener('keydown', function (ev) {
		if (ev.key === 'Escape' && annId >= 0) {
			closeAnn();
			keepHash();
		} else if (ev.key === 'Escape' && zoom) {
			zoom = 0;
			render();
			keepHash();
		} else if ((ev.ctrlKey || ev.metaKey) && ev.key === 'f') {
			ev.preventDefault();
			searchEl.focus();
		}
	});
	window.addEventListener('hashchange', applyHash);
	window.addEventListener('resize', render);
	applyHash();
})();
