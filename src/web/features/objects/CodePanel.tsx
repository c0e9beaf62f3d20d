/** An op's (or any versioned object's) source file, read from the file store and highlighted. */
import { useQuery } from '@tanstack/react-query';
import { CodeView } from '../../components/code/CodeView.js';
import { ErrorState } from '../../components/ui/ErrorState.js';
import { Spinner } from '../../components/ui/Spinner.js';
import { fileTextQueryOptions } from './objectQueries.js';

/** Props: the project and the file (name and digest from the version's `files`). */
export interface CodePanelProps {
  projectId: string;
  file: { name: string; digest: string };
}

/** Source code panel. */
export function CodePanel({ projectId, file }: CodePanelProps) {
  const text = useQuery(fileTextQueryOptions({ projectId, digest: file.digest }));
  if (text.error) return <ErrorState error={text.error} onRetry={() => void text.refetch()} />;
  if (text.isPending) return <Spinner showLabel label="Loading code" />;
  return <CodeView code={text.data} ariaLabel="Source code" title={file.name} />;
}
