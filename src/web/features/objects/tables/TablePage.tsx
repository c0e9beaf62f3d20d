/**
 * A table on its own (a `weave:///…/table/<digest>` ref): its rows, server-paged and sortable,
 * a row (`?row=`, a ref's `id/<row>`) opened beside them.
 */
import { Link, useParams } from 'react-router-dom';
import { CopyButton } from '../../../components/ui/CopyButton.js';
import { shortDigest, tableRef } from '../../../lib/refs.js';
import { useObjectView } from '../objectViewState.js';
import { TableRowsView } from './TableRowsView.js';
import '../objects.css';
import '../objectPage.css';

/** Table page. */
export function TablePage() {
  const { entity = '', project = '', digest = '' } = useParams();
  const projectId = `${entity}/${project}`;
  const [view, update] = useObjectView();
  return (
    <div className="page object-page">
      <header className="page-header">
        <Link className="button ghost" to={`/${entity}/${project}/objects`}>
          ← Objects
        </Link>
        <h1>
          Table{' '}
          <span className="mono muted" title={digest}>
            {shortDigest(digest)}
          </span>
        </h1>
        <span className="spacer" />
        <CopyButton text={tableRef({ projectId, digest })} label="Copy ref" />
      </header>
      <div className="tab-panel">
        <TableRowsView
          projectId={projectId}
          digest={digest}
          ariaLabel="Table rows"
          sort={view.sort}
          onSortChange={(sort) => update({ sort })}
          selectedRow={view.row}
          onSelectRow={(row) => update({ row })}
        />
      </div>
    </div>
  );
}
