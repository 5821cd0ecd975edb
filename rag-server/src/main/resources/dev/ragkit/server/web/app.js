// RagKit's page: no build step, no CDN. Streams /v1/ask (server-sent events) with fetch + ReadableStream.
'use strict';
(function () {
  const $ = (id) => document.getElementById(id);
  let token = sessionStorage.getItem('ragkit-token') || '';
  let lastCitations = [];

  function headers(json) {
    const h = {};
    if (json) h['Content-Type'] = 'application/json';
    if (token) h['Authorization'] = 'Bearer ' + token;
    return h;
  }

  function text(el, value) { el.textContent = value == null ? '' : String(value); }

  async function loadDocuments() {
    const res = await fetch('/v1/documents', { headers: headers(false) });
    if (res.status === 401) { $('token-box').hidden = false; return; }
    const body = await res.json();
    const tbody = $('documents').querySelector('tbody');
    tbody.textContent = '';
    for (const d of body.documents || []) {
      const tr = document.createElement('tr');
      const a = document.createElement('a');
      a.href = '#view=' + encodeURIComponent(d.id);
      text(a, d.title + ' (' + d.path + ')');
      const td = document.createElement('td');
      td.appendChild(a);
      tr.appendChild(td);
      for (const v of [d.type, d.pages == null ? '—' : d.pages, d.indexedAt || 'not recorded']) {
        const cell = document.createElement('td');
        text(cell, v);
        tr.appendChild(cell);
      }
      tbody.appendChild(tr);
    }
  }

  function citationHref(c) {
    let href = '#view=' + encodeURIComponent(c.documentId) + '&lines=' + c.startLine + '-' + c.endLine;
    if (c.page != null) href += '&page=' + c.page;
    return href;
  }

  function showDone(done) {
    text($('answer'), done.numberedAnswer);
    lastCitations = done.citations || [];
    const list = $('citations');
    list.textContent = '';
    for (const c of lastCitations) {
      const li = document.createElement('li');
      const a = document.createElement('a');
      a.href = citationHref(c);
      a.className = 'citation';
      text(a, c.path + (c.page != null ? ', page ' + c.page : '') + ', lines ' + c.startLine + '-' + c.endLine
        + (c.section ? ' — ' + c.section : ''));
      li.appendChild(a);
      list.appendChild(li);
    }
    text($('confidence'), done.confidence.overall + '/100');
    text($('action'), done.action);
    text($('explanation'), done.confidence.explanation);
    const route = $('route');
    if (done.route) {
      route.hidden = false;
      text(route, 'Routed: ' + (done.route.ownerEmail ? 'ask ' + done.route.ownerEmail : 'no owner is configured')
        + ' — ' + done.route.reason);
    } else {
      route.hidden = true;
    }
    text($('status'), 'Done.');
  }

  async function ask(question) {
    $('result').hidden = false;
    $('viewer').hidden = true;
    text($('answer'), '');
    $('citations').textContent = '';
    $('route').hidden = true;
    text($('status'), 'Searching…');
    $('ask').disabled = true;
    try {
      const res = await fetch('/v1/ask', { method: 'POST', headers: headers(true),
        body: JSON.stringify({ question: question, stream: true }) });
      if (!res.ok) {
        const err = await res.json().catch(() => ({ error: { message: res.statusText } }));
        if (res.status === 401) $('token-box').hidden = false;
        text($('status'), 'Error: ' + err.error.message);
        return;
      }
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let name = 'message', data = '';
          for (const line of block.split('\n')) {
            if (line.startsWith('event: ')) name = line.slice(7);
            else if (line.startsWith('data: ')) data += line.slice(6);
          }
          if (!data) continue;
          const payload = JSON.parse(data);
          if (name === 'sources') text($('status'), 'Answering from ' + payload.sources.length + ' document(s)…');
          else if (name === 'token') $('answer').textContent += payload.text;
          else if (name === 'done') showDone(payload);
          else if (name === 'error') text($('status'), 'Error: ' + payload.error.message);
        }
      }
    } finally {
      $('ask').disabled = false;
    }
  }

  async function view(params) {
    const id = params.get('view');
    const q = new URLSearchParams();
    if (params.get('lines')) q.set('lines', params.get('lines'));
    if (params.get('page')) q.set('page', params.get('page'));
    const res = await fetch('/v1/documents/' + encodeURIComponent(id) + '/view?' + q, { headers: headers(false) });
    const body = await res.json();
    const pre = $('viewer-text');
    pre.textContent = '';
    $('viewer').hidden = false;
    if (!res.ok) { text($('viewer-title'), body.error.message); $('viewer-title').focus(); return; }
    text($('viewer-title'), body.document.title + ' (' + body.document.path + ')');
    let first = null;
    for (const line of body.lines) {
      if (line.gapBefore) { const gap = document.createElement('span'); gap.className = 'line gap'; text(gap, '…'); pre.appendChild(gap); }
      const span = document.createElement('span');
      span.className = 'line' + (line.highlight ? ' hl' : '');
      const n = document.createElement('span');
      n.className = 'n';
      text(n, (line.page != null ? 'p' + line.page + ' ' : '') + line.n);
      span.appendChild(n);
      span.appendChild(document.createTextNode(line.text));
      pre.appendChild(span);
      if (line.highlight && !first) first = span;
    }
    $('viewer-title').focus();
    if (first) first.scrollIntoView({ block: 'center' });
  }

  function route() {
    const params = new URLSearchParams(location.hash.slice(1));
    if (params.get('view')) view(params); else $('viewer').hidden = true;
  }

  document.addEventListener('DOMContentLoaded', () => {
    $('token').value = token;
    $('token').addEventListener('change', (e) => {
      token = e.target.value.trim();
      sessionStorage.setItem('ragkit-token', token);
      loadDocuments();
    });
    $('ask-form').addEventListener('submit', (e) => {
      e.preventDefault();
      const q = $('question').value.trim();
      if (q) ask(q);
    });
    $('close-viewer').addEventListener('click', (e) => {
      e.preventDefault();
      history.pushState('', document.title, location.pathname);
      $('viewer').hidden = true;
      $('question').focus();
    });
    window.addEventListener('hashchange', route);
    loadDocuments();
    route();
  });
})();
