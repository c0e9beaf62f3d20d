/**
 * Payloads that refer to files in every way the file reference index must see (core/fileRefs.ts),
 * and the references they make, for the tests of the index written at write time and of the
 * migrations' backfills, which must agree with it.
 */
import { endWrite, startWrite } from './callWrites.js';
import type { Store } from '../Store.js';

const cwt = (files: Record<string, string>) => ({ _type: 'CustomWeaveType', weave_type: { type: 'PIL.Image.Image' }, files, load_op: 'x' });

/** Writes the payloads into the project. */
export async function writeFileRefPayloads(store: Store, projectId: string): Promise<void> {
  await store.calls.writeCalls([
    // Deep in a list of the inputs, and two files of one value in the output.
    startWrite(projectId, 'c1', { inputsJson: JSON.stringify({ a: [{ x: cwt({ 'img.png': 'D1' }) }] }) }),
    endWrite(projectId, 'c1', { outputJson: JSON.stringify(cwt({ content: 'D2', 'metadata.json': 'D3' })) }),
    // A `files` map that is no Weave value is not a reference.
    startWrite(projectId, 'c2', { inputsJson: JSON.stringify({ files: { a: 'NOT-A-REF' } }) }),
    // A file name with braces, quotes and escapes.
    startWrite(projectId, 'c3', { inputsJson: JSON.stringify({ v: cwt({ 'we{ird}"name\\.png': 'D4', 'x\n': 'D1' }) }) }),
  ]);
  const val = JSON.stringify({ picture: cwt({ 'image.png': 'D5' }) });
  await store.objects.createObject({
    projectId,
    objectId: 'logo',
    digest: 'objdigest',
    kind: 'object',
    baseObjectClass: null,
    leafObjectClass: null,
    valJson: val,
    sizeBytes: val.length,
    wbUserId: null,
    createdAt: 1,
  });
  await store.tables.createTable({
    projectId,
    digest: 'tabledigest',
    rowDigests: ['row1', 'row2'],
    rows: [
      { digest: 'row1', valJson: JSON.stringify({ r: cwt({ 'a.png': 'D6' }) }) },
      { digest: 'row2', valJson: '{"r":1}' },
    ],
    createdAt: 1,
  });
}

/** The references as `kind holder digest`, sorted. */
export const FILE_REFS = ['call c1 D1', 'call c1 D2', 'call c1 D3', 'call c3 D1', 'call c3 D4', 'object logo:objdigest D5', 'row row1 D6'];
