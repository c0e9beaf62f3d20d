/**
 * Where server code takes "now" from. The services object carries one clock (services.ts);
 * a route reads it once per request and hands the instant (`now`) down to the domain, and
 * what measures time across awaits (a model call, a job) takes the clock itself. Tests fix
 * it, so every timestamp the server makes is the clock's.
 */
import { nowMicros } from './datetime.js';

export interface Clock {
  /** Epoch microseconds, the store's unit of time. */
  nowMicros(): number;
}

let last = 0;
/** Strictly increasing within a thread: two versions written in one millisecond still differ. */
export const systemClock: Clock = { nowMicros: () => (last = Math.max(nowMicros(), last + 1)) };
