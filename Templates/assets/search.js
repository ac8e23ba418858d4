/* Scrollback search: the client of the static index in search/ (written by the build,
   Sources/ScrollbackSearch). No dependency, nothing from another host, log text only ever
   inserted with textContent. The tokenizer has no rule of its own: it applies the rules the
   manifest carries (SearchTokenizer.manifestRules in Swift). */
(function () {
  'use strict';
  var box = document.getElementById('sx');
  var script = document.currentScript;
  if (!box || !script) return;
  var root = new URL('../', script.src);
  var $ = function (id) { return document.getElementById(id); };
  var input = $('sx-q'), status = $('sx-status'), list = $('sx-results'), next = $('sx-next');
  var order = $('sx-order'), inSel = $('sx-in'), fromSel = $('sx-from'), afterIn = $('sx-after'), beforeIn = $('sx-before');
  var scope = $('sx-scope'), opener = $('sx-o');
  box.hidden = false;

  // On a phone the box is an icon (search.css) that opens it over the header, so the page's
  // first screen is the conversation.
  function setOpen(open) {
    box.classList.toggle('open', open);
    opener.setAttribute('aria-expanded', String(open));
  }
  opener.addEventListener('click', function () {
    var open = !box.classList.contains('open');
    setOpen(open);
    if (open) input.focus(); else opener.focus();
  });

  // A permalink to a message in the middle of a group (a search result, usually) lands with the
  // group's first message, whose header names the sender, when it is near enough to show too.
  function aim() {
    var id = location.hash.slice(1), target = null;
    try { target = id && document.getElementById(decodeURIComponent(id)); } catch (e) { return; }
    if (!target || !target.hasAttribute('data-message-id')) return;
    var first = target;
    while (/^(middle|last)$/.test(first.getAttribute('data-group-position') || '')) {
      var before = first.previousElementSibling;
      if (!before || !before.hasAttribute('data-message-id')) break;
      first = before;
    }
    if (first === target || !first.querySelector('[data-part=header]')) return;
    var gap = target.getBoundingClientRect().top - first.getBoundingClientRect().top;
    if (gap > 0 && gap < window.innerHeight / 2) first.scrollIntoView({ block: 'start' });
  }
  window.addEventListener('load', function () { requestAnimationFrame(aim); });
  window.addEventListener('hashchange', aim);

  if (location.protocol === 'file:') {
    // Nothing is fetched from file://. The index's box still filters its cards (index-filter.js);
    // elsewhere the field is off. The reason is said once (per browser), in a line.
    var index = document.querySelector('.convs') !== null;
    box.classList.add('offline');
    if (index) {
      input.placeholder = 'Filter conversations';
      box.querySelector('label[for=sx-q]').textContent = 'Filter conversations';
    } else {
      input.disabled = true;
      input.placeholder = 'Search needs a server';
    }
    var told = false;
    try { told = localStorage.getItem('scrollback-search-offline') === '1'; localStorage.setItem('scrollback-search-offline', '1'); } catch (e) {}
    if (!told) status.textContent = 'Searching messages needs the site served (scrollback serve, or any web host).';
    return;
  }

  // The conversation this page belongs to (`<id>/…` under the site root), for "This conversation".
  var here = null, path = location.href.split(/[?#]/)[0];
  if (path.indexOf(root.href) === 0) {
    var rest = path.slice(root.href.length), slash = rest.indexOf('/');
    if (slash > 0) { try { here = decodeURIComponent(rest.slice(0, slash)); } catch (e) {} }
  }
  if (here !== null) scope.hidden = false;

  var manifest = null, manifestPromise = null, rules = null, chunkStarts = null;
  var shards = new Map(), chunks = new Map(), days = null;

  function fetchJSON(path) {
    return fetch(new URL(path, root)).then(function (r) {
      if (!r.ok) throw new Error(path + ': ' + r.status);
      return r.json();
    });
  }
  function loadManifest() {
    if (!manifestPromise) {
      manifestPromise = fetchJSON('search/manifest.json').then(function (m) {
        if (m.format !== 4) throw new Error('unknown index format');
        manifest = m;
        chunkStarts = [];
        m.chunks.reduce(function (start, count) { chunkStarts.push(start); return start + count; }, 0);
        var r = m.rules;
        rules = {
          drop: new RegExp(r.drop, 'gu'), word: new RegExp('[' + r.word + ']', 'u'),
          emoji: new RegExp(r.emoji, 'u'), emojiSkip: new RegExp(r.emojiSkip, 'u'),
          emojiMin: r.emojiMinCodePoint, cjk: r.cjk, fold: new Map(r.fold), max: r.maxTokenLength, nf: r.normalize
        };
        m.conversations.forEach(function (c, i) { inSel.add(new Option(c[1], String(i))); });
        m.senders.forEach(function (s, i) { fromSel.add(new Option(s[0], String(i))); });
        return m;
      });
    }
    return manifestPromise;
  }

  // --- tokens (the manifest's rules) ---
  function foldText(text) {
    var s = text.normalize(rules.nf).replace(rules.drop, '').toLowerCase(), out = '';
    for (var ch of s) { var f = rules.fold.get(ch); out += f === undefined ? ch : f; }
    return out;
  }
  function kindOf(ch) {
    var cp = ch.codePointAt(0);
    for (var i = 0; i < rules.cjk.length; i++) if (cp >= rules.cjk[i][0] && cp <= rules.cjk[i][1]) return 'cjk';
    if (rules.word.test(ch)) return 'word';
    if (cp >= rules.emojiMin && rules.emoji.test(ch) && !rules.emojiSkip.test(ch)) return 'emoji';
    return 'sep';
  }
  /* Tokens of a query: as the index makes them, except that a run of CJK characters gives its
     bigrams only (a single character stays a unigram). Each token says whether it ends the text
     with no separator after it (the word being typed). */
  function tokenize(text) {
    var out = [], word = [], run = [];
    function endWord(open) { if (word.length) out.push({ t: word.join(''), open: open }); word = []; }
    function endRun(open) {
      if (run.length === 1) out.push({ t: run[0], open: open });
      for (var i = 1; i < run.length; i++) out.push({ t: run[i - 1] + run[i], open: open && i === run.length - 1 });
      run = [];
    }
    var chars = Array.from(foldText(text));
    chars.forEach(function (ch) {
      var k = kindOf(ch);
      if (k === 'word') { endRun(false); if (word.length < rules.max) word.push(ch); }
      else if (k === 'cjk') { endWord(false); run.push(ch); }
      else { endWord(false); endRun(false); if (k === 'emoji') out.push({ t: ch, open: false }); }
    });
    endWord(true); endRun(true);
    return out;
  }

  // --- shards and postings ---
  function cmp(a, b) { // code point order = the index's UTF-8 byte order
    var ia = 0, ib = 0;
    while (ia < a.length && ib < b.length) {
      var ca = a.codePointAt(ia), cb = b.codePointAt(ib);
      if (ca !== cb) return ca < cb ? -1 : 1;
      ia += ca > 0xffff ? 2 : 1; ib += cb > 0xffff ? 2 : 1;
    }
    return ia < a.length ? 1 : (ib < b.length ? -1 : 0);
  }
  function shardOf(token) {
    var lo = 0, hi = manifest.shards.length - 1, found = 0;
    while (lo <= hi) { var mid = (lo + hi) >> 1; if (cmp(manifest.shards[mid], token) <= 0) { found = mid; lo = mid + 1; } else hi = mid - 1; }
    return found;
  }
  function loadShard(n) {
    if (!shards.has(n)) {
      shards.set(n, fetch(new URL('search/t/' + n + '.bin', root)).then(function (r) {
        if (!r.ok) throw new Error('shard ' + n);
        return r.arrayBuffer();
      }).then(parseShard));
    }
    return shards.get(n);
  }
  /* Reads the index's binary files: LEB128 varints (summed as numbers: a date's is past 32 bits)
     and strings as their length and UTF-8. */
  function byteReader(bytes, pos) {
    var dec = new TextDecoder(), r = { bytes: bytes, pos: pos };
    r.varint = function () { var v = 0, mul = 1, b; do { b = bytes[r.pos++]; v += (b & 0x7f) * mul; mul *= 128; } while (b >= 0x80); return v; };
    r.string = function () { var len = r.varint(), s = dec.decode(bytes.subarray(r.pos, r.pos + len)); r.pos += len; return s; };
    return r;
  }
  /* A shard: entries of a token (a string) and its posting list, as PostingList
     (Sources/ScrollbackSearch/PostingList.swift) writes it: the document count, the mode
     (0 deltas, 1 bitmap), for a bitmap its first document, then the payload's length and the
     payload (delta varints; or bit i set for document first + i). */
  function parseShard(buffer) {
    var r = byteReader(new Uint8Array(buffer), 0), entries = [];
    while (r.pos < r.bytes.length) {
      var token = r.string(), count = r.varint(), mode = r.varint(), e = { token: token, count: count, mode: mode, bytes: r.bytes };
      if (mode === 1) { e.first = r.varint(); }
      e.len = r.varint(); e.at = r.pos; r.pos += e.len;
      entries.push(e);
    }
    return entries;
  }
  /* A chunk's rows (SearchIndex.appendRowIdentity, appendRowRest), each as
     [conversation, sender or -1, date, file, anchor, kind flags, text]. */
  function parseChunk(buffer) {
    var r = byteReader(new Uint8Array(buffer), 0), rows = [];
    while (r.pos < r.bytes.length) {
      var conversation = r.varint(), sender = r.varint() - 1, zigzag = r.varint();
      rows.push([conversation, sender, zigzag % 2 ? -(zigzag + 1) / 2 : zigzag / 2, r.string(), r.string(), r.varint(), r.string()]);
    }
    return rows;
  }
  function postings(e) {
    if (e.docs) return e.docs;
    var out = new Int32Array(e.count), n = 0, b = e.bytes;
    if (e.mode === 1) {
      for (var i = 0; i < e.len; i++) { var byte = b[e.at + i]; for (var bit = 0; bit < 8; bit++) if (byte & (1 << bit)) out[n++] = e.first + i * 8 + bit; }
    } else {
      var r = byteReader(b, e.at), end = e.at + e.len, prev = 0;
      while (r.pos < end) { prev += r.varint(); out[n++] = prev; }
    }
    e.docs = out;
    return out;
  }
  var MAX_PREFIX_SHARDS = 3;
  /* Documents of a term: {docs, exact}. A prefix term joins every token starting with it
     (within a few shards); `exact` are the documents of the whole word. */
  function termDocs(token, prefix) {
    if (!manifest.shards.length) return Promise.resolve({ docs: new Int32Array(0), exact: new Int32Array(0) });
    var first = shardOf(token), last = first;
    if (prefix) while (last + 1 < manifest.shards.length && last - first + 1 < MAX_PREFIX_SHARDS && manifest.shards[last + 1].startsWith(token)) last++;
    var wanted = [];
    for (var i = first; i <= last; i++) wanted.push(loadShard(i));
    return Promise.all(wanted).then(function (lists) {
      var exact = new Int32Array(0), parts = [];
      lists.forEach(function (entries) {
        entries.forEach(function (e) {
          if (e.token === token) { exact = postings(e); parts.push(exact); }
          else if (prefix && e.token.startsWith(token) && e.token.indexOf(':') < 0) parts.push(postings(e));
        });
      });
      return { docs: union(parts), exact: exact };
    });
  }
  function union(lists) {
    if (lists.length === 0) return new Int32Array(0);
    if (lists.length === 1) return lists[0];
    var total = 0; lists.forEach(function (l) { total += l.length; });
    var all = new Int32Array(total), at = 0;
    lists.forEach(function (l) { all.set(l, at); at += l.length; });
    all.sort();
    var n = 0;
    for (var i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[i - 1]) all[n++] = all[i];
    return all.subarray(0, n);
  }
  function intersect(a, b) {
    var out = new Int32Array(Math.min(a.length, b.length)), i = 0, j = 0, n = 0;
    while (i < a.length && j < b.length) { if (a[i] < b[j]) i++; else if (a[i] > b[j]) j++; else { out[n++] = a[i]; i++; j++; } }
    return out.subarray(0, n);
  }
  function has(sorted, v) { var lo = 0, hi = sorted.length - 1; while (lo <= hi) { var m = (lo + hi) >> 1; if (sorted[m] === v) return true; if (sorted[m] < v) lo = m + 1; else hi = m - 1; } return false; }

  // --- dates ---
  function dayNumber(text) { // yyyy, yyyy-mm or yyyy-mm-dd → UTC day since 1970
    var m = /^(\d{4})(?:-(\d{1,2}))?(?:-(\d{1,2}))?$/.exec(text);
    if (!m) return null;
    return Math.floor(Date.UTC(+m[1], m[2] ? +m[2] - 1 : 0, m[3] ? +m[3] : 1) / 86400000);
  }
  function endDayNumber(text) { // the day after a yyyy / yyyy-mm / yyyy-mm-dd period
    var m = /^(\d{4})(?:-(\d{1,2}))?(?:-(\d{1,2}))?$/.exec(text);
    if (!m) return null;
    var y = +m[1], mo = m[2] ? +m[2] - 1 : 0, d = m[3] ? +m[3] : 1;
    if (!m[2]) y++; else if (!m[3]) mo++; else d++;
    return Math.floor(Date.UTC(y, mo, d) / 86400000);
  }
  function loadDays() {
    if (!days) days = fetchJSON('search/days.json').then(function (flat) {
      var out = [], day = 0, doc = 0;
      for (var i = 0; i < flat.length; i += 2) { day += flat[i]; doc += flat[i + 1]; out.push([day, doc]); }
      return out;
    });
    return days;
  }
  function firstDocOnOrAfter(table, day) {
    for (var i = 0; i < table.length; i++) if (table[i][0] >= day) return table[i][1];
    return manifest.documents;
  }

  // --- queries ---
  function parse(text) {
    var q = { words: '', filters: [], after: null, before: null, problems: [] }, words = [];
    var parts = text.split(/\s+/).filter(Boolean), trailingSpace = /\s$/.test(text);
    parts.forEach(function (part) {
      var m = /^(from|in|has|before|after):(.*)$/i.exec(part);
      if (!m || !m[2]) { words.push(part); return; }
      var op = m[1].toLowerCase(), value = m[2];
      if (op === 'from') {
        var toks = tokenize(value).map(function (t) { return 'from:' + t.t; });
        if (toks.length) q.filters.push({ any: [toks] });
      } else if (op === 'in') {
        var wanted = foldText(value), ids = [];
        manifest.conversations.forEach(function (c) {
          if (foldText(c[0]) === wanted || foldText(c[1]).indexOf(wanted) >= 0 || foldText(c[0]).indexOf(wanted) === 0) ids.push(['in:' + c[0]]);
        });
        if (ids.length) q.filters.push({ any: ids }); else q.problems.push('no conversation matches “' + value + '”');
      } else if (op === 'has') {
        var kind = value.toLowerCase();
        if (['image', 'file', 'link'].indexOf(kind) >= 0) q.filters.push({ any: [['has:' + kind]] });
        else q.problems.push('has: takes image, file or link');
      } else {
        // after: is inclusive (on or after the day), before: is not (strictly before it).
        var day = dayNumber(value);
        if (day === null) q.problems.push(op + ': takes a date such as 2024-05-01');
        else if (op === 'after') q.after = q.after === null ? day : Math.max(q.after, day);
        else q.before = q.before === null ? day : Math.min(q.before, day);
      }
    });
    if (here !== null && scope.value === 'here') q.filters.push({ any: [['in:' + here]] });
    if (inSel.value !== '') q.filters.push({ any: [['in:' + manifest.conversations[+inSel.value][0]]] });
    if (fromSel.value !== '') q.filters.push({ any: [tokenize(manifest.senders[+fromSel.value][0]).map(function (t) { return 'from:' + t.t; })] });
    if (afterIn.value) { var a = dayNumber(afterIn.value); q.after = q.after === null ? a : Math.max(q.after, a); }
    if (beforeIn.value) { var b = endDayNumber(beforeIn.value); q.before = q.before === null ? b : Math.min(q.before, b); }
    q.words = words.join(' ') + (trailingSpace ? ' ' : '');
    q.terms = tokenize(q.words);
    return q;
  }
  function filterDocs(filter) { // any of several AND-lists of tokens
    return Promise.all(filter.any.map(function (tokens) {
      return Promise.all(tokens.map(function (t) { return termDocs(t, false); })).then(function (sets) {
        return sets.reduce(function (acc, s) { return acc === null ? s.docs : intersect(acc, s.docs); }, null) || new Int32Array(0);
      });
    })).then(union);
  }

  /* The query in the address (?q=, and &scope=here): Back to the page shows the same results,
     and a search can be shared. Replaced, not pushed: each keystroke is not a page of history. */
  function remember() {
    var url = new URL(location.href), text = input.value.trim();
    if (text) url.searchParams.set('q', text); else url.searchParams.delete('q');
    if (text && here !== null && scope.value === 'here') url.searchParams.set('scope', 'here'); else url.searchParams.delete('scope');
    if (url.href !== location.href) history.replaceState(history.state, '', url.href);
  }

  var generation = 0, current = null;
  function run() {
    remember();
    var text = input.value, mine = ++generation;
    var started = performance.now();
    if (!text.trim() && inSel.value === '' && fromSel.value === '' && !afterIn.value && !beforeIn.value) {
      list.textContent = ''; status.textContent = ''; next.hidden = true; return;
    }
    loadManifest().then(function () {
      var q = parse(text);
      if (!q.terms.length && !q.filters.length && q.after === null && q.before === null) {
        if (mine === generation) { list.textContent = ''; next.hidden = true; status.textContent = q.problems.join('; '); }
        return;
      }
      var termJobs = q.terms.map(function (t) { return termDocs(t.t, t.open); });
      var filterJobs = q.filters.map(filterDocs);
      var dateJob = q.after !== null || q.before !== null ? loadDays() : Promise.resolve(null);
      return Promise.all([Promise.all(termJobs), Promise.all(filterJobs), dateJob]).then(function (all) {
        if (mine !== generation) return;
        var terms = all[0], filters = all[1], table = all[2];
        var lo = 0, hi = manifest.documents;
        if (table && q.after !== null) lo = firstDocOnOrAfter(table, q.after);
        if (table && q.before !== null) hi = firstDocOnOrAfter(table, q.before);
        var base = null;
        filters.forEach(function (f) { base = base === null ? f : intersect(base, f); });
        var matched = null, partial = false;
        terms.forEach(function (t) { matched = matched === null ? t.docs : intersect(matched, t.docs); });
        if (matched !== null && matched.length === 0 && terms.length > 1) {
          partial = true; matched = union(terms.map(function (t) { return t.docs; }));
        }
        var docs = matched === null ? base : (base === null ? matched : intersect(matched, base));
        if (docs === null) docs = Int32Array.from({ length: hi - lo }, function (_, i) { return lo + i; });
        var ids = [];
        for (var i = docs.length - 1; i >= 0; i--) if (docs[i] >= lo && docs[i] < hi) ids.push(docs[i]);
        if (order.value === 'best' && terms.length) {
          var score = new Map();
          ids.forEach(function (id) {
            var s = 0;
            terms.forEach(function (t) { if (has(t.exact, id)) s += 2; else if (has(t.docs, id)) s += 1; });
            score.set(id, s);
          });
          ids.sort(function (a, b) { return (score.get(b) - score.get(a)) || (b - a); });
        }
        current = { ids: ids, shown: 0, q: q, partial: partial, started: started, gen: mine };
        list.textContent = '';
        return showMore();
      });
    }).catch(function (error) {
      if (mine === generation) status.textContent = 'Search is unavailable: ' + error.message;
    });
  }

  var PAGE = 10;
  // Document chunks are compressed with raw deflate (about a third of the bytes to download).
  function chunk(n) {
    if (!chunks.has(n)) {
      var path = 'search/d/' + n + '.bin.deflate';
      chunks.set(n, fetch(new URL(path, root)).then(function (r) {
        if (!r.ok) throw new Error(path + ': ' + r.status);
        return new Response(r.body.pipeThrough(new DecompressionStream('deflate-raw'))).arrayBuffer();
      }).then(parseChunk));
    }
    return chunks.get(n);
  }
  // Chunks hold different numbers of documents (the manifest lists them): the chunk of a document
  // is the last one starting at or before it.
  function chunkOf(id) {
    var lo = 0, hi = chunkStarts.length - 1;
    while (lo < hi) { var mid = (lo + hi + 1) >> 1; if (chunkStarts[mid] <= id) lo = mid; else hi = mid - 1; }
    return lo;
  }
  function showMore() {
    var state = current, slice = state.ids.slice(state.shown, state.shown + PAGE);
    var where = slice.map(chunkOf);
    return Promise.all(where.map(chunk)).then(function (loaded) {
      if (state.gen !== generation) return;
      slice.forEach(function (id, i) { list.appendChild(result(loaded[i][id - chunkStarts[where[i]]], state.q)); });
      state.shown += slice.length;
      var n = state.ids.length;
      var what = n === 0 ? 'No messages found' : n + (n === 1 ? ' message' : ' messages') + (state.partial ? ' with some of the words' : '');
      status.textContent = what + (state.q.problems.length ? ' (' + state.q.problems.join('; ') + ')' : '') + (n > state.shown ? ', showing ' + state.shown : '') + '.';
      next.hidden = state.shown >= n;
      box.dataset.ms = String(Math.round(performance.now() - state.started));
    });
  }

  function result(doc, q) {
    var conv = manifest.conversations[doc[0]], sender = doc[1] >= 0 ? manifest.senders[doc[1]] : null;
    var li = document.createElement('li'), a = document.createElement('a');
    li.className = 'sx-i';
    a.href = new URL(encodeURIComponent(conv[0]) + '/' + encodeURIComponent(doc[3]) + '#' + encodeURIComponent(doc[4]), root).href;
    var av = document.createElement('span');
    av.className = 'sx-av';
    av.setAttribute('aria-hidden', 'true');
    if (sender && sender[2]) {
      var img = document.createElement('img');
      img.src = new URL(sender[2], root).href; img.alt = ''; img.width = 32; img.height = 32;
      av.appendChild(img);
    } else {
      av.textContent = sender ? sender[1] : '·';
    }
    var body = document.createElement('span'); body.className = 'sx-b';
    var meta = document.createElement('span'); meta.className = 'sx-m';
    var who = document.createElement('b'); who.textContent = sender ? sender[0] : 'System';
    var where = document.createElement('span'); where.className = 'sx-c'; where.textContent = ' in ' + conv[1] + ' · ';
    var time = document.createElement('time');
    var date = new Date(doc[2] * 1000);
    time.dateTime = date.toISOString();
    time.textContent = date.toLocaleDateString(document.documentElement.lang || undefined, { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });
    meta.append(who, where, time);
    var text = document.createElement('span'); text.className = 'sx-t'; text.dir = 'auto';
    highlight(text, doc[6], q.terms);
    body.append(meta, text);
    a.append(av, body);
    li.appendChild(a);
    return li;
  }
  /* The text, around its first match, with each match in <mark> (DOM nodes, never markup). */
  function highlight(into, original, terms) {
    var chars = Array.from(original), folded = '', owner = [];
    chars.forEach(function (ch, i) { var f = foldText(ch); folded += f; for (var k = 0; k < f.length; k++) owner.push(i); });
    var marks = new Uint8Array(chars.length), firstHit = -1;
    terms.forEach(function (t) {
      var at = 0;
      while ((at = folded.indexOf(t.t, at)) >= 0) {
        for (var k = at; k < at + t.t.length; k++) marks[owner[k]] = 1;
        if (firstHit < 0 || owner[at] < firstHit) firstHit = owner[at];
        at += t.t.length;
      }
    });
    var start = 0, end = chars.length, WINDOW = 220;
    if (chars.length > WINDOW) {
      start = Math.max(0, (firstHit < 0 ? 0 : firstHit) - 60);
      end = Math.min(chars.length, start + WINDOW);
    }
    if (start > 0) into.append('…');
    var i = start;
    while (i < end) {
      var j = i; while (j < end && marks[j] === marks[i]) j++;
      var piece = chars.slice(i, j).join('');
      if (marks[i]) { var m = document.createElement('mark'); m.textContent = piece; into.append(m); } else into.append(piece);
      i = j;
    }
    if (end < chars.length) into.append('…');
  }

  // --- events ---
  var timer = 0;
  function schedule() { clearTimeout(timer); timer = setTimeout(run, 120); }
  input.addEventListener('focus', function () { loadManifest().catch(function () {}); }, { once: true });
  input.addEventListener('input', schedule);
  [order, scope, inSel, fromSel, afterIn, beforeIn].forEach(function (el) { el.addEventListener('change', run); });
  box.querySelector('form').addEventListener('submit', function (e) { e.preventDefault(); clearTimeout(timer); run(); });
  next.addEventListener('click', function () {
    if (!current) return;
    var first = current.shown;
    showMore().then(function () { var link = list.children[first] && list.children[first].querySelector('a'); if (link) link.focus(); });
  });
  box.addEventListener('keydown', function (e) {
    var links = Array.prototype.slice.call(list.querySelectorAll('a'));
    var at = links.indexOf(document.activeElement);
    if (e.key === 'ArrowDown' && (document.activeElement === input || at >= 0)) {
      e.preventDefault(); if (links[at + 1]) links[at + 1].focus();
    } else if (e.key === 'ArrowUp' && at >= 0) {
      e.preventDefault(); (at === 0 ? input : links[at - 1]).focus();
    } else if (e.key === 'Escape') {
      if (box.classList.contains('open') && !input.value) { setOpen(false); opener.focus(); return; }
      input.value = ''; list.textContent = ''; status.textContent = ''; next.hidden = true; remember(); input.focus();
      input.dispatchEvent(new Event('input'));  // the index's cards show again
    }
  });

  // A query in the address (Back to this page, or a shared link) is searched at once.
  var params = new URLSearchParams(location.search), asked = params.get('q');
  if (here !== null && params.get('scope') === 'here') scope.value = 'here';
  if (asked) {
    input.value = asked;
    setOpen(true);
    run();
  }
}());
