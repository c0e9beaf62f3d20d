/**
 * Settings: a project's model prices (under `/:entity/:project/settings`), your API keys, your
 * signed-in sessions and password, their default entity (where SDK traces for bare project names go), and for admins the users. Who may do what: any member of a project may view and change its
 * prices (as `/cost/create` already allows them); everyone manages their own API keys; entity admins
 * manage the roles of their entities' users and global admins everyone's (docs/security/roles.md).
 */
import { useSuspenseQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router-dom';
import { whoamiQueryOptions } from '../auth/authQueries.js';
import { ApiKeysSection } from './ApiKeysSection.js';
import { AuditLogSection } from './AuditLogSection.js';
import { PasswordSection } from './PasswordSection.js';
import { DefaultEntitySection } from './DefaultEntitySection.js';
import { PricesSection } from './PricesSection.js';
import { ProvidersSection } from './ProvidersSection.js';
import { RedactionSection } from './RedactionSection.js';
import { RetentionSection } from './RetentionSection.js';
import { SessionsSection } from './SessionsSection.js';
import { UsersSection } from './UsersSection.js';
// Entity admins manage their entity's members and read its audit rows; the server checks again.
import { can, managesUsers } from '../../lib/permissions.js';
import './settings.css';

/** Settings page, with or without a project. */
export function SettingsPage() {
  const { entity, project } = useParams();
  const { data: user } = useSuspenseQuery(whoamiQueryOptions());
  const projectId = entity && project ? `${entity}/${project}` : null;
  return (
    <div className="page settings-page">
      <header className="page-header">
        <h1>Settings</h1>
      </header>
      <nav className="settings-toc" aria-label="Settings sections">
        {projectId && <a href="#providers">Model providers</a>}
        {projectId && <a href="#prices">Model prices</a>}
        {projectId && <a href="#redaction">Redaction</a>}
        {projectId && <a href="#retention">Retention</a>}
        <a href="#api-keys">API keys</a>
        <a href="#default-entity">Default entity</a>
        <a href="#sessions">Sessions</a>
        <a href="#password">Password</a>
        {managesUsers(user) && <a href="#users">Users</a>}
        {managesUsers(user) && <a href="#audit-log">Audit log</a>}
      </nav>
      {projectId && <ProvidersSection projectId={projectId} />}
      {projectId ? (
        <PricesSection projectId={projectId} />
      ) : (
        <p className="muted settings-note">
          Model prices are set per project: open a project and choose <strong>Settings</strong> there. <Link to="/">Projects</Link>
        </p>
      )}
      {projectId && <RetentionSection projectId={projectId} canEdit={can(user, 'retentionSet', projectId)} />}
      {projectId && <RedactionSection projectId={projectId} />}
      <ApiKeysSection username={user.username} />
      <DefaultEntitySection />
      <SessionsSection />
      {user.auth !== 'api_key' && <PasswordSection />}
      {managesUsers(user) && <UsersSection me={user} />}
      {managesUsers(user) && <AuditLogSection />}
    </div>
  );
}
