/**
 * Which columns a person chose to see in each table, remembered in localStorage per signed-in
 * user and table name, so the choice survives reloads and is not shared by two users of one
 * browser. See docs/dashboard.md "Columns".
 */
import type { VisibilityState } from '@tanstack/react-table';
import { useCallback, useContext, useMemo, useState } from 'react';
import { ColumnOwnerContext } from './columnOwner.js';

export { ColumnOwnerContext };

/** The localStorage key of one user's choice for one table. */
export function columnChoiceKey(owner: string, table: string): string {
  return `weft.columns.${encodeURIComponent(owner)}.${table}`;
}

/** The stored value, or undefined when there is none or it cannot be read. */
export function readColumnChoice(owner: string, table: string): unknown {
  try {
    const raw = localStorage.getItem(columnChoiceKey(owner, table));
    return raw === null ? undefined : (JSON.parse(raw) as unknown);
  } catch {
    return undefined;
  }
}

/** Stores a choice; a full or disabled storage only loses the memory, never the change. */
export function writeColumnChoice(owner: string, table: string, value: unknown): void {
  try {
    localStorage.setItem(columnChoiceKey(owner, table), JSON.stringify(value));
  } catch {
    // Nothing to do: the choice still applies until the page is left.
  }
}

/** Only `{ id: boolean }` entries of a stored value count. */
function asVisibility(value: unknown): VisibilityState {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).filter(([, v]) => typeof v === 'boolean')) as VisibilityState;
}

/** A table's shown/hidden columns and the setter `DataTable`'s chooser calls. */
export interface ColumnChoice {
  visibility: VisibilityState;
  setVisible: (id: string, visible: boolean) => void;
}

/**
 * The column visibility of table `name`: the columns in `hiddenByDefault` start hidden, every
 * other column (new scorer columns, say) shown, and the person's own choices win over both.
 */
export function useColumnChoice(name: string, hiddenByDefault: readonly string[] = []): ColumnChoice {
  const owner = useContext(ColumnOwnerContext);
  // Only explicit choices are stored, so a changed default still reaches people who never chose.
  const [chosen, setChosen] = useState<{ key: string; value: VisibilityState }>(() => ({
    key: columnChoiceKey(owner, name),
    value: asVisibility(readColumnChoice(owner, name)),
  }));
  const key = columnChoiceKey(owner, name);
  const visibility = useMemo<VisibilityState>(() => {
    const current = chosen.key === key ? chosen.value : asVisibility(readColumnChoice(owner, name));
    return { ...Object.fromEntries(hiddenByDefault.map((id) => [id, false])), ...current };
  }, [chosen, key, owner, name, hiddenByDefault]);
  const setVisible = useCallback(
    (id: string, visible: boolean) => {
      const next = { ...asVisibility(readColumnChoice(owner, name)), [id]: visible };
      writeColumnChoice(owner, name, next);
      setChosen({ key: columnChoiceKey(owner, name), value: next });
    },
    [owner, name],
  );
  return { visibility, setVisible };
}
