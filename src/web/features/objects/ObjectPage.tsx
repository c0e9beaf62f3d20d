/**
 * One object: its version history (aliases and tags editable in place) above the version on
 * show (`?version=`, latest by default) in tabs: value, code, table rows, comparison.
 */
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router-dom';
import { HttpError } from '../../../client/index.js';
import { CopyButton } from '../../components/ui/CopyButton.js';
import { ErrorState } from '../../components/ui/ErrorState.js';
import { Spinner } from '../../components/ui/Spinner.js';
import { formatDateTime, formatRelative } from '../../lib/format.js';
import { objectRef } from '../../lib/refs.js';
import { TypeBadge } from './objectColumns.js';
import { objectVersionQueryOptions, objectVersionsQueryOptions } from './objectQueries.js';
import { ObjectTabs } from './ObjectTabs.js';
import { useObjectView } from './objectViewState.js';
import { VersionsTable } from './versions/VersionsTable.js';
import './objects.css';
import './objectPage.css';

/** Object page. */
export function ObjectPage() {
  const { entity = '', project = '', objectId = '' } = useParams();
  const projectId = `${entity}/${project}`;
  const [view, update] = useObjectView();
  const versions = useQuery(objectVersionsQueryOptions({ projectId, objectId }));
  const current = useQuery({
    ...objectVersionQueryOptions({ projectId, objectId, version: view.version ?? 'latest' }),
    // Picking another version keeps this one on screen until it arrives (same object only).
    placeholderData: (previous) => (previous?.object_id === objectId && previous.project_id === projectId ? previous : undefined),
  });
  const obj = current.data;
  const all = versions.data ?? [];

  return (
    <div className="page object-page">
      <header className="page-header">
        <Link className="button ghost" to={`/${entity}/${project}/objects`}>
          ← Objects
        </Link>
        <h1 className="object-title">{objectId}</h1>
        {obj && <TypeBadge version={obj} />}
        {obj && (
          <span className="muted">
            v{obj.version_index}
            {all.length ? ` of ${all.length} ${all.length === 1 ? 'version' : 'versions'}` : ''} · created{' '}
            <time dateTime={obj.created_at} title={formatDateTime(obj.created_at)}>
              {formatRelative(obj.created_at)}
            </time>
          </span>
        )}
        {(current.isFetching || versions.isFetching) && <Spinner label="Updating" />}
        <span className="spacer" />
        {obj?.base_object_class === 'Dataset' && (
          <Link className="button" to={`/${projectId}/datasets/${encodeURIComponent(obj.object_id)}?v=${obj.digest}`}>
            Edit on the dataset page
          </Link>
        )}
        {obj && <CopyButton text={objectRef({ projectId, kind: obj.kind, name: obj.object_id, digest: obj.digest })} label="Copy ref" />}
      </header>
      {versions.error && <ErrorState error={versions.error} onRetry={() => void versions.refetch()} compact />}
      {versions.data && versions.data.length > 0 && (
        <VersionsTable projectId={projectId} objectId={objectId} versions={versions.data} selectedDigest={obj?.digest ?? null} />
      )}
      {current.error ? (
        <MissingVersion
          error={current.error}
          objectId={objectId}
          version={view.version}
          hasVersions={all.length > 0}
          onLatest={() => update({ version: null, path: null, row: null })}
        />
      ) : !obj ? (
        <div className="page-loading">
          <Spinner showLabel label="Loading version" />
        </div>
      ) : (
        <ObjectTabs projectId={projectId} obj={obj} versions={all} view={view} update={update} />
      )}
    </div>
  );
}

/** A version that cannot be read: said in words, with the way back to the latest. */
function MissingVersion(props: { error: Error; objectId: string; version: string | null; hasVersions: boolean; onLatest: () => void }) {
  const { error, objectId, version, hasVersions, onLatest } = props;
  if (!(error instanceof HttpError) || error.status !== 404) return <ErrorState error={error} />;
  const deleted = typeof (error.body as { deleted_at?: unknown } | null)?.deleted_at === 'string';
  return (
    <div className="empty-state">
      <p>
        {!hasVersions
          ? `This project has no object named “${objectId}”.`
          : deleted
            ? `Version “${version}” of ${objectId} was deleted.`
            : `${objectId} has no version “${version ?? 'latest'}”.`}
      </p>
      {hasVersions && (
        <button type="button" className="button" onClick={onLatest}>
          Show the latest version
        </button>
      )}
    </div>
  );
}
