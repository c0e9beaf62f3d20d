/**
 * The calls table's columns live in the URL (`?cols=`), so a link shows what its sender saw. A
 * URL without `cols` shows the columns this user chose last (or the defaults), and every choice
 * made in the column chooser is remembered for the next visit (docs/dashboard.md "Columns").
 */
import { useCallback, useContext, useMemo } from 'react';
import { useLocation } from 'react-router-dom';
import { ColumnOwnerContext, readColumnChoice, writeColumnChoice } from '../../components/table/columnChoice.js';
import type { CallsViewState } from '../../entities/calls/callsViewState.js';

/** The table name the calls columns are remembered under. */
const TABLE = 'calls';

/** The view with the remembered columns applied, and an updater that remembers column changes. */
export function useRememberedColumns(
  urlView: CallsViewState,
  update: (patch: Partial<CallsViewState>) => void,
): [CallsViewState, (patch: Partial<CallsViewState>) => void] {
  const owner = useContext(ColumnOwnerContext);
  const { search } = useLocation();
  const inUrl = new URLSearchParams(search).has('cols');
  const view = useMemo(() => {
    if (inUrl) return urlView;
    const stored = readColumnChoice(owner, TABLE);
    const columns = Array.isArray(stored) ? stored.filter((c): c is string => typeof c === 'string' && c !== '') : [];
    return columns.length ? { ...urlView, columns } : urlView;
  }, [inUrl, urlView, owner]);
  const remembering = useCallback(
    (patch: Partial<CallsViewState>) => {
      if (patch.columns) writeColumnChoice(owner, TABLE, patch.columns);
      update(patch);
    },
    [owner, update],
  );
  return [view, remembering];
}
