/** Polls `probe` every 50 ms until `done` holds (a job, a monitor sweep); throws after `tries` polls. */
export async function waitFor<T>(probe: () => Promise<T>, done: (v: T) => boolean, tries = 400): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const v = await probe();
    if (done(v)) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('condition not reached');
}
