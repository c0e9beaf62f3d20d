/** The latest failed feedback write, in words, beside the control that made it. */
import { describeError } from './ErrorState.js';

/** Shows the first error among the given mutations, if any. */
export function MutationError({ mutations }: { mutations: { error: unknown }[] }) {
  const error = mutations.find((m) => m.error)?.error;
  if (!error) return null;
  const { title, detail } = describeError(error);
  return (
    <p className="fb-error" role="alert">
      {title}: {detail}
    </p>
  );
}
