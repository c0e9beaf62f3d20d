/** `weft dev`: placeholder until the dashboard lands. */
export async function devCommand(_args: string[]): Promise<void> {
  throw new Error('the dashboard dev server is not available yet');
}
