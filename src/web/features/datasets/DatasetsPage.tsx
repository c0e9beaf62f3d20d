/**
 * Datasets (`/:entity/:project/datasets`): the project's `Dataset` objects with their version
 * count, the latest version's row count and when it was saved; a CSV or JSON-lines file
 * starts a new one (docs/datasets.md "Dataset page").
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { ListTable } from '../../components/table/ListTable.js';
import { formatInteger, formatRelative } from '../../lib/format.js';
import { useCan } from '../auth/useCan.js';
import { DatasetImport } from './DatasetImport.js';
import { datasetsQueryOptions } from './datasetQueries.js';
import './datasets.css';

export function DatasetsPage() {
  const { entity = '', project = '' } = useParams();
  const projectId = `${entity}/${project}`;
  const datasets = useQuery(datasetsQueryOptions(projectId));
  const canCreate = useCan(projectId)('objCreate').allowed;
  const [importing, setImporting] = useState(false);
  const navigate = useNavigate();

  return (
    <div className="page">
      <header className="page-header">
        <h1>Datasets</h1>
        <span className="spacer" />
        {canCreate && (
          <button type="button" className="button" aria-expanded={importing} onClick={() => setImporting((v) => !v)}>
            New dataset from a file
          </button>
        )}
      </header>
      {importing && (
        <DatasetImport
          projectId={projectId}
          base={null}
          onSaved={(objectId) => void navigate(`/${projectId}/datasets/${encodeURIComponent(objectId)}`)}
          onClose={() => setImporting(false)}
        />
      )}
      <section className="card" aria-label="Datasets">
        <p className="muted small">
          Datasets the SDKs publish (<code>weave.Dataset</code>); every edit here saves a new version the SDKs read back.
        </p>
        <ListTable
          items={datasets.data}
          pending={datasets.isPending}
          error={datasets.error}
          onRetry={() => void datasets.refetch()}
          noun="datasets"
          label="Dataset list"
          head={
            <>
              <th>Name</th>
              <th>Versions</th>
              <th>Rows</th>
              <th>Last updated</th>
            </>
          }
          row={(d) => (
            <tr key={d.latest.object_id}>
              <td>
                <Link className="mono" to={`/${projectId}/datasets/${encodeURIComponent(d.latest.object_id)}`}>
                  {d.latest.object_id}
                </Link>
              </td>
              <td>{formatInteger(d.versionCount)}</td>
              <td>{d.rowCount === null ? '–' : formatInteger(d.rowCount)}</td>
              <td className="muted">{formatRelative(d.latest.created_at)}</td>
            </tr>
          )}
        />
      </section>
    </div>
  );
}
