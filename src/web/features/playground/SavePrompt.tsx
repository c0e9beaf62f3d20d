/**
 * Saving the playground's messages as a prompt (docs/prompts.md "In the playground"): a new
 * version of the prompt it was opened from (same class, other fields kept), or a new prompt
 * under a name of the user's; the answer links the version on the Prompts page.
 */
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { describeError } from '../../components/ui/ErrorState.js';
import { useCan } from '../auth/useCan.js';
import type { PromptMessage } from './promptModel.js';
import { promptValueFromPlayground, renamedPromptValue } from './promptObjects.js';
import { useSavePrompt } from './playgroundQueries.js';
import './playground.css';

/** The prompt the playground was opened from. */
export interface OpenedPrompt {
  objectId: string;
  versionIndex: number;
  val: unknown;
}

// The server's rule for object ids (docs/api/core.md): 1–128 word characters, `.` or `-`.
const OBJECT_ID = /^[\p{L}\p{N}_.-]{1,128}$/u;

/** The save controls under the messages. */
export function SavePrompt({ projectId, opened, messages }: { projectId: string; opened: OpenedPrompt | null; messages: PromptMessage[] }) {
  const save = useSavePrompt(projectId);
  const allowed = useCan(projectId)('objCreate');
  const [name, setName] = useState('');
  const newName = name.trim();
  const nameError = newName && !OBJECT_ID.test(newName) ? 'Use letters, digits, -, _ and . only' : null;
  const promptPath = (objectId: string, digest: string) => `/${projectId}/prompts/${encodeURIComponent(objectId)}?v=${digest}`;

  const saveVersion = () =>
    opened &&
    save.mutate({ objectId: opened.objectId, val: promptValueFromPlayground({ previous: opened.val, name: opened.objectId, messages }) });
  const saveNew = () => {
    if (!newName || nameError) return;
    const val = opened
      ? renamedPromptValue(promptValueFromPlayground({ previous: opened.val, name: opened.objectId, messages }), newName)
      : promptValueFromPlayground({ previous: null, name: newName, messages });
    save.mutate({ objectId: newName, val });
  };

  return (
    <div className="playground-save" role="group" aria-label="Save prompt">
      {opened && (
        <button
          type="button"
          className="button"
          onClick={saveVersion}
          disabled={!allowed.allowed || save.isPending}
          title={allowed.reason ?? undefined}
        >
          Save as new version of {opened.objectId}
        </button>
      )}
      <label className="field">
        <span>New prompt name</span>
        <input
          className="input"
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder="my-prompt"
          aria-invalid={!!nameError}
        />
      </label>
      <button
        type="button"
        className="button"
        onClick={saveNew}
        disabled={!allowed.allowed || save.isPending || !newName || !!nameError}
        title={allowed.reason ?? nameError ?? undefined}
      >
        Save as new prompt
      </button>
      {nameError && <p className="form-error">{nameError}</p>}
      {save.error && (
        <p className="form-error" role="alert">
          {describeError(save.error).detail}
        </p>
      )}
      {save.data && (
        <p role="status">
          {save.data.unchanged ? 'No change: ' : 'Saved '}
          <Link to={promptPath(save.data.objectId, save.data.digest)}>
            {save.data.objectId} v{save.data.versionIndex}
          </Link>
          {save.data.unchanged ? ' already holds this prompt.' : '.'}
        </p>
      )}
    </div>
  );
}
