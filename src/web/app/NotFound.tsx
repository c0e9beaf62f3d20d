/** The not-found page: unknown dashboard paths, and ids (calls, objects, ...) that do not exist. */
import { Link, useParams } from 'react-router-dom';

/** Props: what was not found (default: a page) and its words. */
export interface NotFoundProps {
  title?: string;
  detail?: string;
}

/** "… not found" with a way back: the project's calls inside a project, else the projects. */
export function NotFound({ title = 'Page not found', detail = 'There is no dashboard page at this address.' }: NotFoundProps) {
  const { entity, project } = useParams();
  const inProject = entity !== undefined && project !== undefined;
  return (
    <div className="page">
      <div className="empty-state" role="status">
        <h1>{title}</h1>
        <p className="muted">{detail}</p>
        {inProject ? (
          <Link className="button" to={`/${entity}/${project}/calls`}>
            Back to calls
          </Link>
        ) : (
          <Link className="button" to="/">
            Go to projects
          </Link>
        )}
      </div>
    </div>
  );
}
