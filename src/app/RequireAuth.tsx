/**
 * The authentication guard (§2 Routing, §6): every route but /login needs a stored admin token.
 * Without one it redirects to /login (replace), remembering the origin location — pathname,
 * search and hash — so a successful sign-in returns there.
 */
import { Navigate, Outlet, useHref, useLocation, useNavigation } from 'react-router-dom';
import { hasToken } from '../api/token';
import { LOGIN_PATH, loginRedirectState } from '../screens/useLoginRedirect';

/** Layout route guarding its children: renders them when a token is stored, else goes to /login. */
export function RequireAuth() {
  const location = useLocation();
  const navigation = useNavigation();
  const loginHref = useHref(LOGIN_PATH);
  if (!hasToken()) {
    // A 401 has already sent the operator to /login with the reason (the session expired); the
    // guard must not replace that navigation with its own 'signed out' one.
    if (navigation.location?.pathname === loginHref) return null;
    return <Navigate to={LOGIN_PATH} replace state={loginRedirectState(location, 'signed_out')} />;
  }
  return <Outlet />;
}
