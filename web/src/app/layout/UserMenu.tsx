import type { User } from '@shop/contracts';
import type { MouseEvent } from 'react';
import { Link } from 'react-router';
import { useSignOut } from '../../features/auth/hooks/use-session';
import { paths } from '../../lib/paths';
import { HeaderMenu } from './HeaderMenu';

/** 'Hello, {name}' with User Profile and Sign Out. */
export function UserMenu({ user }: { user: User }) {
  const signOut = useSignOut();
  const onSignOut = (event: MouseEvent) => {
    event.preventDefault();
    void signOut();
  };
  return (
    <HeaderMenu label={<span className="shop-user-name">Hello, {user.name}</span>}>
      <Link to={paths.profile} className="dropdown-item">
        User Profile
      </Link>
      <div className="dropdown-divider" role="separator" />
      <a href={paths.signin} className="dropdown-item" onClick={onSignOut}>
        Sign Out
      </a>
    </HeaderMenu>
  );
}
