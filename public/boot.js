// Runs before the app's modules, as a classic blocking script: the build puts it inline in
// index.html (scripts/inlineBootPlugin.ts), allowed by its hash in the Content-Security-Policy
// the server sends with the page (src/server/process/dashboard.ts); `weft dev` loads this file.

// Apply the saved theme before first paint so a dark-theme reload does not flash white.
try {
  var t = localStorage.getItem('weft.theme');
  if (t === 'light' || t === 'dark') document.documentElement.dataset.theme = t;
} catch {
  // Storage can be off (private windows, policies): the default theme then applies.
}

// Zod without its JIT: Zod 4 compiles parsers with `new Function` and probes for that when its
// schemas are built; the CSP has no 'unsafe-eval', so the probe would be reported as a violation.
// Zod reads this global config when it loads, which is why it is set here, before any module runs.
window.__zod_globalConfig = Object.assign(window.__zod_globalConfig || {}, { jitless: true });

// The trace page's outline, asked for before the app's code has loaded: for a big trace the server
// needs about as long as the code takes to arrive, so both run at once. The page takes this
// answer when it asks for the same outline (docs/trace-outline.md "Streamed").
try {
  // TRACE_PAGE_PATH of src/contract/traceFirstScreen.ts (this script imports nothing).
  var trace = /^\/([^/]+)\/([^/]+)\/traces\/([^/]+)\/?$/.exec(location.pathname);
  if (trace) {
    var body = JSON.stringify({
      project_id: decodeURIComponent(trace[1]) + '/' + decodeURIComponent(trace[2]),
      trace_id: decodeURIComponent(trace[3]),
    });
    var response =
      wholeTraceInPage() ||
      fetch('/weft/trace/outline_stream', { method: 'POST', headers: { 'content-type': 'application/json' }, body: body });
    window.__weftEarlyOutline = {
      body: body,
      at: performance.now(),
      response: response.catch(function () {
        return null;
      }),
    };
    // The script that paints the first screen of rows from this answer before the app's code is
    // in (src/web/features/traces/earlyTrace.ts; docs/trace-outline.md "Painted before the app's code").
    var early = document.querySelector('meta[name="weft-early-trace"]');
    if (early) {
      var script = document.createElement('script');
      script.type = 'module';
      script.src = early.getAttribute('content');
      document.head.appendChild(script);
    }
  }
} catch {
  // A malformed path: the page asks for itself.
}

// The outline the server put in the page (src/server/process/traceFirstScreen.ts), as the answer
// the app takes, when it holds every span of the trace: nothing is asked for then.
function wholeTraceInPage() {
  var block = document.getElementById('weft-early-outline'); // TRACE_FIRST_SCREEN_ID
  var lines;
  try {
    lines = block && JSON.parse(block.textContent);
  } catch {
    return null;
  }
  var head = lines && lines[0] && lines[0].head;
  if (!head || head.truncated || head.spans !== lines.length - 1) return null;
  var text = lines.map(function (line) {
    return JSON.stringify(line) + '\n';
  });
  return Promise.resolve(new Response(text.join(''), { status: 200, headers: { 'content-type': 'application/x-ndjson' } }));
}

// The code of the page opened, fetched now beside the entry rather than once the entry has run
// and asked for it, chunk after chunk: index.html holds, per page listed in vite.config.ts, a
// template of preload links for that page's chunks and CSS (scripts/pagePreloadPlugin.ts).
try {
  var templates = document.querySelectorAll('template[data-preload-path]');
  for (var i = 0; i < templates.length; i++) {
    var path = templates[i].getAttribute('data-preload-path').replace(/:[^/]+/g, '[^/]+');
    if (new RegExp('^' + path + '/?$').test(location.pathname)) {
      document.head.appendChild(templates[i].content.cloneNode(true));
      break;
    }
  }
} catch {
  // No template support: the page's code loads when the entry asks for it.
}
