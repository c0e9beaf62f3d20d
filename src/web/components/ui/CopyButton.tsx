/** Copies text to the clipboard and says so for a moment. */
import { useState } from 'react';

/** Small "Copy" button; pass a function when the text is costly to build (a 10 MB payload). */
export function CopyButton({ text, label = 'Copy' }: { text: string | (() => string); label?: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(typeof text === 'function' ? text() : text);
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };
  return (
    <button type="button" className="button small ghost" onClick={() => void copy()}>
      {copied ? 'Copied' : label}
    </button>
  );
}
