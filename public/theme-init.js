// Apply the saved theme before first paint so a dark-theme reload does not flash white. A file,
// not an inline script in index.html: the server's Content-Security-Policy allows no inline script.
try {
  var t = localStorage.getItem('weft.theme');
  if (t === 'light' || t === 'dark') document.documentElement.dataset.theme = t;
} catch (e) {}
