/** Cycles the theme: follow the system, light, dark. */
import { useTheme } from '../lib/theme.js';

const NEXT_LABEL = { system: 'Theme: system', light: 'Theme: light', dark: 'Theme: dark' } as const;
const ICON = { system: '◐', light: '☀', dark: '☾' } as const;

/** Theme toggle button for the top bar. */
export function ThemeToggle() {
  const { setting, cycle } = useTheme();
  return (
    <button
      type="button"
      className="button ghost icon"
      onClick={cycle}
      aria-label={NEXT_LABEL[setting]}
      title={`${NEXT_LABEL[setting]} (click to change)`}
    >
      <span aria-hidden="true">{ICON[setting]}</span>
    </button>
  );
}
