/** The signed-in user with a logout action. */
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router-dom';
import type { WhoamiRes } from '../../contract/weft.js';
import { Popover } from '../components/ui/Popover.js';
import { signOut } from '../lib/signOut.js';

/** User button; its panel shows entities and "Log out". */
export function UserMenu({ user }: { user: WhoamiRes }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const logout = async () => {
    try {
      await signOut();
    } finally {
      // To the login page first, then drop the data: a page still mounted would refetch, get 401,
      // and send us to the login page as "signed out elsewhere" instead.
      await navigate('/login?signed_out=1');
      queryClient.clear();
    }
  };
  return (
    <Popover label={user.username} ariaLabel={`Account ${user.username}`} className="button ghost" align="end">
      {(close) => (
        <div className="menu">
          <div className="menu-section">
            <div>
              <strong>{user.username}</strong> {user.is_admin && <span className="tag">admin</span>}
            </div>
            <div className="muted small">Entities: {user.entities.length ? user.entities.join(', ') : 'none'}</div>
          </div>
          <Link className="menu-item" to="/settings" onClick={close}>
            Settings and API keys
          </Link>
          <button type="button" className="menu-item" onClick={() => void logout()}>
            Log out
          </button>
        </div>
      )}
    </Popover>
  );
}
