/** A short name for the browser behind a session, from its User-Agent. */

/** "Chrome on Linux" from a user agent, or the raw text when unrecognised. */
export function describeAgent(ua: string): string {
  if (!ua) return 'Unknown browser';
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /Firefox\//.test(ua)
      ? 'Firefox'
      : /Chrom(e|ium)\//.test(ua)
        ? 'Chrome'
        : /Safari\//.test(ua)
          ? 'Safari'
          : null;
  // Phones first: iOS agents also say "Mac OS X", Android ones "Linux".
  const os = /iPhone|iPad/.test(ua)
    ? 'iOS'
    : /Android/.test(ua)
      ? 'Android'
      : /Windows/.test(ua)
        ? 'Windows'
        : /Mac OS X/.test(ua)
          ? 'macOS'
          : /Linux/.test(ua)
            ? 'Linux'
            : null;
  if (!browser) return ua.length > 60 ? `${ua.slice(0, 57)}…` : ua;
  return os ? `${browser} on ${os}` : browser;
}
