/**
 * Reactions drawn as inline SVG, so they read the same on machines without a colour-emoji
 * font (where the emoji characters render as empty boxes). The standard reactions (the
 * picker's, plus the note and label marks) have an icon; any other emoji falls back to its
 * own character. The icon is decorative: callers label the button or cell it sits in.
 */
import type { ReactNode } from 'react';

interface Icon {
  /** Drawn with a 2px currentColor stroke on a 24×24 grid. */
  body: ReactNode;
  color?: string;
  filled?: boolean;
}

const face = (mouth: ReactNode, eyes: ReactNode = <path d="M9 9h.01M15 9h.01" />) => (
  <>
    <circle cx="12" cy="12" r="10" />
    {eyes}
    {mouth}
  </>
);

const ICONS: Record<string, Icon> = {
  '👍': {
    color: 'var(--success)',
    body: <path d="M7 22V11l4-9a3 3 0 0 1 3 3v4h5.7a2 2 0 0 1 2 2.3l-1.4 9a2 2 0 0 1-2 1.7zM7 22H4a2 2 0 0 1-2-2v-7a2 2 0 0 1 2-2h3" />,
  },
  '👎': {
    color: 'var(--error)',
    body: <path d="M17 2v11l-4 9a3 3 0 0 1-3-3v-4H4.3a2 2 0 0 1-2-2.3l1.4-9a2 2 0 0 1 2-1.7zM17 2h3a2 2 0 0 1 2 2v7a2 2 0 0 1-2 2h-3" />,
  },
  '❤': {
    color: '#e0245e',
    filled: true,
    body: <path d="M20.8 4.6a5.5 5.5 0 0 0-7.8 0L12 5.7l-1-1.1a5.5 5.5 0 0 0-7.8 7.8l1 1L12 21.2l7.8-7.8 1-1a5.5 5.5 0 0 0 0-7.8z" />,
  },
  '🎉': { color: '#d97706', body: <path d="M3 21l5-14 9 9zM14 3l1 3M20 9l-3 1M18 4l-2 3M11 5v2M19 14h2" /> },
  '😂': { color: '#d97706', body: face(<path d="M7 13h10a5 5 0 0 1-10 0z" />, <path d="M7 9l3 1M17 9l-3 1" />) },
  '😮': { color: '#d97706', body: face(<circle cx="12" cy="16" r="2" />) },
  '😢': { color: '#2563eb', body: face(<path d="M8 17a5 5 0 0 1 8 0M17 11v2" />) },
  '🤔': { color: '#d97706', body: face(<path d="M9 16h5M8 8l2-1" />) },
  '👀': {
    body: (
      <>
        <path d="M1 12s4-8 11-8 11 8 11 8-4 8-11 8-11-8-11-8z" />
        <circle cx="12" cy="12" r="3" />
      </>
    ),
  },
  '🔥': { color: '#ea580c', body: <path d="M12 2c1 4 5 6 5 11a5 5 0 0 1-10 0c0-3 2-4 2-7 2 1 3 3 3 5 1.5-1.5 1.5-4 0-9z" /> },
  '🚀': {
    body: (
      <>
        <path d="M5 15c-1.5 1.5-2 5-2 5s3.5-.5 5-2M14 4c3-2 7-1 7-1s1 4-1 7l-7 7-6-6z" />
        <circle cx="15.5" cy="8.5" r="1.5" />
      </>
    ),
  },
  '💯': {
    color: 'var(--error)',
    body: (
      <>
        <text x="12" y="15" fontSize="10" fontWeight="700" textAnchor="middle" fill="currentColor" stroke="none">
          100
        </text>
        <path d="M3 19h18" />
      </>
    ),
  },
  '✅': {
    color: 'var(--success)',
    body: (
      <>
        <rect x="3" y="3" width="18" height="18" rx="3" />
        <path d="M7 12l3 3 7-7" />
      </>
    ),
  },
  '❌': { color: 'var(--error)', body: <path d="M6 6l12 12M18 6L6 18" /> },
  '⚠': {
    color: 'var(--warning)',
    body: <path d="M10.3 3.9L1.8 18a2 2 0 0 0 1.7 3h17a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0zM12 9v4M12 17h.01" />,
  },
  '🐛': {
    body: (
      <>
        <rect x="8" y="6" width="8" height="14" rx="4" />
        <path d="M12 10v10M8 11H4M16 11h4M8 16H4M16 16h4M9 3l1.5 3M15 3l-1.5 3" />
      </>
    ),
  },
  '💡': { color: '#d97706', body: <path d="M9 18h6M10 22h4M12 2a7 7 0 0 0-4 12.7V17h8v-2.3A7 7 0 0 0 12 2z" /> },
  '🙏': { body: <path d="M12 3l-3 8v6l-4 4M12 3l3 8v6l4 4M9 17h6" /> },
  '📝': { body: <path d="M4 3h11l5 5v13H4zM14 3v6h6M8 13h8M8 17h5" /> },
  '🏷': {
    body: (
      <>
        <path d="M20.6 13.4l-7.2 7.2a2 2 0 0 1-2.8 0L2 12V2h10l8.6 8.6a2 2 0 0 1 0 2.8z" />
        <path d="M7 7h.01" />
      </>
    ),
  },
};

/** The emoji without variation selectors, as ICONS keys it ('❤️' and '❤' are one reaction). */
const iconKey = (emoji: string) => emoji.replace(/\uFE0F/g, '');

/** True when `emoji` has a drawn icon. */
export const hasReactionIcon = (emoji: string) => Object.hasOwn(ICONS, iconKey(emoji));

/** One reaction: its SVG icon, or the emoji itself when none is drawn. */
export function ReactionIcon({ emoji, size = 16 }: { emoji: string; size?: number }) {
  const icon = ICONS[iconKey(emoji)];
  if (!icon) return <span className="reaction-glyph">{emoji}</span>;
  return (
    <svg
      className="reaction-icon"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill={icon.filled ? 'currentColor' : 'none'}
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      style={icon.color ? { color: icon.color } : undefined}
      aria-hidden="true"
      focusable="false"
      data-emoji={emoji}
    >
      {icon.body}
    </svg>
  );
}
