/** `weft demo`: placeholder until the demo generator lands. */
export async function demoCommand(_args: string[]): Promise<void> {
  throw new Error('the demo loader is not available yet');
}
