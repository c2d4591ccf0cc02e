/**
 * The authentication guard (§2 Routing, §6): every route but /login needs a stored admin token.
 * Without one it redirects to /login (replace), remembering the origin location — pathname,
 * search and hash — so a successful sign-in returns there. An operator whom an owner requires to
 * use two-factor sign-in, and who has not enrolled, is sent to the enrolment before anything else
 * (the server refuses their other calls with TOTP_ENROLMENT_REQUIRED anyway).
 */
import { useQuery } from '@tanstack/react-query';
import { Navigate, Outlet, useHref, useLocation, useNavigation } from 'react-router-dom';
import { whoamiQueryOptions } from '../api/auth';
import { hasToken } from '../api/token';
import { ENROLMENT_PATH, LOGIN_PATH, loginRedirectState } from '../screens/useLoginRedirect';

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
  return <EnrolmentGate />;
}

/** Renders the routed screen, or sends an operator who must enrol to the enrolment first. */
function EnrolmentGate() {
  const location = useLocation();
  const whoami = useQuery({ ...whoamiQueryOptions(), staleTime: 60_000 });
  const enrolling = `${location.pathname}${location.search}` === ENROLMENT_PATH;
  if (whoami.data?.mustEnrolTotp && !enrolling) return <Navigate to={ENROLMENT_PATH} replace />;
  return <Outlet />;
}
