/** The runs of a comparison as the options of a run picker: "A · gpt-4o, run 3". */
import type { CompareRunFigures } from './CompareSummary.js';

export function RunOptions({ runs }: { runs: Pick<CompareRunFigures, 'id' | 'letter' | 'label'>[] }) {
  return runs.map((r) => (
    <option key={r.id} value={r.id}>
      {r.letter} · {r.label}
    </option>
  ));
}
