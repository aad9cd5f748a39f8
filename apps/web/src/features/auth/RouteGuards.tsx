import { Navigate, Outlet } from 'react-router-dom';
import { useSession } from '../../entities/session/SessionProvider';

/** Renders the nested routes only with a session; otherwise sends the visitor to /login. */
export function RequireAuth() {
  const { session } = useSession();
  if (session === null) return <Navigate to="/login" replace />;
  return <Outlet />;
}

/** Login and signup: a member whose session the server confirmed goes straight home. */
export function PublicOnly() {
  const { session, verified } = useSession();
  if (session !== null && verified) return <Navigate to="/" replace />;
  return <Outlet />;
}
