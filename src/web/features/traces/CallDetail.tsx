/**
 * The selected call in full: facts (status, timing, tokens, cost, ids), exception, the
 * conversation when there is one, inputs, output, usage per model, attributes and summary.
 * Shows the tree's light copy at once while the full call (with payloads) loads.
 */
import { useQuery } from '@tanstack/react-query';
import type { OutlineRollup } from '../../../contract/traceOutline.js';
import { Link } from 'react-router-dom';
import { ChatView } from '../../components/chat/ChatView.js';
import { extractChat } from '../../components/chat/chatModel.js';
import { JsonViewer } from '../../components/json/JsonViewer.js';
import { RefLink } from '../../components/refs/RefLink.js';
import { ErrorState } from '../../components/ui/ErrorState.js';
import { Section } from '../../components/ui/Section.js';
import { Spinner } from '../../components/ui/Spinner.js';
import { StatusBadge } from '../../components/ui/StatusBadge.js';
import { formatCost, formatDateTime, formatDuration, formatInteger, plural } from '../../lib/format.js';
import { callCost, callLatencyMs, callName, callStatus, callTokens, type Call } from '../../entities/calls/callFields.js';
import { FeedbackSection } from '../feedback/FeedbackSection.js';
import { isLlmCall } from '../playground/promptModel.js';
import { ReactionBar } from '../feedback/ReactionBar.js';
import { UsageTable } from './UsageTable.js';
import { findMedia } from '../../components/media/mediaModel.js';
import { MediaList } from '../../components/media/MediaView.js';
import { PayloadViewer } from './PayloadViewer.js';
import { callPreviewQueryOptions } from './traceQueries.js';
import './traces.css';

/** Detail panel for one call. */
export function CallDetail({ projectId, light, rollup }: { projectId: string; light: Call; rollup?: OutlineRollup }) {
  // A preview: payloads cut to their first screen, the rest read by part (PayloadViewer).
  const { data, error, isPending, refetch } = useQuery(callPreviewQueryOptions({ projectId, id: light.id }));
  const full = data ? data.call : undefined;
  const cuts = data?.cuts ?? [];
  const call = full ?? light;
  const tokens = callTokens(call);
  const cost = callCost(call);
  const latency = callLatencyMs(call);
  const chat = full ? extractChat({ inputs: full.inputs, output: full.output }) : null;
  // A conversation shows its media in its messages; any other call lists what it holds.
  const media = full && !chat ? [...findMedia(full.inputs, 'inputs'), ...findMedia(full.output, 'output')] : [];

  return (
    <aside className="call-detail" aria-label="Call details">
      <header className="cd-header">
        <div className="row">
          <h2 title={call.op_name}>{callName(call)}</h2>
          <StatusBadge status={callStatus(call)} />
          {isPending && <Spinner label="Loading call" />}
        </div>
        <dl className="facts">
          <dt>Started</dt>
          <dd>{formatDateTime(call.started_at)}</dd>
          <dt>Latency</dt>
          <dd>{latency === null ? 'running' : formatDuration(latency)}</dd>
          {tokens && (
            <>
              <dt>Tokens</dt>
              <dd title={`${tokens.prompt} prompt + ${tokens.completion} completion`}>
                {formatInteger(tokens.total)}{' '}
                <span className="muted">
                  ({formatInteger(tokens.prompt)} in · {formatInteger(tokens.completion)} out)
                </span>
              </dd>
            </>
          )}
          {cost !== null && (
            <>
              <dt>Cost</dt>
              <dd>{formatCost(cost)}</dd>
            </>
          )}
          {rollup && rollup.descendants > 0 && (
            <>
              <dt>Below</dt>
              <dd aria-label="Subtree totals">
                {plural(rollup.descendants, 'call')} · {plural(rollup.errors, 'error')}
                {rollup.tokens ? ` · ${formatInteger(rollup.tokens)} tokens` : ''}
                {rollup.cost !== null ? ` · ${formatCost(rollup.cost)}` : ''}
              </dd>
            </>
          )}
          <dt>Op</dt>
          <dd className="mono ellipsis" title={call.op_name}>
            <RefLink uri={call.op_name} />
          </dd>
          <dt>Call id</dt>
          <dd className="mono">{call.id}</dd>
        </dl>
        {full !== null && <ReactionBar projectId={projectId} callId={call.id} />}
        {full && isLlmCall(full.inputs) && (
          <Link className="button small" to={`/${projectId}/playground?call=${encodeURIComponent(full.id)}`}>
            Open in playground
          </Link>
        )}
      </header>
      {error && <ErrorState error={error} onRetry={() => void refetch()} compact />}
      {call.exception && (
        <Section title="Exception">
          <pre className="exception">{call.exception}</pre>
        </Section>
      )}
      {full === null && <p className="muted">This call no longer exists (it may have been deleted).</p>}
      {full && (
        <>
          {chat && (
            <Section title="Conversation">
              {cuts.some((c) => c.kind === 'string' && c.path[0] !== 'attributes') && (
                <p className="muted small">Long texts are cut here; Inputs and Output read them in full.</p>
              )}
              <ChatView messages={chat} projectId={projectId} />
            </Section>
          )}
          {media.length > 0 && (
            <Section title="Media">
              <MediaList items={media} projectId={projectId} />
            </Section>
          )}
          <Section title="Inputs" defaultOpen={!chat}>
            <PayloadViewer
              key={`${full.id}-in`}
              projectId={projectId}
              callId={full.id}
              field="inputs"
              value={full.inputs}
              cuts={cuts}
              ariaLabel="Inputs"
            />
          </Section>
          <Section title="Output" defaultOpen={!chat}>
            <PayloadViewer
              key={`${full.id}-out`}
              projectId={projectId}
              callId={full.id}
              field="output"
              value={full.output ?? null}
              cuts={cuts}
              ariaLabel="Output"
            />
          </Section>
          <FeedbackSection projectId={projectId} callId={full.id} />
          {tokens && (
            <Section title="Usage">
              <UsageTable call={full} />
            </Section>
          )}
          <Section title="Attributes" defaultOpen={false}>
            <PayloadViewer
              key={`${full.id}-attr`}
              projectId={projectId}
              callId={full.id}
              field="attributes"
              value={full.attributes}
              cuts={cuts}
              ariaLabel="Attributes"
            />
          </Section>
          <Section title="Summary" defaultOpen={false}>
            <JsonViewer key={`${full.id}-sum`} value={full.summary} ariaLabel="Summary" />
          </Section>
        </>
      )}
    </aside>
  );
}
