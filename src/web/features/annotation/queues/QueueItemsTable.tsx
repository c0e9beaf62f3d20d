/**
 * Every item of a queue in queue order: what it is (a call or a whole thread), its state, who
 * reviewed it and what they answered, and a link that opens it on the review page. With
 * `selection`, a checkbox per item (and one for all) picks items for "Add to dataset".
 */
import { useRef } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useListPlace } from '../../../components/table/useListPlace.js';
import { useRowCursor } from '../../../components/table/useRowCursor.js';
import { formatInteger } from '../../../lib/format.js';
import type { QueueResultRow } from '../annotationQueries.js';
import type { QueueField } from '../queueFields.js';
import { itemProgress } from '../reviewProgress.js';
import '../annotation.css';

const shownValue = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'boolean' ? (v ? 'Yes' : 'No') : JSON.stringify(v));

/** Props: the rows, the queue's questions, and where an item opens. */
export interface QueueItemsTableProps {
  rows: QueueResultRow[];
  total: number;
  fields: QueueField[];
  reviewersPerItem: number;
  reviewHref: (itemId: string) => string;
  /** The selected item ids and what a change does; absent, no checkboxes. */
  selection?: { ids: string[]; onChange: (ids: string[]) => void };
}

/** Item list. */
export function QueueItemsTable({ rows, total, fields, reviewersPerItem, reviewHref, selection }: QueueItemsTableProps) {
  // Row cursor: j/k or ↑/↓ move it, Enter opens the item; Back from the review lands on it.
  const navigate = useNavigate();
  const rowsRef = useRef<HTMLTableSectionElement>(null);
  const cursor = useRowCursor({
    rowCount: rows.length,
    containerRef: rowsRef,
    onOpen: (i) => void navigate(reviewHref(rows[i]!.item.id)),
    pageKeys: true,
    place: useListPlace('queue-items'),
  });
  if (rows.length === 0) return <p className="muted">No items yet.</p>;
  const picked = new Set(selection?.ids ?? []);
  const allPicked = rows.length > 0 && rows.every((r) => picked.has(r.item.id));
  const toggle = (id: string, on: boolean) => selection?.onChange(on ? [...picked, id] : [...picked].filter((x) => x !== id));
  return (
    <>
      {/* Wider than a phone: the table scrolls sideways in its own box, the page only up and down. */}
      <div className="queue-table-scroll">
        <table className="simple-table queue-items" aria-label="Queue items">
          <thead>
            <tr>
              {selection && (
                <th>
                  <input
                    type="checkbox"
                    aria-label="Select all items"
                    checked={allPicked}
                    onChange={(e) => selection.onChange(e.target.checked ? rows.map((r) => r.item.id) : [])}
                  />
                </th>
              )}
              <th className="num">#</th>
              <th>Item</th>
              <th>State</th>
              <th>Reviews</th>
              <th>Answers</th>
              <th className="actions-col">
                <span className="visually-hidden">Open</span>
              </th>
            </tr>
          </thead>
          <tbody ref={rowsRef} onKeyDown={cursor.onKeyDown}>
            {rows.map(({ item, reviews }, i) => (
              <tr key={item.id} {...cursor.rowProps(i)}>
                {selection && (
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`Select item ${item.position_in_queue}`}
                      checked={picked.has(item.id)}
                      onChange={(e) => toggle(item.id, e.target.checked)}
                    />
                  </td>
                )}
                <td className="num muted">{item.position_in_queue}</td>
                <td>
                  <span className="ellipsis item-what">
                    {item.thread_id ? `Thread ${item.thread_id}` : item.call_op_name || item.call_id}
                  </span>
                  {item.reserved_by && <span className="muted small"> · held by {item.reserved_by}</span>}
                </td>
                <td>
                  <ItemState item={item} reviewersPerItem={reviewersPerItem} />
                </td>
                <td className="small">
                  {formatInteger(item.completed_reviews)}/{formatInteger(reviewersPerItem)}
                  {reviews.length > 0 && <span className="muted"> · {reviews.map((r) => r.annotator).join(', ')}</span>}
                </td>
                <td className="small answers-cell">
                  {reviews
                    .filter((r) => r.annotation_state !== 'in_progress')
                    .map((r) => (
                      <div key={r.annotator} className="ellipsis">
                        {reviews.length > 1 && <span className="muted">{r.annotator}: </span>}
                        {r.annotation_state === 'skipped'
                          ? 'skipped'
                          : fields
                              .filter((f) => Object.hasOwn(r.answers, f.ref))
                              .map((f) => `${f.name} ${shownValue(r.answers[f.ref])}`)
                              .join(' · ')}
                      </div>
                    ))}
                </td>
                <td className="row-actions">
                  <Link className="button small ghost" to={reviewHref(item.id)} aria-label={`Open item ${item.position_in_queue}`}>
                    Open
                  </Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {total > rows.length && (
        <p className="muted small">
          Showing the first {formatInteger(rows.length)} of {formatInteger(total)} items; the export has them all.
        </p>
      )}
    </>
  );
}

/** An item's progress as a pill: "Completed" only once it has every review the queue wants. */
function ItemState({ item, reviewersPerItem }: { item: QueueResultRow['item']; reviewersPerItem: number }) {
  const { progress, label } = itemProgress(item, reviewersPerItem);
  return <span className={`state-pill ${progress}`}>{label}</span>;
}
