/**
 * Prompts (`/:entity/:project/prompts`): the project's prompt objects (`StringPrompt`,
 * `MessagesPrompt` and other `Prompt` subclasses the SDKs publish), latest versions, with their
 * variables (docs/prompts.md).
 */
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router-dom';
import { ListTable } from '../../components/table/ListTable.js';
import { formatRelative } from '../../lib/format.js';
import { promptVariables } from './promptModel.js';
import { promptsQueryOptions } from './promptQueries.js';
import './prompts.css';

export function PromptsPage() {
  const { entity = '', project = '' } = useParams();
  const projectId = `${entity}/${project}`;
  const prompts = useQuery(promptsQueryOptions(projectId));

  return (
    <div className="page">
      <header className="page-header">
        <h1>Prompts</h1>
      </header>
      <section className="card" aria-label="Prompts">
        <p className="muted small">
          Prompts the SDKs publish (<code>weave.StringPrompt</code>, <code>weave.MessagesPrompt</code>), each save a new version.
        </p>
        <ListTable
          items={prompts.data}
          pending={prompts.isPending}
          noun="prompts"
          label="Prompt list"
          head={
            <>
              <th>Name</th>
              <th>Kind</th>
              <th>Variables</th>
              <th>Latest</th>
              <th>Saved</th>
            </>
          }
          row={(p) => (
            <tr key={p.object_id}>
              <td>
                <Link className="mono" to={`/${projectId}/prompts/${encodeURIComponent(p.object_id)}`}>
                  {p.object_id}
                </Link>
              </td>
              <td>{p.leaf_object_class}</td>
              <td className="mono">{promptVariables(p.val).join(', ') || '–'}</td>
              <td>v{p.version_index}</td>
              <td className="muted">{formatRelative(p.created_at)}</td>
            </tr>
          )}
        />
      </section>
    </div>
  );
}
