/**
 * Light, dark, or follow the system (`prefers-color-scheme`). The choice lives in localStorage and
 * on `<html data-theme>`; index.html applies it before first paint. CSS does the rest through
 * `light-dark()` in styles.css.
 */
import { useCallback, useSyncExternalStore } from 'react';

/** The three theme settings. */
export type ThemeSetting = 'system' | 'light' | 'dark';

const KEY = 'weft.theme';
const listeners = new Set<() => void>();

function read(): ThemeSetting {
  const t = document.documentElement.dataset.theme;
  return t === 'light' || t === 'dark' ? t : 'system';
}

function write(setting: ThemeSetting): void {
  if (setting === 'system') {
    delete document.documentElement.dataset.theme;
    localStorage.removeItem(KEY);
  } else {
    document.documentElement.dataset.theme = setting;
    localStorage.setItem(KEY, setting);
  }
  for (const l of listeners) l();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The current setting and a function that moves to the next one (system → light → dark). */
export function useTheme(): { setting: ThemeSetting; cycle: () => void } {
  const setting = useSyncExternalStore(subscribe, read, () => 'system' as const);
  const cycle = useCallback(() => {
    const next: Record<ThemeSetting, ThemeSetting> = { system: 'light', light: 'dark', dark: 'system' };
    write(next[read()]);
  }, []);
  return { setting, cycle };
}
