// Runs before the app's modules, as a classic blocking script from a file: the server's
// Content-Security-Policy allows no inline script (src/server/http/securityHeaders.ts).

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
