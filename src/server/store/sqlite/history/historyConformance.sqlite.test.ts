/**
 * The calls, threads, search and query conformance suites on SQLite with every string and array
 * of a call stored apart (`WEFT_HISTORY_DEDUP=all`, docs/history-storage.md): each filter, sort,
 * expansion and read then goes through the blobs and `weft_inflate`, and must answer as before.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe } from 'vitest';
import { openStore } from '../../openStore.js';
import type { TestBackend } from '../../../testing/tempStore.js';
import { describeCallsConformance } from '../../conformance/calls.conformance.js';
import { describeCallsSearchConformance } from '../../conformance/callsSearch.conformance.js';
import { describeCallsQueryConformance } from '../../conformance/callsQuery.conformance.js';
import { describeCallsFeedbackQueryConformance } from '../../conformance/callsFeedbackQuery.conformance.js';
import { describeThreadsConformance } from '../../conformance/threads.conformance.js';

const open = async (dataDir: string) => openStore({ kind: 'sqlite', dataDir, historyDedup: 'all' });

const everyPiece: TestBackend = {
  name: 'sqlite, every piece stored apart',
  open: async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'weft-history-'));
    const store = await open(dataDir);
    return {
      store,
      close: async () => {
        await store.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  },
  openPair: async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'weft-history-pair-'));
    const [a, b] = [await open(dataDir), await open(dataDir)];
    return {
      a,
      b,
      close: async () => {
        await a.close();
        await b.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  },
  serverEnv: { WEFT_STORE: 'sqlite', WEFT_HISTORY_DEDUP: 'all' },
};

describe(`${everyPiece.name}`, () => {
  describeCallsConformance(everyPiece.open);
  describeCallsSearchConformance(everyPiece.open);
  describeThreadsConformance(everyPiece.open);
  describeCallsQueryConformance(everyPiece);
  describeCallsFeedbackQueryConformance(everyPiece);
});
