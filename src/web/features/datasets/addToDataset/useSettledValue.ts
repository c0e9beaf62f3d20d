/**
 * A value that follows `value` once it has stopped changing for `ms`: typing a column name or a
 * dataset name asks the server for one preview, not one per keystroke. It only syncs state.
 */
import { useEffect, useState } from 'react';

export function useSettledValue<T>(value: T, ms = 300): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
