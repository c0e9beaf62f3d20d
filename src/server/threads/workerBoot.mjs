// Entry of a request thread (threads/requestThreads.ts). Weft runs its TypeScript through tsx
// (bin/weft.js), and a worker thread starts without the parent's loader, so it registers tsx
// itself before loading the real entry.
import { register } from 'tsx/esm/api';

register();
await import('./requestWorker.ts');
