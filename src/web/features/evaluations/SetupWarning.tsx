/**
 * A warning above a comparison whose runs did not measure the same thing: their evaluation
 * objects name different dataset versions or different scorers (or scorer versions). Read from
 * the evaluation objects themselves, so two versions of an evaluation that share dataset and
 * scorers compare without a warning.
 */
import { useQueries, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { refLabel, versionIndexByRef } from './evalRefs.js';
import { datasetObjectsQueryOptions, evaluationObjectQueryOptions } from './evaluationQueries.js';
import { setupDifferences } from './compare/compareModel.js';
import './evaluations.css';

/** A compared run: its letter and the evaluation ref it ran. */
export interface SetupRun {
  id: string;
  letter: string;
  evaluation: string;
}

/** Setup warning; renders nothing when the runs agree (or while the objects load). */
export function SetupWarning({ projectId, runs }: { projectId: string; runs: SetupRun[] }) {
  const refs = useMemo(() => [...new Set(runs.map((r) => r.evaluation))], [runs]);
  const objects = useQueries({
    queries: refs.map((ref) => evaluationObjectQueryOptions({ projectId, ref })),
    combine: (results) => ({ data: results.map((r) => r.data), failed: results.filter((r) => r.isError).length }),
  });
  const differences = useMemo(() => {
    const byRef = new Map(refs.map((ref, i) => [ref, objects.data[i] ?? null]));
    return setupDifferences(new Map(runs.map((r) => [r.id, byRef.get(r.evaluation) ?? null])));
  }, [refs, runs, objects.data]);
  const datasets = useQuery({ ...datasetObjectsQueryOptions(projectId), enabled: differences.length > 0 });
  const versions = useMemo(() => versionIndexByRef(projectId, datasets.data ?? []), [projectId, datasets.data]);
  const letters = (ids: string[]) => ids.map((id) => runs.find((r) => r.id === id)?.letter ?? '?').join(', ');

  if (!differences.length && !objects.failed) return null;
  return (
    <div className="eval-warning" role="alert">
      <strong>
        {differences.length
          ? 'These runs are not measured the same way.'
          : 'Could not check that these runs used the same dataset and scorers.'}
      </strong>
      <ul>
        {differences.map((d) => (
          <li key={d.what}>
            Different {d.what === 'dataset' ? 'dataset versions' : 'scorers or scorer versions'}:{' '}
            {d.variants.map((v, i) => (
              <span key={v.value}>
                {i > 0 && '; '}
                <span className="mono">
                  {d.what === 'dataset'
                    ? refLabel(v.value, versions.get(v.value))
                    : v.value
                        .split(', ')
                        .map((s) => refLabel(s))
                        .join(', ') || 'none'}
                </span>{' '}
                (run {letters(v.runIds)})
              </span>
            ))}
          </li>
        ))}
        {objects.failed > 0 && <li>The evaluation of some runs could not be read, so their datasets and scorers were not checked.</li>}
      </ul>
    </div>
  );
}
