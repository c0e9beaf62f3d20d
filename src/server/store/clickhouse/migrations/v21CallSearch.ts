import { SEARCH_TEXT_SQL } from '../callSearch.js';
import type { ClickHouseMigration } from './migration.js';

export const v21CallSearch: ClickHouseMigration = {
  version: 21,
  name: 'substring index of calls (n-gram bloom filter)',
  statements: [
    // Any substring of 3 or more characters of a call's inputs, attributes, output and exception
    // (docs/search.md): a bloom filter of the trigrams of each granule's lowercased text, which
    // a search's LIKE on the same expression reads to skip granules. ngrambf_v1, not the newer
    // `text` index: the minimum server (25.8) has it only as an experiment.
    `ALTER TABLE calls ADD INDEX IF NOT EXISTS i_search ${SEARCH_TEXT_SQL} TYPE ngrambf_v1(3, 65536, 2, 0) GRANULARITY 1`,
    // The calls stored before (a mutation; weft migrate waits for it).
    'ALTER TABLE calls MATERIALIZE INDEX i_search',
  ],
};
