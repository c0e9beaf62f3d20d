/** The op's plain name: the name inside a `weave:///e/p/op/<name>:<digest>` ref, or itself. */
export function opDisplayName(opName: string): string {
  const m = /^weave:\/\/\/[^/]+\/[^/]+\/op\/([^:/]+)/.exec(opName);
  if (!m) return opName;
  try {
    return decodeURIComponent(m[1]!);
  } catch {
    return m[1]!; // a malformed %-escape: show the name as written
  }
}
