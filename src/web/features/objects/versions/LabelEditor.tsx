/**
 * A version's aliases or tags, editable in place: × removes one, + opens a small input (Enter
 * adds, Escape cancels). An alias already naming another version moves here; the suggestions
 * say from where. Failures stay in the input and, in words, above the versions table.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router-dom';
import { labelClass } from '../LabelChips.js';
import { objectVersionsQueryOptions, projectTagsQueryOptions, type ObjVersion } from '../objectQueries.js';
import { useLabelMutation, type LabelChange } from './useLabelMutation.js';
import { useCan } from '../../auth/useCan.js';
import '../objects.css';

/** Props: which labels, of which version. */
export interface LabelEditorProps {
  kind: 'alias' | 'tag';
  version: ObjVersion;
}

/** Editable label pills for one version. */
export function LabelEditor({ kind, version }: LabelEditorProps) {
  const { entity = '', project = '', objectId = '' } = useParams();
  const projectId = `${entity}/${project}`;
  const mutation = useLabelMutation({ projectId, objectId });
  const [adding, setAdding] = useState(false);
  const [text, setText] = useState('');
  const labels = kind === 'alias' ? version.aliases : version.tags;
  const v = `v${version.version_index}`;
  const can = useCan(projectId);
  const mayAdd = can(kind === 'alias' ? 'objSetAliases' : 'objAddTags').allowed;
  const mayRemove = can(kind === 'alias' ? 'objRemoveAliases' : 'objRemoveTags').allowed;

  const change = (action: LabelChange['action'], label: string, onSuccess?: () => void) =>
    mutation.mutate({ action, label, digest: version.digest, versionIndex: version.version_index }, { onSuccess });
  const submit = () => {
    const label = text.trim();
    if (!label) return setAdding(false);
    change(kind === 'alias' ? 'setAlias' : 'addTag', label, () => {
      setAdding(false);
      setText('');
    });
  };

  return (
    <div className="label-editor">
      {labels.length > 0 && (
        <ul className="label-chips" aria-label={`${kind === 'alias' ? 'Aliases' : 'Tags'} of ${v}`}>
          {labels.map((label) => (
            <li key={label} className={labelClass(kind, label)} title={label}>
              <span className="label-text">{label}</span>
              {mayRemove && !(kind === 'alias' && label === 'latest') && (
                <button
                  type="button"
                  className="label-remove"
                  aria-label={`Remove ${kind} ${label} from ${v}`}
                  disabled={mutation.isPending}
                  onClick={() => change(kind === 'alias' ? 'removeAlias' : 'removeTag', label)}
                >
                  ×
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {adding ? (
        <form
          className="label-form"
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <input
            className="input label-input"
            autoFocus
            aria-label={`New ${kind} for ${v}`}
            aria-invalid={mutation.isError || undefined}
            placeholder={kind === 'alias' ? 'alias, e.g. prod' : 'tag'}
            list={`${kind}-suggestions-${version.digest}`}
            value={text}
            disabled={mutation.isPending}
            onChange={(e) => {
              setText(e.target.value);
              if (mutation.isError) mutation.reset();
            }}
            onKeyDown={(e) => {
              if (e.key === 'Escape') {
                setAdding(false);
                setText('');
              }
            }}
            onBlur={() => !text.trim() && setAdding(false)}
          />
          <Suggestions kind={kind} projectId={projectId} objectId={objectId} version={version} />
        </form>
      ) : (
        mayAdd && (
          <button
            type="button"
            className="label-add"
            aria-label={`Add ${kind} to ${v}`}
            title={`Add ${kind === 'alias' ? 'an alias' : 'a tag'}`}
            onClick={() => setAdding(true)}
          >
            +
          </button>
        )
      )}
    </div>
  );
}

/** Datalist of likely labels: this object's aliases on other versions, or the project's tags. */
function Suggestions({
  kind,
  projectId,
  objectId,
  version,
}: {
  kind: 'alias' | 'tag';
  projectId: string;
  objectId: string;
  version: ObjVersion;
}) {
  const versions = useQuery({ ...objectVersionsQueryOptions({ projectId, objectId }), enabled: kind === 'alias' });
  const tags = useQuery({ ...projectTagsQueryOptions(projectId), enabled: kind === 'tag' });
  const options =
    kind === 'alias'
      ? (versions.data ?? []).flatMap((o) =>
          o.digest === version.digest
            ? []
            : o.aliases.filter((a) => a !== 'latest').map((a) => ({ value: a, label: `on v${o.version_index}: moves here` })),
        )
      : (tags.data ?? []).filter((t) => !version.tags.includes(t)).map((t) => ({ value: t, label: '' }));
  return (
    <datalist id={`${kind}-suggestions-${version.digest}`}>
      {options.map((o) => (
        <option key={o.value} value={o.value} label={o.label || undefined} />
      ))}
    </datalist>
  );
}
